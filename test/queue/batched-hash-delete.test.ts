import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Redis } from 'ioredis';
import { BatchedHashDelete } from '../../src/queue/batched-hash-delete.js';

/** A stand-in for the one ioredis call BatchedHashDelete makes: records each HDEL and answers when told. */
function fakeClient(): { client: Redis; calls: string[][]; answer: () => void } {
  const calls: string[][] = [];
  const waiting: (() => void)[] = [];
  const client = {
    hdel: (key: string, ...fields: string[]) => {
      calls.push([key, ...fields]);
      return new Promise<number>((resolve) => waiting.push(() => resolve(fields.length)));
    },
  } as unknown as Redis;
  return { client, calls, answer: () => waiting.splice(0).forEach((resolve) => resolve()) };
}

describe('BatchedHashDelete', () => {
  it('sends the fields asked for in one turn of the event loop as one HDEL', async () => {
    const { client, calls, answer } = fakeClient();
    const deletes = new BatchedHashDelete(client, 'h');
    const done = Promise.all(['a', 'b', 'a', 'c'].map((field) => deletes.delete(field)));
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.resolve();
    assert.deepEqual(calls, [['h', 'a', 'b', 'c']]);
    answer();
    await done;
  });

  it('settles a caller only after Redis answered the HDEL that carried its field', async () => {
    const { client, answer } = fakeClient();
    const deletes = new BatchedHashDelete(client, 'h');
    let settled = false;
    const done = deletes.delete('a').then(() => (settled = true));
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, false, 'the reset must not look done before Redis confirmed it');
    answer();
    await done;
    assert.equal(settled, true);
  });

  it('starts a new batch for fields asked for after a batch went out', async () => {
    const { client, calls, answer } = fakeClient();
    const deletes = new BatchedHashDelete(client, 'h');
    const first = deletes.delete('a');
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.resolve();
    const second = deletes.delete('b');
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.resolve();
    assert.deepEqual(calls, [
      ['h', 'a'],
      ['h', 'b'],
    ]);
    answer();
    await Promise.all([first, second]);
  });

  it('passes an HDEL failure to every caller of its batch', async () => {
    const client = { hdel: () => Promise.reject(new Error('connection lost')) } as unknown as Redis;
    const deletes = new BatchedHashDelete(client, 'h');
    const results = await Promise.allSettled([deletes.delete('a'), deletes.delete('b')]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
    );
  });
});
