import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { awaitChange, requeue, TerminalError } from '../../src/model/action.js';

describe('reconcile Action', () => {
  it('builds requeue and awaitChange actions', () => {
    assert.deepEqual(requeue(1500), { kind: 'requeue', afterMs: 1500 });
    assert.deepEqual(awaitChange(), { kind: 'awaitChange' });
  });

  it('refuses a negative or non-finite requeue delay', () => {
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY]) assert.throws(() => requeue(bad), RangeError);
  });

  it('marks terminal errors so the runner can tell them from retryable ones', () => {
    const error = new TerminalError('spec.generators[0]: unknown generator "foo"');
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'TerminalError');
  });
});
