import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { BullMqWorkQueue, type BullMqWorkQueueOptions } from '../../src/queue/bullmq-queue.js';
import { sharedEnvironment } from '../env/shared-environment.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { describeWorkQueueConformance } from './conformance.js';
import { RunRecorder } from './run-recorder.js';

const uniqueName = (): string => `conformance-${randomBytes(6).toString('hex')}`;

// Each test gets a queue name of its own on the shared Redis, so tests and runs never see each other's keys.
describeWorkQueueConformance('bullmq', (options) => new BullMqWorkQueue({ ...options, name: uniqueName(), connection: { url: sharedEnvironment().redisUrl } }));

describe('BullMQ work queue across replicas in one process', () => {
  const open: BullMqWorkQueue[] = [];
  const replica = (options: Omit<BullMqWorkQueueOptions, 'connection'>): BullMqWorkQueue => {
    const queue = new BullMqWorkQueue({ ...options, connection: { url: sharedEnvironment().redisUrl } });
    open.push(queue);
    return queue;
  };
  after(() => Promise.all(open.map((queue) => queue.close(1_000))));

  it('two replicas never run one key at once while adds keep coming', async () => {
    const name = uniqueName();
    const recorder = new RunRecorder();
    const [a, b] = [replica({ name, concurrency: 8 }), replica({ name, concurrency: 8 })];
    a.process(recorder.handler);
    b.process(recorder.handler);
    for (let round = 0; round < 40; round++) await Promise.all(['ns/x', 'ns/y', 'ns/z'].map((key) => (round % 2 ? a : b).add(key)));
    await waitFor(async () => recorder.runs.length >= 3 && (await a.depth()) === 0 && recorder.runs.every((run) => run.end !== undefined), {
      what: 'queue drained',
    });
    assert.equal(recorder.overlaps, 0);
  });

  it('a retry scheduled by a handler that fails while its replica drains is run by another replica', async () => {
    const name = uniqueName();
    const draining = replica({ name, backoff: { baseMs: 50, maxMs: 50 } });
    const first = new RunRecorder();
    first.hold('ns/r');
    first.fail('ns/r', 1);
    draining.process(first.handler);
    await draining.add('ns/r');
    await waitFor(() => first.runs.length === 1, { what: 'first run' });
    const closed = draining.close(10_000);
    first.release('ns/r');
    await closed;
    const other = replica({ name });
    const second = new RunRecorder();
    other.process(second.handler);
    await waitFor(() => second.runsOf('ns/r').length === 1, { what: 'the retry on the other replica', timeoutMs: 10_000 });
  });
  it('aborts the handler of a worker that lost its lock, since the key may now run elsewhere', async () => {
    const name = uniqueName();
    const queue = replica({ name, lockDurationMs: 1_000 });
    const recorder = new RunRecorder();
    recorder.hold('ns/l');
    queue.process(recorder.handler);
    await queue.add('ns/l');
    await waitFor(() => recorder.runs.length === 1, { what: 'run' });
    const redis = new Redis(sharedEnvironment().redisUrl);
    try {
      const [lock] = await redis.keys(`appset:${name}:*:lock`);
      assert.ok(lock, 'the running key holds a lock');
      await redis.del(lock);
      await waitFor(() => recorder.runs[0]?.end !== undefined, { what: 'the handler to be aborted', timeoutMs: 5_000 });
      assert.equal(recorder.runs[0]?.aborted, true);
    } finally {
      recorder.release('ns/l');
      redis.disconnect();
    }
  });
  it('applies the rate limit across replicas, not per replica', async () => {
    const name = uniqueName();
    const rateLimit = { max: 4, durationMs: 400 };
    const [a, b] = [replica({ name, concurrency: 10, rateLimit }), replica({ name, concurrency: 10, rateLimit })];
    const recorder = new RunRecorder();
    a.process(recorder.handler);
    b.process(recorder.handler);
    // Measured from before the first add, not from the first handler start: BullMQ opens the limiter's
    // window when it moves the first key to active, which cannot precede its add, while the first handler
    // can start late (a cold code path under load) and shrink a start-to-start spread below the bound.
    const began = performance.now();
    for (let i = 0; i < 12; i++) await a.add(`ns/g${i}`);
    await waitFor(() => recorder.runs.length === 12, { what: 'all keys ran' });
    const lastStart = Math.max(...recorder.runs.map((run) => run.start));
    // Three windows of 4 (the 9th key waits for two windows to expire); a per-replica limit would need two.
    const elapsed = lastStart - began;
    assert.ok(elapsed >= 2 * 400 - 10, `12 starts at 4 per 400 ms over two replicas need >= 800 ms after the first add, took ${elapsed} ms`);
  });

  it('replicas resync once per interval between them, and a survivor takes over when the others close', async () => {
    const name = uniqueName();
    const intervalMs = 500;
    const keys = ['ns/s1', 'ns/s2'];
    const recorder = new RunRecorder();
    const replicas: BullMqWorkQueue[] = [];
    const began = performance.now();
    // Staggered, so without a shared claim each replica's tick would land apart and run every key again.
    for (let i = 0; i < 3; i++) {
      const queue = replica({ name, resync: { intervalMs, keys: () => keys } });
      queue.process(recorder.handler);
      replicas.push(queue);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const shared = recorder.runsOf('ns/s1').length;
    // A claim lasts 0.9 of the interval, so at most one resync per 450 ms (plus the one in flight).
    const most = Math.floor((performance.now() - began) / (0.9 * intervalMs)) + 1;
    assert.ok(shared >= 2, `the resync ran ns/s1 ${shared} times in 3.3 s`);
    assert.ok(
      shared <= most,
      `3 replicas resynced ns/s1 ${shared} times in ${Math.round(performance.now() - began)} ms; one claim per interval allows ${most}`,
    );
    await Promise.all(replicas.slice(0, 2).map((queue) => queue.close(1_000)));
    const before = recorder.runsOf('ns/s2').length;
    await waitFor(() => recorder.runsOf('ns/s2').length >= before + 2, { what: 'the survivor to resync', timeoutMs: 5_000 });
  });
});
