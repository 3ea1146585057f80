import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WeightedLru } from '../../src/model/weighted-lru.js';

describe('WeightedLru', () => {
  it('forgets the least recently used entry first when the entry count is reached', () => {
    const lru = new WeightedLru<string>({ maxWeight: 100, maxEntries: 2 });
    lru.set('a', 'A', 1);
    lru.set('b', 'B', 1);
    assert.equal(lru.get('a'), 'A'); // a is now newer than b
    lru.set('c', 'C', 1);
    assert.deepEqual([lru.get('a'), lru.get('b'), lru.get('c')], ['A', undefined, 'C']);
    assert.equal(lru.stats.evictions, 1);
  });

  it('keeps the total weight within its budget and refuses an entry heavier than the budget', () => {
    const lru = new WeightedLru<string>({ maxWeight: 10, maxEntries: 100 });
    lru.set('a', 'A', 6);
    lru.set('b', 'B', 6);
    assert.deepEqual([lru.get('a'), lru.get('b'), lru.totalWeight], [undefined, 'B', 6]);
    lru.set('huge', 'H', 11);
    assert.deepEqual([lru.get('huge'), lru.get('b')], [undefined, 'B'], 'the heavy entry evicted nothing');
  });

  it('replacing a key counts its weight once, and deleteWhere forgets matching keys', () => {
    const lru = new WeightedLru<number>({ maxWeight: 10, maxEntries: 10 });
    lru.set('x:1', 1, 4);
    lru.set('x:1', 2, 5);
    lru.set('y:1', 3, 5);
    assert.deepEqual([lru.totalWeight, lru.size, lru.get('x:1')], [10, 2, 2]);
    lru.deleteWhere((key) => key.startsWith('x:'));
    assert.deepEqual([lru.totalWeight, lru.size], [5, 1]);
  });
});
