import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FreshSingleFlight } from '../../src/git/fresh-single-flight.js';

/** A load whose runs the test finishes by hand, recording when each started. */
function manualLoads(): { load: () => Promise<number>; started: number; finish: (value: number) => void; fail: (error: Error) => void } {
  const pending: Array<{ resolve: (v: number) => void; reject: (e: Error) => void }> = [];
  const state = {
    started: 0,
    load: () =>
      new Promise<number>((resolve, reject) => {
        state.started++;
        pending.push({ resolve, reject });
      }),
    finish: (value: number) => pending.shift()?.resolve(value),
    fail: (error: Error) => pending.shift()?.reject(error),
  };
  return state;
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('FreshSingleFlight', () => {
  it('shares one load among callers that arrive together', async () => {
    const flight = new FreshSingleFlight<number>();
    const loads = manualLoads();
    const results = Promise.all(Array.from({ length: 50 }, () => flight.run('repo', loads.load)));
    await tick();
    loads.finish(7);
    assert.deepEqual(new Set(await results), new Set([7]));
    assert.equal(loads.started, 1);
    assert.equal(flight.size, 0, 'nothing is kept once the load is done');
  });

  it('never answers a caller with a load that started before it called: late callers share the next load', async () => {
    const flight = new FreshSingleFlight<number>();
    const loads = manualLoads();
    const early = flight.run('repo', loads.load);
    await tick();
    const late = Array.from({ length: 20 }, () => flight.run('repo', loads.load));
    await tick();
    assert.equal(loads.started, 1, 'the next load waits for the running one');
    loads.finish(1);
    assert.equal(await early, 1);
    await tick();
    assert.equal(loads.started, 2, 'one more load serves every late caller');
    loads.finish(2);
    assert.deepEqual(new Set(await Promise.all(late)), new Set([2]));
  });

  it('keeps keys apart and passes a failure to the callers that shared it, not to later ones', async () => {
    const flight = new FreshSingleFlight<number>();
    const [a, b] = [manualLoads(), manualLoads()];
    const fromA = flight.run('a', a.load);
    const fromB = flight.run('b', b.load);
    await tick();
    assert.deepEqual([a.started, b.started], [1, 1]);
    a.fail(new Error('unreachable'));
    b.finish(9);
    await assert.rejects(fromA, /unreachable/);
    assert.equal(await fromB, 9);
    const again = flight.run('a', a.load);
    await tick();
    a.finish(3);
    assert.equal(await again, 3);
  });
});
