import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as tick } from 'node:timers/promises';
import { WritePool } from '../../src/controller/write/write-pool.js';

/** A write that finishes when the test says so, recording when it started. */
function heldWrites(count: number, label: string, log: string[]) {
  const release: Array<() => void> = [];
  const writes = Array.from({ length: count }, (_, i) => () => {
    log.push(`${label}${i}`);
    return new Promise<void>((resolve) => release.push(resolve));
  });
  return { writes, releaseOne: () => release.shift()?.(), started: () => release.length };
}

/** Finishes the writes of `groups` as they start, until none is running or waiting. */
async function finishAll(...groups: Array<ReturnType<typeof heldWrites>>): Promise<void> {
  while (groups.some((group) => group.started() > 0)) {
    for (const group of groups) group.releaseOne();
    await tick();
  }
}

describe('WritePool', () => {
  it('never runs more than its capacity at once, across reconciles', async () => {
    const pool = new WritePool(4);
    const log: string[] = [];
    const a = heldWrites(5, 'a', log);
    const b = heldWrites(5, 'b', log);
    const done = Promise.all([pool.run(a.writes), pool.run(b.writes)]);
    await tick();
    assert.equal(pool.running, 4);
    for (let i = 0; i < 10; i++) {
      assert.ok(pool.running <= 4);
      (a.started() > 0 ? a : b).releaseOne();
      await tick();
    }
    await done;
    assert.equal(log.length, 10);
    assert.equal(pool.running, 0);
  });

  it('serves the oldest reconcile first, but never with more than half the pool', async () => {
    const pool = new WritePool(4);
    const log: string[] = [];
    const large = heldWrites(50, 'L', log);
    const older = heldWrites(3, 'O', log);
    const small = heldWrites(2, 'S', log);
    const done = [pool.run(older.writes), pool.run(large.writes), pool.run(small.writes)];
    await tick();
    assert.deepEqual(log, ['O0', 'O1', 'L0', 'L1'], 'the oldest takes half the pool, the next one the rest');
    older.releaseOne();
    await tick();
    assert.deepEqual(log.slice(4), ['O2'], 'a freed slot goes back to the oldest reconcile with writes waiting');
    older.releaseOne();
    older.releaseOne();
    await tick();
    assert.deepEqual(log.slice(5), ['S0', 'S1'], 'the large reconcile is at its half, so the small one is not queued behind it');
    await finishAll(large, small);
    await Promise.all(done);
    assert.equal(log.length, 55);
  });

  it('gives a reconcile its first slots before two large ones get more, so it is not queued behind them', async () => {
    const pool = new WritePool(8);
    const log: string[] = [];
    const first = heldWrites(50, 'A', log);
    const second = heldWrites(50, 'B', log);
    const small = heldWrites(2, 'S', log);
    const done = [pool.run(first.writes), pool.run(second.writes)];
    await tick();
    assert.equal(pool.running, 8, 'the two large reconciles fill the pool, half each');
    done.push(pool.run(small.writes));
    first.releaseOne();
    await tick();
    assert.equal(log.at(-1), 'S0', 'the slot the oldest freed went to the newcomer, below its guaranteed two');
    second.releaseOne();
    await tick();
    assert.equal(log.at(-1), 'S1');
    await finishAll(first, second, small);
    await Promise.all(done);
    assert.equal(log.length, 102);
  });

  it('resolves at once for no writes and keeps going when a write rejects', async () => {
    const pool = new WritePool(1);
    await pool.run([]);
    let ran = 0;
    await pool.run([() => Promise.reject(new Error('boom')), () => Promise.resolve(void ran++)]);
    assert.equal(ran, 1);
  });

  it('is busy from the first write it is given until every write waiting or running finished, then tells who asked, once', async () => {
    const pool = new WritePool(1);
    const log: string[] = [];
    const idle: string[] = [];
    pool.onceIdle(() => idle.push('already idle'));
    await tick();
    assert.deepEqual(idle, ['already idle']);
    const a = heldWrites(2, 'a', log);
    const done = pool.run(a.writes);
    pool.onceIdle(() => idle.push('after a'));
    assert.equal(pool.busy, true);
    a.releaseOne();
    await tick();
    assert.equal(pool.busy, true, 'the second write was waiting, then running');
    assert.deepEqual(idle, ['already idle']);
    a.releaseOne();
    await done;
    assert.equal(pool.busy, false);
    assert.deepEqual(idle, ['already idle', 'after a']);
    await pool.run([() => Promise.resolve()]);
    assert.deepEqual(idle, ['already idle', 'after a'], 'a listener is called once');
  });

  it('refuses a capacity that is not a positive integer', () => {
    for (const capacity of [0, -1, 1.5, Number.NaN]) assert.throws(() => new WritePool(capacity), /positive integer/);
  });
});
