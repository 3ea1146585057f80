import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findOverlaps, keysMissingRunAfter } from './worker-records.js';

// The multi-process tests rest on these checks; they must be able to say no.
describe('worker run records', () => {
  it('finds overlapping runs of one key, and runs that never ended', () => {
    assert.deepEqual(
      findOverlaps([
        { key: 'a', start: 0, end: 10, pid: 1 },
        { key: 'a', start: 10, end: 12, pid: 2 },
        { key: 'b', start: 5, end: 6, pid: 1 },
      ]),
      [],
    );
    assert.equal(
      findOverlaps([
        { key: 'a', start: 0, end: 10, pid: 1 },
        { key: 'a', start: 9, end: 12, pid: 2 },
      ]).length,
      1,
    );
    assert.equal(
      findOverlaps([
        { key: 'a', start: 0, pid: 1 },
        { key: 'a', start: 50, end: 60, pid: 2 },
      ]).length,
      1,
    );
  });

  it('names keys whose last add has no later run', () => {
    const runs = [
      { key: 'a', start: 5, end: 6, pid: 1 },
      { key: 'b', start: 1, end: 2, pid: 1 },
    ];
    assert.deepEqual(
      keysMissingRunAfter(
        new Map([
          ['a', 4],
          ['b', 3],
          ['c', 0],
        ]),
        runs,
      ),
      ['b', 'c'],
    );
  });
});
