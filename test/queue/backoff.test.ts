import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffDelayMs, DEFAULT_BACKOFF } from '../../src/queue/backoff.js';

describe('backoffDelayMs', () => {
  it('starts at 5 ms and doubles per failure', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 10].map((n) => backoffDelayMs(n)),
      [5, 10, 20, 40, 2560],
    );
  });

  it('is capped at 1000 s, also for absurd failure counts', () => {
    assert.equal(backoffDelayMs(18), 655_360);
    assert.equal(backoffDelayMs(19), 1_000_000);
    assert.equal(backoffDelayMs(10_000), DEFAULT_BACKOFF.maxMs);
  });

  it('honours a custom base and cap', () => {
    assert.equal(backoffDelayMs(3, { baseMs: 100, maxMs: 250 }), 250);
  });

  it('rejects a failure count that is not a positive integer', () => {
    assert.throws(() => backoffDelayMs(0), /positive integer/);
    assert.throws(() => backoffDelayMs(1.5), /positive integer/);
  });
});
