// Three worker processes share one BullMQ queue on the shared Redis: 10,000 adds over 500 keys.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BullMqWorkQueue } from '../../src/queue/bullmq-queue.js';
import { sharedEnvironment } from '../env/shared-environment.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { addAll, shuffledAdds } from './load.js';
import { WorkerProcesses } from './worker-processes.js';
import { findOverlaps, keysMissingRunAfter, readRuns, runsByKey } from './worker-records.js';

describe('BullMQ work queue across three worker processes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'queue-mp-'));
  const workers = new WorkerProcesses();
  after(async () => {
    await workers.stopAll();
    rmSync(dir, { recursive: true, force: true });
  });

  it('10,000 adds over 500 keys: no overlap per key, every last add followed by a run, runs <= adds', async () => {
    const redisUrl = sharedEnvironment().redisUrl;
    const name = `mp-${randomBytes(6).toString('hex')}`;
    const recordFile = join(dir, 'load.tsv');
    await workers.start(3, { redisUrl, name, recordFile, concurrency: 8, maxHandlerMs: 5 });
    const producer = new BullMqWorkQueue({ name, connection: { url: redisUrl } });
    try {
      const adds = shuffledAdds(10_000, 500);
      const lastAdds = await addAll(producer, adds, 32);
      await waitFor(() => keysMissingRunAfter(lastAdds, readRuns(recordFile)).length === 0, {
        what: 'a run after every key’s last add',
        timeoutMs: 120_000,
        intervalMs: 250,
      });
      await waitFor(async () => (await producer.depth()) === 0 && readRuns(recordFile).every((run) => run.end !== undefined), {
        what: 'queue drained',
        timeoutMs: 30_000,
      });
      await workers.stopAll();
      const runs = readRuns(recordFile);
      assert.deepEqual(findOverlaps(runs), []);
      assert.deepEqual(keysMissingRunAfter(lastAdds, runs), []);
      assert.ok(runs.length <= adds.length, `${runs.length} runs for ${adds.length} adds`);
      for (const [key, list] of runsByKey(runs)) assert.ok(list.length <= 20, `${key} ran ${list.length} times for 20 adds`);
      assert.equal(new Set(runs.map((run) => run.pid)).size, 3, 'all three worker processes took keys');
    } finally {
      await producer.close();
    }
  });
});
