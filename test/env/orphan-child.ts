// Helper process for run-dir.int.test: starts redis in a fresh run folder, prints its pid and waits
// to be SIGKILLed, leaving the redis behind as a killed test run would.
import { createRunDir } from './run-dir.js';
import { startRedis } from './redis.js';

const run = createRunDir();
const redis = await startRedis(run);
process.stdout.write(`${JSON.stringify({ pid: redis.process.pid, root: run.root })}\n`);
setInterval(() => undefined, 60_000);
