import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { getHeapCodeStatistics } from 'node:v8';
import { runInThisContext } from 'node:vm';
import pino from 'pino';
import { releaseMemoryWhenIdle, v8IdleMemoryParts } from '../../src/app/idle-memory.js';

const MIB = 2 ** 20;

/** A release on fake timers and a fake clock, counting collections. */
function harness(growthMiB = 40) {
  let now = 0;
  let collections = 0;
  let heap = 100 * MIB;
  const abort = new AbortController();
  mock.timers.enable({ apis: ['setInterval'] });
  const idle = releaseMemoryWhenIdle({
    signal: abort.signal,
    log: pino({ level: 'silent' }),
    parts: { heapSize: () => heap, collect: () => void (collections++, (heap = 100 * MIB)), now: () => now },
  });
  // Each finished reconcile grows the heap as a burst of work does.
  const work = () => {
    heap += growthMiB * MIB;
    idle.activity();
  };
  const wait = (ms: number) => {
    now += ms;
    mock.timers.tick(ms);
  };
  return { idle: { activity: work }, wait, collections: () => collections, stop: () => (abort.abort(), mock.timers.reset()) };
}

/** Runs `body` with a harness, stopping its timers whatever happens. */
function withHarness(body: (h: ReturnType<typeof harness>) => void, growthMiB?: number): void {
  const h = harness(growthMiB);
  try {
    body(h);
  } finally {
    h.stop();
  }
}

/** Collections after one burst of work that grew the heap by `growthMiB`, then 15 s without work. */
function collectionsAfterOneBurst(growthMiB: number): number {
  let collections = 0;
  withHarness((h) => {
    h.idle.activity();
    h.wait(15_000);
    collections = h.collections();
  }, growthMiB);
  return collections;
}

describe('releasing memory when the replica is idle', () => {
  it('collects once after work stopped for 10 s, and not again until work ran again', () => {
    withHarness((h) => {
      h.wait(60_000);
      assert.equal(h.collections(), 0, 'no work, nothing to give back');
      h.idle.activity();
      h.wait(5_000);
      assert.equal(h.collections(), 0, 'still busy');
      h.wait(10_000);
      assert.equal(h.collections(), 1);
      h.wait(60_000);
      assert.equal(h.collections(), 1, 'once per burst');
      h.idle.activity();
      h.wait(15_000);
      assert.equal(h.collections(), 2);
    });
  });

  it('does not collect while reconciles keep finishing', () => {
    withHarness((h) => {
      for (let i = 0; i < 20; i++) {
        h.idle.activity();
        h.wait(5_000);
      }
      assert.equal(h.collections(), 0);
    });
  });

  it('leaves a heap that grew little alone', () => {
    assert.equal(collectionsAfterOneBurst(3), 0);
  });

  it('gives back what converging 1,000 Applications leaves (the heap grows by about 9 MiB)', () => {
    assert.equal(collectionsAfterOneBurst(9), 1);
  });

  it('keeps the compiled code of functions that are idle, so the next burst does not start unoptimised', () => {
    const parts = v8IdleMemoryParts();
    // Fresh functions that ran once and then rest, as a replica's reconcile path does between bursts.
    const sources = Array.from({ length: 2000 }, (_, i) => `(a) => a * ${i} + String(a).length`);
    const resting = runInThisContext(`[${sources.join(',')}]`) as ((a: number) => number)[];
    for (const run of resting) run(1);
    parts.collect(); // first the bytecode of functions that are gone, so only flushing can shrink it further
    const before = getHeapCodeStatistics().bytecode_and_metadata_size;
    // Three more idle collections age a resting function past V8's flushing age (six collections) without the flag.
    for (let i = 0; i < 3; i++) parts.collect();
    const after = getHeapCodeStatistics().bytecode_and_metadata_size;
    assert.ok(after > before * 0.9, `bytecode ${before} bytes before the collections, ${after} after (${resting.length} functions)`);
  });

  it("V8's memory-reducing collection gives a burst's garbage back to the operating system", () => {
    const parts = v8IdleMemoryParts();
    // Held long enough to reach the old generation, then dropped: garbage only a full collection finds.
    let burst: unknown[] = [];
    for (let i = 0; i < 400_000; i++) burst.push({ text: `item-${i}`, list: [i, i + 1] });
    burst = [];
    const before = parts.heapSize();
    parts.collect();
    const after = parts.heapSize();
    assert.ok(before - after > 16 * MIB, `heap ${Math.round(before / MIB)} MiB before, ${Math.round(after / MIB)} MiB after (${burst.length})`);
  });
});
