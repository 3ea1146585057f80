// A worker process dies (SIGKILL) in the middle of a key: the key runs again on another worker once
// the dead worker's lock has expired, within lockDuration + 2 × stalledInterval. Then a SIGTERMed
// worker drains its running key before it exits.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { BullMqWorkQueue } from '../../src/queue/bullmq-queue.js';
import { sharedEnvironment } from '../env/shared-environment.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { preciseNow } from './worker-config.js';
import { WorkerProcesses } from './worker-processes.js';
import { findOverlaps, readRuns } from './worker-records.js';

const LOCK_MS = 2_000;
const STALLED_INTERVAL_MS = 1_000;
const SLOW_KEY = 'ns:crash/slow:key';

describe('BullMQ work queue when a worker process dies', () => {
  const dir = mkdtempSync(join(tmpdir(), 'queue-crash-'));
  const workers = new WorkerProcesses();
  after(async () => {
    await workers.stopAll();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the key of a SIGKILLed worker again elsewhere after its lock expired, and drains on SIGTERM', async () => {
    const redisUrl = sharedEnvironment().redisUrl;
    const name = `crash-${randomBytes(6).toString('hex')}`;
    const recordFile = join(dir, 'runs.tsv');
    await workers.start(3, {
      redisUrl,
      name,
      recordFile,
      concurrency: 2,
      maxHandlerMs: 5,
      lockDurationMs: LOCK_MS,
      stalledIntervalMs: STALLED_INTERVAL_MS,
      slowKey: SLOW_KEY,
      slowMs: 1_500,
    });
    const producer = new BullMqWorkQueue({ name, connection: { url: redisUrl } });
    const redis = new Redis(redisUrl);
    try {
      await producer.add(SLOW_KEY);
      const [first] = await waitFor(
        () => {
          const runs = readRuns(recordFile);
          return runs.length > 0 && runs;
        },
        { what: 'first run of the slow key' },
      );
      assert.ok(first);
      const [lockKey] = await redis.keys(`appset:${name}:*:lock`);
      assert.ok(lockKey, 'the running key holds a lock in Redis');
      await WorkerProcesses.stop(workers.byPid(first.pid), 'SIGKILL');
      const killedAt = preciseNow();
      const lockExpiresAt = killedAt + (await redis.pttl(lockKey));
      const second = await waitFor(() => readRuns(recordFile).find((run) => run.start > first.start), {
        what: 'the key to run again',
        timeoutMs: LOCK_MS + 2 * STALLED_INTERVAL_MS + 5_000,
      });
      assert.notEqual(second.pid, first.pid);
      assert.ok(second.start >= lockExpiresAt - 5, `re-run started ${lockExpiresAt - second.start} ms before the dead worker's lock expired`);
      const bound = LOCK_MS + 2 * STALLED_INTERVAL_MS;
      // Slack for a busy CI machine: the bound is Redis-side timing, process scheduling comes on top.
      assert.ok(second.start - killedAt <= bound + 2_000, `re-run came ${second.start - killedAt} ms after the kill; the stated bound is ${bound} ms`);

      // Graceful shutdown: the worker running the key finishes it before exiting, and nobody else takes it meanwhile.
      const code = await WorkerProcesses.stop(workers.byPid(second.pid), 'SIGTERM');
      assert.equal(code, 0);
      const runs = readRuns(recordFile);
      assert.ok(runs.find((run) => run.start === second.start)?.end !== undefined, 'the SIGTERMed worker exited before its running key ended');
      assert.equal(runs.length, 2, 'the key ran elsewhere while the SIGTERMed worker was draining it');
      assert.deepEqual(findOverlaps(runs.filter((run) => run.end !== undefined)), []);
    } finally {
      redis.disconnect();
      await producer.close();
    }
  });
});
