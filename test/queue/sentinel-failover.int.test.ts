// The queue behind real Sentinels (a master, one replica, three Sentinels; no persistence, asynchronous
// replication) while the master fails under load: a producer and two worker processes reach Redis only
// through the Sentinels. Measured, not assumed: how many adds the old master acknowledged and the new one
// never ran (lost with the replication stream), how many keys ran twice, how long the queue stood still; and
// then a worker with the periodic resync brings every lost key back.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BullMqWorkQueue } from '../../src/queue/bullmq-queue.js';
import type { RedisConnectionOptions } from '../../src/queue/redis-connection.js';
import { createRunDir } from '../../src/environment/local/run-dir.js';
import { SENTINEL_MASTER_NAME, SentinelGroup } from '../../src/environment/local/redis-sentinel.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { addAll } from './load.js';
import { preciseNow, workerKey } from './worker-config.js';
import { WorkerProcesses } from './worker-processes.js';
import { findOverlaps, keysMissingRunAfter, readRuns, runsByKey } from './worker-records.js';

const KEYS = 3_000;
/** The master fails once this many adds are acknowledged: a backlog waits, work is in flight. */
const STRIKE_AT = 1_000;
const LOCK_MS = 5_000;
const STALLED_MS = 2_000;

describe('BullMQ work queue behind Redis Sentinels when the master fails', { timeout: 600_000 }, () => {
  const run = createRunDir();
  const workers = new WorkerProcesses();
  const groups: SentinelGroup[] = [];
  const measured: Record<string, Record<string, number>> = {};
  after(async () => {
    await workers.stopAll();
    await Promise.all(groups.map((g) => g.stop()));
    rmSync(run.root, { recursive: true, force: true });
    console.log(`queue failover: ${JSON.stringify(measured)}`);
  });

  for (const fault of ['SIGKILL', 'SIGSTOP'] as const) {
    it(`${fault} of the master under load: the queue resumes on the promoted replica; the resync brings back what replication lost`, async () => {
      const group = await SentinelGroup.start(run);
      groups.push(group);
      const before = await group.settled();
      const connection: RedisConnectionOptions = {
        sentinel: { sentinels: group.sentinels.map((s) => ({ host: '127.0.0.1', port: s.port })), name: SENTINEL_MASTER_NAME },
      };
      const name = `failover-${fault}-${randomBytes(4).toString('hex')}`;
      const recordFile = join(run.root, `${name}.tsv`);
      const base = { redisUrl: `redis://127.0.0.1:${before.master.port}`, connection, name, recordFile, concurrency: 4, maxHandlerMs: 10 };
      await workers.start(2, { ...base, lockDurationMs: LOCK_MS, stalledIntervalMs: STALLED_MS });
      const producer = new BullMqWorkQueue({ name, connection });
      try {
        let acked = 0;
        /** When each key's add was acknowledged. */
        const ackedAt = new Map<string, number>();
        const counting = {
          add: async (key: string): Promise<void> => {
            await producer.add(key);
            ackedAt.set(key, preciseNow());
            acked++;
          },
        };
        const keys = Array.from({ length: KEYS }, (_, i) => workerKey(i));
        // An add that fails during the failover is tried again, as a controller's watch event would be.
        let failedAdds = 0;
        const adding = addAll(counting, keys, 8, () => (failedAdds++, sleep(50)));
        await waitFor(() => acked >= STRIKE_AT, { what: `${STRIKE_AT} adds acknowledged`, timeoutMs: 60_000, intervalMs: 5 });
        const ackedAtFault = acked;
        const struck = preciseNow();
        if (fault === 'SIGKILL') await before.master.process.kill();
        else before.master.process.signal('SIGSTOP');
        await waitFor(async () => (await group.masterPort()) === before.replica.port, {
          what: 'the Sentinels to promote the replica',
          timeoutMs: 60_000,
          intervalMs: 50,
        });
        const switched = preciseNow();
        // Thawed at once: it still holds the queue as it froze, and must not hand it out again.
        if (fault === 'SIGSTOP') before.master.process.signal('SIGCONT');
        const lastAdds = await adding;
        const addsDone = preciseNow();
        // Drained: no run for longer than a lost lock takes to be noticed and its key run again.
        await waitFor(
          () => {
            const last = Math.max(...readRuns(recordFile).map((r) => r.end ?? r.start));
            return preciseNow() - last > LOCK_MS + 2 * STALLED_MS && preciseNow() - addsDone > LOCK_MS + 2 * STALLED_MS;
          },
          { what: 'the workers to go quiet', timeoutMs: 120_000, intervalMs: 500 },
        );
        const runs = readRuns(recordFile);
        const lost = keysMissingRunAfter(lastAdds, runs);
        const twice = [...runsByKey(runs).values()].filter((list) => list.length > 1).length;
        const resumedAt = Math.min(...runs.map((r) => r.start).filter((start) => start > switched));
        const overlaps = findOverlaps(runs);
        // The resync of a controller replica adds every key it knows; one worker doing that repairs the loss.
        const resyncStarted = preciseNow();
        await workers.start(1, { ...base, resyncKeyCount: KEYS, resyncIntervalMs: 1_000 });
        await waitFor(() => keysMissingRunAfter(lastAdds, readRuns(recordFile)).length === 0, {
          what: 'a run after every acknowledged add, once the resync ran',
          timeoutMs: 60_000,
          intervalMs: 250,
        });
        measured[fault] = {
          ackedAtFault,
          failedAdds,
          switchedMs: Math.round(switched - struck),
          resumedMs: Math.round(resumedAt - struck),
          // Acknowledged before the fault, never replicated: what asynchronous replication can lose.
          lostAckedBeforeFault: lost.filter((key) => (ackedAt.get(key) ?? 0) < struck).length,
          // Acknowledged after the fault: only the new master may acknowledge then, so none may be lost.
          lostAckedAfterFault: lost.filter((key) => (ackedAt.get(key) ?? 0) >= struck).length,
          keysRunTwice: twice,
          overlappingRuns: overlaps.length,
          repairedByResyncMs: Math.round(preciseNow() - resyncStarted),
        };
        console.log(`queue failover: ${fault}: ${JSON.stringify(measured[fault])}`);
        // Where the lost ones stood: when their add began and was acknowledged, and when they ran, in ms from the fault.
        const byKey = runsByKey(readRuns(recordFile));
        const sinceFault = (t: number | undefined): number => Math.round((t ?? 0) - struck);
        for (const key of lost.slice(0, 10)) {
          const ran = (byKey.get(key) ?? []).map((r) => sinceFault(r.start));
          console.log(
            `queue failover: ${fault}: lost ${key}: add ${sinceFault(lastAdds.get(key))}..${sinceFault(ackedAt.get(key))}, ran at ${JSON.stringify(ran)}`,
          );
        }
        assert.deepEqual(overlaps, [], 'no key ran in two workers at once');
        // Only a job running at the fault may run again (its completion or lock not replicated): at most one per
        // worker slot. An old master that hands its queue out again after the thaw makes hundreds (583 without
        // the failover detector).
        assert.ok(twice <= 2 * base.concurrency, `${twice} keys ran twice; at most the ${2 * base.concurrency} running at the fault may`);
        assert.equal(
          measured[fault]['lostAckedAfterFault'],
          0,
          'no add acknowledged after the fault was lost (an old master thawed in time acknowledged none)',
        );
        // The old master comes back (a restarted pod, or thawed) and the Sentinels make it the new master's replica.
        if (fault === 'SIGKILL') await before.master.process.start();
        const settled = await group.settled();
        assert.equal(settled.master, before.replica, 'the promoted replica stays master');
        assert.equal(settled.replica, before.master, 'the old master is a replica now');
      } finally {
        await producer.close(5_000);
        await workers.stopAll();
        workers.children.length = 0;
      }
    });
  }
});
