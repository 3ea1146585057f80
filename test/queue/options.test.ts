import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BullMqWorkQueue } from '../../src/queue/bullmq-queue.js';
import { MemoryWorkQueue } from '../../src/queue/memory-queue.js';

// Every check fails before a connection is made, so these need no Redis.
describe('work queue options', () => {
  it('rejects nonsensical shared options, naming the option', () => {
    assert.throws(() => new MemoryWorkQueue({ concurrency: 0 }), /concurrency must be a positive integer, got 0/);
    assert.throws(() => new MemoryWorkQueue({ rateLimit: { max: 1.5, durationMs: 10 } }), /rateLimit.max/);
    assert.throws(() => new MemoryWorkQueue({ rateLimit: { max: 1, durationMs: 0 } }), /rateLimit.durationMs/);
    assert.throws(() => new MemoryWorkQueue({ backoff: { baseMs: 10, maxMs: 5 } }), /baseMs <= maxMs/);
  });

  it('rejects bad BullMQ options before connecting', () => {
    const connection = { url: 'redis://127.0.0.1:1' };
    assert.throws(() => new BullMqWorkQueue({ name: 'q', connection, concurrency: -1 }), /concurrency/);
    assert.throws(() => new BullMqWorkQueue({ name: 'a:b', connection }), /queue name "a:b" may only contain/);
    assert.throws(() => new BullMqWorkQueue({ name: 'q', connection, lockDurationMs: 0 }), /lockDurationMs must be/);
    assert.throws(() => new BullMqWorkQueue({ name: 'q', connection: {} }), /exactly one of url, sentinel; got none/);
  });
});
