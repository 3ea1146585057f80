import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { streamWatch, type OpenWatch, type WatchEvent } from '../../../src/kube/informer/watch-stream.js';

/**
 * A watch that delivers `chunks` (bytes, so a character may be split between two) in order, each through one
 * reused buffer that is overwritten after every call, as the stream connections' read buffer is.
 */
function openWith(chunks: readonly Buffer[]): OpenWatch {
  return (_signal, sink) => {
    sink.onResponse?.();
    const reused = Buffer.alloc(Math.max(1, ...chunks.map((chunk) => chunk.length)));
    for (const chunk of chunks) {
      chunk.copy(reused);
      sink.onBody(reused.subarray(0, chunk.length));
      reused.fill(0x7b); // '{': a kept view of an earlier read would turn into broken JSON
    }
    return Promise.resolve();
  };
}

/** Every event `chunks` make, read through streamWatch. */
async function eventsOf(chunks: readonly Buffer[], withoutManagedFields = false): Promise<{ events: WatchEvent[]; count: number }> {
  const events: WatchEvent[] = [];
  const count = await streamWatch(openWith(chunks), (event) => events.push(event), {
    signal: new AbortController().signal,
    silenceMs: 5_000,
    withoutManagedFields,
  });
  return { events, count };
}

const EVENTS: WatchEvent[] = [
  { type: 'ADDED', object: { metadata: { name: 'a', annotations: { note: 'grüße, 😀' } } } },
  { type: 'MODIFIED', object: { metadata: { name: 'b' }, spec: { list: [1, 2, 3] } } },
  { type: 'BOOKMARK', object: { metadata: { resourceVersion: '42' } } },
  { type: 'DELETED', object: { metadata: { name: 'c' } } },
];

describe('streamWatch line splitting', () => {
  it('gives every event once, in order, wherever the chunks split the stream (lines, characters, line ends)', async () => {
    // Blank lines and a CRLF ending, as a proxy may add; the last event has no newline at all.
    const text = `${JSON.stringify(EVENTS[0])}\n\n${JSON.stringify(EVENTS[1])}\r\n${JSON.stringify(EVENTS[2])}\n${JSON.stringify(EVENTS[3])}`;
    const bytes = Buffer.from(text, 'utf8');
    for (let first = 0; first <= bytes.length; first += 3) {
      for (const second of [first, first + 1, first + 7, bytes.length]) {
        const cuts = [0, first, Math.min(second, bytes.length), bytes.length];
        const chunks = cuts
          .slice(1)
          .map((end, i) => bytes.subarray(cuts[i], end))
          .filter((chunk) => chunk.length > 0);
        const { events, count } = await eventsOf(chunks);
        assert.deepEqual(events, EVENTS, `cut at ${first} and ${second}`);
        assert.equal(count, EVENTS.length);
      }
    }
  });

  it('joins a line that spans many chunks', async () => {
    const line = `${JSON.stringify(EVENTS[1])}\n`;
    const bytes = Buffer.from(line.repeat(3), 'utf8');
    const chunks = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
    const { events } = await eventsOf(chunks);
    assert.deepEqual(events, [EVENTS[1], EVENTS[1], EVENTS[1]]);
  });

  it('rejects a line that is not an event, naming it', async () => {
    await assert.rejects(eventsOf([Buffer.from(`${JSON.stringify(EVENTS[0])}\n{"type":"ADDED"}\n`)]), /not an event: \{"type":"ADDED"\}/);
    await assert.rejects(eventsOf([Buffer.from('{"type":\n')]), /not JSON: \{"type":/);
  });

  it('leaves out object.metadata.managedFields only when asked, and judges a broken line whole', async () => {
    const managed = { type: 'ADDED', object: { metadata: { managedFields: [{ manager: 'm', fieldsV1: { 'f:spec': {} } }], name: 'a' }, spec: { x: 1 } } };
    const bytes = Buffer.from(`${JSON.stringify(managed)}\n`);
    assert.deepEqual((await eventsOf([bytes])).events, [managed]);
    assert.deepEqual((await eventsOf([bytes], true)).events, [{ type: 'ADDED', object: { metadata: { name: 'a' }, spec: { x: 1 } } }]);
    await assert.rejects(eventsOf([Buffer.from('{"type":"ADDED","object":{"metadata":{"managedFields":[],"name":}}\n')], true), /not JSON/);
  });
});
