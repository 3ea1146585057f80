import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { constants, createGzip } from 'node:zlib';
import type { ServerResponse } from 'node:http';
import { streamListPage } from '../../../src/kube/informer/list-page-stream.js';
import { fakeKubeConfig, fakeServerFor, object, type FakeApiServer } from './fake-api-server.js';
import { createKubeTransport } from '../../../src/kube/transport/transport.js';

const PATH = '/api/v1/namespaces/ns/configmaps';
const items = Array.from({ length: 50 }, (_, i) => object(`o-${i}`, String(i), { text: `line ${i} "quoted" {braces} [brackets] ✓\\` }));
const body = JSON.stringify({ apiVersion: 'v1', items, kind: 'ConfigMapList', metadata: { continue: 'next', resourceVersion: '7' } });

/** Writes `text` in pieces of 97 bytes (cutting items, strings and multi-byte characters), one per tick. */
async function dribble(write: (piece: Buffer) => void, text: string): Promise<void> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += 97) {
    write(bytes.subarray(at, at + 97));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function serve(t: TestContext, answer: (response: ServerResponse) => void): Promise<FakeApiServer> {
  return fakeServerFor(t, (_request, response) => answer(response));
}

describe('streamListPage', () => {
  it('hands out the items of a gzip page as its compressed pieces arrive, then its metadata', async (t) => {
    // The server ends the body only once the client has handed out every item (or after 5 s): a reader that
    // waits for the end before parsing hands out nothing before it.
    let handedOutBeforeEnd = 0;
    let ended = false;
    let allHandedOut = (): void => undefined;
    const everyItem = new Promise<void>((resolve) => (allHandedOut = resolve));
    const server = await serve(t, (response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      const gzip = createGzip();
      gzip.pipe(response);
      // Every piece is flushed, so the client can inflate and split it before the next one is written.
      void dribble((piece) => gzip.write(piece, () => gzip.flush(constants.Z_SYNC_FLUSH)), body)
        .then(() => Promise.race([everyItem, new Promise((resolve) => setTimeout(resolve, 5000))]))
        .then(() => ((ended = true), gzip.end()));
    });
    const received: unknown[] = [];
    const page = await streamListPage(createKubeTransport(fakeKubeConfig(server.port)), PATH, { limit: 50 }, AbortSignal.timeout(10_000), (item) => {
      received.push(item);
      if (!ended) handedOutBeforeEnd++;
      if (received.length === items.length) allHandedOut();
    });
    assert.deepEqual(page, { resourceVersion: '7', continue: 'next' });
    assert.deepEqual(received, items);
    assert.equal(handedOutBeforeEnd, items.length, 'every item was handed out before the body ended');
  });

  it('reads a plain page cut anywhere, and a last page without a continue token', async (t) => {
    const last = JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '8' }, items });
    const server = await serve(t, (response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      void dribble((piece) => response.write(piece), last).then(() => response.end());
    });
    const received: unknown[] = [];
    const page = await streamListPage(createKubeTransport(fakeKubeConfig(server.port)), PATH, {}, AbortSignal.timeout(10_000), (item) => received.push(item));
    assert.deepEqual(page, { resourceVersion: '8', continue: undefined });
    assert.deepEqual(received, items);
  });

  it('refuses an encoding it did not ask for, and names the collection when the body is not a list', async (t) => {
    let encoding = 'br';
    const server = await serve(t, (response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      response.end(encoding === 'br' ? 'x' : '{"items":[{"a":1},');
    });
    const read = (): Promise<unknown> =>
      streamListPage(createKubeTransport(fakeKubeConfig(server.port)), PATH, {}, AbortSignal.timeout(10_000), () => undefined);
    await assert.rejects(read(), /GET \/api\/v1\/namespaces\/ns\/configmaps: the server answered with content-encoding "br"/);
    encoding = 'identity';
    await assert.rejects(
      read(),
      /GET \/api\/v1\/namespaces\/ns\/configmaps: the server sent a body that is not a JSON list \(the body ended in the middle of the list, after 1 items\)/,
    );
  });
});
