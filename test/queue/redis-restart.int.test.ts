// Redis (a private one, without persistence) is killed and restarted on the same port while three
// worker processes are under load: they reconnect by themselves, and the periodic resync brings back
// the keys Redis forgot, so every key runs after its last add.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BullMqWorkQueue } from '../../src/queue/bullmq-queue.js';
import { startRedis, type RedisServer } from '../../src/environment/local/redis.js';
import { createRunDir } from '../../src/environment/local/run-dir.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { addAll, shuffledAdds } from './load.js';
import { preciseNow } from './worker-config.js';
import { WorkerProcesses } from './worker-processes.js';
import { keysMissingRunAfter, readRuns } from './worker-records.js';

const KEY_COUNT = 200;
const RESYNC_MS = 1_000;

describe('BullMQ work queue when Redis restarts', () => {
  const run = createRunDir();
  const workers = new WorkerProcesses();
  let redis: RedisServer | undefined;
  after(async () => {
    await workers.stopAll();
    await redis?.process.stop();
    rmSync(run.root, { recursive: true, force: true });
  });

  it('workers reconnect by themselves and, after the resync, every key has run after its last add', async () => {
    redis = await startRedis(run);
    const name = `restart-${randomBytes(6).toString('hex')}`;
    const recordFile = join(run.root, 'runs.tsv');
    const config = {
      redisUrl: redis.url,
      name,
      recordFile,
      concurrency: 2,
      maxHandlerMs: 20,
      lockDurationMs: 5_000,
      stalledIntervalMs: 2_000,
      resyncKeyCount: KEY_COUNT,
      resyncIntervalMs: RESYNC_MS,
    };
    const children = await workers.start(3, config);
    const producer = new BullMqWorkQueue({ name, connection: { url: redis.url } });
    try {
      // Phase 1 fills the queue with slow keys; Redis dies with a backlog. Phase 2 adds only half the
      // keys while Redis is down and coming back, so the other half depends on the resync.
      const phase1 = await addAll(producer, shuffledAdds(2_000, KEY_COUNT), 16);
      await redis.process.kill();
      const killedAt = preciseNow();
      const server = redis;
      const restart = sleep(500).then(async () => {
        await server.process.start();
        await server.ready();
        return preciseNow();
      });
      const phase2StartedAt = preciseNow();
      const phase2 = await addAll(
        producer,
        shuffledAdds(1_000, KEY_COUNT).filter((key) => Number(key.split(':')[1]) % 2 === 0),
        16,
        () => sleep(50),
      );
      const restartedAt = await restart;
      const lastAdds = new Map([...phase1, ...phase2]);
      assert.ok(phase2StartedAt > killedAt && phase2StartedAt < restartedAt, 'phase 2 began during the outage');
      await waitFor(() => keysMissingRunAfter(lastAdds, readRuns(recordFile)).length === 0, {
        what: 'a run after every key’s last add',
        timeoutMs: 60_000,
        intervalMs: 250,
      });
      const runs = readRuns(recordFile);
      assert.deepEqual(keysMissingRunAfter(lastAdds, runs), []);
      for (const child of children)
        assert.ok(
          runs.some((r) => r.pid === child.pid && r.start > restartedAt),
          `worker ${child.pid} took no key after Redis restarted`,
        );
    } finally {
      await producer.close(5_000);
    }
  });
});
