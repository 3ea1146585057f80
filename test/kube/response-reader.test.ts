import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MalformedResponseError, ResponseReader } from '../../src/kube/transport/response-reader.js';

/** Feeds `text` to a new reader in pieces cut at `cuts`; returns the reader and after which piece it said complete. */
function feed(text: string, cuts: readonly number[], keepBody = true): { reader: ResponseReader; completeAfter: number[] } {
  const bytes = Buffer.from(text, 'utf8');
  const reader = new ResponseReader(keepBody);
  const bounds = [0, ...cuts, bytes.length];
  const completeAfter: number[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) if (reader.push(bytes.subarray(bounds[i], bounds[i + 1]))) completeAfter.push(i);
  return { reader, completeAfter };
}

/**
 * Feeds `text` as the connections do: each piece copied into one shared buffer, pushed as a view of it, and the
 * buffer overwritten once push returns (the next read lands there). Returns the reader.
 */
function feedThroughOneBuffer(text: string, cuts: readonly number[], keepBody = true): ResponseReader {
  const bytes = Buffer.from(text, 'utf8');
  const shared = Buffer.alloc(bytes.length);
  const reader = new ResponseReader(keepBody);
  const bounds = [0, ...cuts, bytes.length];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const size = bytes.copy(shared, 0, bounds[i], bounds[i + 1]);
    reader.push(shared.subarray(0, size));
    shared.fill('#');
  }
  return reader;
}

/** Every way of cutting `text` in two, and the whole of it in one piece. */
function everySplit(text: string): number[][] {
  const length = Buffer.byteLength(text);
  return [[], ...Array.from({ length: length - 1 }, (_, i) => [i + 1])];
}

const LENGTH_ANSWER = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 21\r\n\r\n{"naïve":"✓ done"}';
const CHUNKED_ANSWER =
  'HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\nAudit-Id: x\r\n\r\n' +
  '7;ext=1\r\n{"kind"\r\n' +
  'e\r\n:"Application"\r\n' +
  '1\r\n}\r\n' +
  '0\r\nX-Trailer: t\r\n\r\n';

describe('ResponseReader', () => {
  it('reads a Content-Length body however the bytes arrive, complete only at its last byte', () => {
    assert.equal(Buffer.byteLength('{"naïve":"✓ done"}'), 21, 'bytes, not characters');
    for (const cuts of everySplit(LENGTH_ANSWER)) {
      const { reader, completeAfter } = feed(LENGTH_ANSWER, cuts);
      assert.deepEqual(completeAfter, [cuts.length], `cut at ${cuts.join()}`);
      assert.equal(reader.status, 200);
      assert.equal(reader.body(), '{"naïve":"✓ done"}');
      assert.equal(reader.keepAlive, true);
    }
  });

  it('de-chunks a chunked body (extensions and trailers too), however the bytes arrive', () => {
    for (const cuts of [...everySplit(CHUNKED_ANSWER), Array.from({ length: CHUNKED_ANSWER.length - 1 }, (_, i) => i + 1)]) {
      const { reader, completeAfter } = feed(CHUNKED_ANSWER, cuts);
      assert.deepEqual(completeAfter, [cuts.length], `cut at ${cuts.slice(0, 3).join()}...`);
      assert.equal(reader.status, 201);
      assert.equal(reader.body(), '{"kind":"Application"}');
    }
  });

  it('keeps no body of a 2xx answer nobody reads, but always the Status of an error', () => {
    assert.equal(feed(LENGTH_ANSWER, [], false).reader.body(), '');
    const denied = 'HTTP/1.1 403 Forbidden\r\nContent-Length: 17\r\nRetry-After: 3\r\n\r\n{"kind":"Status"}';
    const { reader } = feed(denied, [40], false);
    assert.equal(reader.status, 403);
    assert.equal(reader.body(), '{"kind":"Status"}');
    assert.equal(reader.retryAfter, '3');
  });

  it('skips an interim 100 Continue and reads the answer after it', () => {
    const { reader, completeAfter } = feed(`HTTP/1.1 100 Continue\r\n\r\n${LENGTH_ANSWER}`, [10]);
    assert.deepEqual(completeAfter, [1]);
    assert.equal(reader.status, 200);
  });

  it('knows when a connection cannot be reused, and ends a body that runs to the close', () => {
    const closing = feed('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}', []).reader;
    assert.equal(closing.keepAlive, false);
    const unbounded = new ResponseReader(true);
    assert.equal(unbounded.push(Buffer.from('HTTP/1.1 200 OK\r\n\r\n{"a":')), false);
    assert.equal(unbounded.push(Buffer.from('1}')), false);
    unbounded.end();
    assert.equal(unbounded.complete, true);
    assert.equal(unbounded.body(), '{"a":1}');
    assert.equal(unbounded.keepAlive, false);
    const noContent = feed('HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n', []);
    assert.deepEqual(noContent.completeAfter, [0]);
  });

  it('keeps no view of a pushed chunk: the bytes after a push may overwrite it (one read buffer for every connection)', () => {
    for (const text of [LENGTH_ANSWER, CHUNKED_ANSWER]) {
      const length = Buffer.byteLength(text);
      const expected = feed(text, []).reader.body();
      for (let first = 1; first < length; first++) {
        for (let second = first + 1; second < length; second += 7) {
          const reader = feedThroughOneBuffer(text, [first, second]);
          assert.equal(reader.complete, true, `cut at ${first},${second}`);
          assert.equal(reader.body(), expected, `cut at ${first},${second}`);
        }
      }
    }
  });

  it('reads chunk sizes in either case, up to twelve hex digits', () => {
    const sizes = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1A\r\n' + 'a'.repeat(26) + '\r\n00000000001f\r\n' + 'b'.repeat(31) + '\r\n0\r\n\r\n';
    const { reader, completeAfter } = feed(sizes, []);
    assert.deepEqual(completeAfter, [0]);
    assert.equal(reader.body(), 'a'.repeat(26) + 'b'.repeat(31));
  });

  it("hands a 2xx body to a sink as it comes, through one reused buffer, and keeps an error's Status instead", () => {
    for (let first = 1; first < CHUNKED_ANSWER.length; first++) {
      const calls: string[] = [];
      const bytes = Buffer.from(CHUNKED_ANSWER);
      const shared = Buffer.alloc(bytes.length);
      const reader = new ResponseReader(false, { onResponse: () => calls.push('response'), onBody: (body) => calls.push(body.toString('utf8')) });
      for (const [start, end] of [
        [0, first],
        [first, bytes.length],
      ] as const) {
        const size = bytes.copy(shared, 0, start, end);
        reader.push(shared.subarray(0, size));
        shared.fill('#');
      }
      assert.equal(reader.complete, true);
      assert.equal(calls[0], 'response', `cut at ${first}`);
      assert.equal(calls.slice(1).join(''), '{"kind":"Application"}', `cut at ${first}`);
      assert.equal(reader.body(), '');
    }
    const calls: string[] = [];
    const denied = new ResponseReader(false, { onResponse: () => calls.push('response'), onBody: () => calls.push('body') });
    denied.push(Buffer.from('HTTP/1.1 403 Forbidden\r\nContent-Length: 17\r\n\r\n{"kind":"Status"}'));
    assert.deepEqual(calls, []);
    assert.equal(denied.body(), '{"kind":"Status"}');
  });

  it('refuses what is not HTTP/1.1 or ends early, rather than guess', () => {
    const refused = (text: string, pattern: RegExp): void => {
      assert.throws(
        () => feed(text, []),
        (error: unknown) => error instanceof MalformedResponseError && pattern.test(error.message),
        text,
      );
    };
    refused('SSH-2.0-OpenSSH\r\n\r\n', /not an HTTP\/1.1 status line/);
    refused('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}extra', /more bytes than the Content-Length/);
    refused('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}', /repeated Content-Length/);
    refused('HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n', /bad or repeated Content-Length/);
    refused('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}XX', /did not end with CRLF/);
    refused('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', /bad chunk size line/);
    refused('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1g\r\n', /bad chunk size line/);
    refused('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1000000000000\r\n', /bad chunk size line/);
    const cut = new ResponseReader(true);
    cut.push(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{"a"'));
    assert.throws(() => cut.end(), /ended before the response was complete/);
  });
});
