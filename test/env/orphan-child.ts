// Helper process for cleanup tests: starts redis in a fresh run folder, prints its pid and waits to be
// signalled. With the argument "clean-up" it installs the exit handlers first (ctrl-c must kill redis);
// without it, redis is left behind as a SIGKILLed test run would leave it.
import { killManagedProcessesOnExit } from '../../src/environment/local/cleanup.js';
import { createRunDir } from '../../src/environment/local/run-dir.js';
import { startRedis } from '../../src/environment/local/redis.js';

if (process.argv.includes('clean-up')) killManagedProcessesOnExit();
const run = createRunDir();
const redis = await startRedis(run);
process.stdout.write(`${JSON.stringify({ pid: redis.process.pid, root: run.root })}\n`);
setInterval(() => undefined, 60_000);
