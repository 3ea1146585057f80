import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Backoff } from '../../../src/kube/informer/backoff.js';

describe('Backoff', () => {
  it('starts near 0.8 s, doubles to 30 s and starts over after a reset', () => {
    const backoff = new Backoff({}, () => 0);
    const delays = Array.from({ length: 8 }, () => backoff.next());
    assert.deepEqual(delays, [800, 1600, 3200, 6400, 12800, 25600, 30000, 30000]);
    backoff.reset();
    assert.equal(backoff.next(), 800);
  });

  it('jitters each delay down by up to half by default', () => {
    const values = [1, 0.5];
    const backoff = new Backoff({}, () => values.shift() ?? 0);
    assert.deepEqual([backoff.next(), backoff.next()], [400, 1200]);
    const random = new Backoff();
    const spread = new Set(Array.from({ length: 20 }, () => (random.reset(), random.next())));
    assert.ok(spread.size > 1, 'random jitter gives different delays');
    assert.ok([...spread].every((d) => d >= 400 && d <= 800));
  });

  it('rejects nonsensical settings', () => {
    assert.throws(() => new Backoff({ initialMs: 0 }), /0 < initialMs <= maxMs/);
    assert.throws(() => new Backoff({ jitter: 2 }), /jitter must be within 0..1/);
  });
});
