import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Fifo } from '../../src/runtime/fifo.js';

describe('Fifo', () => {
  it('gives items back in the order they came, and undefined when empty', () => {
    const fifo = new Fifo<number>();
    assert.equal(fifo.shift(), undefined);
    for (let i = 0; i < 5; i++) fifo.push(i);
    assert.equal(fifo.length, 5);
    assert.deepEqual([fifo.shift(), fifo.shift()], [0, 1]);
    fifo.push(5);
    assert.deepEqual([fifo.shift(), fifo.shift(), fifo.shift(), fifo.shift()], [2, 3, 4, 5]);
    assert.equal(fifo.length, 0);
    assert.equal(fifo.shift(), undefined);
  });

  it('keeps its order across the compaction of a queue that never empties', () => {
    const fifo = new Fifo<number>();
    const taken: number[] = [];
    let next = 0;
    for (let i = 0; i < 200; i++) fifo.push(next++);
    // Take one and add one, many times over: the front is dropped from the array now and then.
    for (let round = 0; round < 5_000; round++) {
      taken.push(fifo.shift() as number);
      fifo.push(next++);
    }
    assert.equal(fifo.length, 200);
    assert.deepEqual(
      taken,
      Array.from({ length: 5_000 }, (_, i) => i),
    );
    assert.equal(fifo.shift(), 5_000);
  });

  it('removes a waiting item, and only a waiting one', () => {
    const fifo = new Fifo<string>();
    for (const item of ['a', 'b', 'c', 'd']) fifo.push(item);
    assert.equal(fifo.shift(), 'a');
    assert.equal(fifo.remove('a'), false, 'a was already taken');
    assert.equal(fifo.remove('c'), true);
    assert.equal(fifo.remove('c'), false);
    assert.equal(fifo.length, 2);
    assert.deepEqual([fifo.shift(), fifo.shift(), fifo.shift()], ['b', 'd', undefined]);
  });

  it('does not keep taken items reachable', () => {
    const fifo = new Fifo<object>();
    const first = { name: 'first' };
    fifo.push(first);
    fifo.push({ name: 'second' });
    fifo.shift();
    assert.equal((fifo as unknown as { items: unknown[] }).items.includes(first), false);
  });
});
