import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SlidingWindowLimiter } from '../../src/queue/rate-limiter.js';

describe('SlidingWindowLimiter', () => {
  it('allows max acquisitions per window and says how long to wait for the next', () => {
    const limiter = new SlidingWindowLimiter(2, 100);
    assert.equal(limiter.tryAcquire(0), 0);
    assert.equal(limiter.tryAcquire(10), 0);
    assert.equal(limiter.tryAcquire(20), 80);
    assert.equal(limiter.tryAcquire(100), 0);
  });

  it('rejects a nonsensical configuration', () => {
    assert.throws(() => new SlidingWindowLimiter(0, 100), /positive integer/);
    assert.throws(() => new SlidingWindowLimiter(1, 0), /> 0 ms/);
  });
});
