// The reflector's protocol handling against a scripted server: paging, bookmarks, 410s, throttling,
// resets, refused connections and frozen streams. The real-server proofs are in *.int.test.ts.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it, type TestContext } from 'node:test';
import { gzipSync } from 'node:zlib';
import { createInformer, DEFAULT_PAGE_SIZE, dropManagedFields, type Frozen, type InformerOptions, type KubeObject } from '../../../src/kube/informer/index.js';
import { waitFor } from '../../../src/environment/local/wait-for.js';
import { fakeKubeConfig, fakeServerFor, object, openStream, sendJson, sendList, status, type FakeHandler } from './fake-api-server.js';
import { createKubeTransport } from '../../../src/kube/transport/transport.js';

type Seen = { type: 'add' | 'delete'; name: string; rv: string } | { type: 'update'; name: string; oldRv: string; rv: string };

const rv = (o: Frozen<KubeObject>): string => o.metadata?.resourceVersion ?? '';
const name = (o: Frozen<KubeObject>): string => o.metadata?.name ?? '';

function startInformer(t: TestContext, port: number, extra: Partial<InformerOptions<KubeObject>> = {}) {
  const controller = new AbortController();
  const informer = createInformer<KubeObject>({
    transport: createKubeTransport(fakeKubeConfig(port)),
    path: '/api/v1/namespaces/ns/configmaps',
    signal: controller.signal,
    backoff: { initialMs: 20, maxMs: 100 },
    silenceMs: 5_000,
    watchTimeoutSeconds: { min: 5, max: 10 },
    ...extra,
  });
  const seen: Seen[] = [];
  informer.on('add', (o) => seen.push({ type: 'add', name: name(o), rv: rv(o) }));
  informer.on('update', (old, o) => seen.push({ type: 'update', name: name(o), oldRv: rv(old), rv: rv(o) }));
  informer.on('delete', (o) => seen.push({ type: 'delete', name: name(o), rv: rv(o) }));
  t.after(async () => {
    controller.abort();
    await informer.stopped;
  });
  return { informer, controller, seen };
}

const holdOpen: FakeHandler = (_request, response) => void openStream(response);

describe('reflector protocol', () => {
  it('lists page by page, then watches from the listed resourceVersion with bookmarks, selectors and a jittered timeout', async (t) => {
    const server = await fakeServerFor(t, (request, response) => {
      if (request.watch) return holdOpen(request, response, 0);
      if (!request.query.get('continue')) return sendList(response, '10', [object('a', '1'), object('b', '2')], 'token-1');
      sendList(response, '10', [object('c', '3')]);
    });
    const { informer } = startInformer(t, server.port, { pageSize: 2, labelSelector: 'team=a', fieldSelector: 'metadata.name!=x' });
    await informer.ready();
    assert.deepEqual(informer.store.keys().sort(), ['ns/a', 'ns/b', 'ns/c']);
    const [first, second] = server.lists;
    assert.equal(first?.query.get('limit'), '2');
    assert.equal(first?.query.has('continue'), false);
    assert.equal(second?.query.get('continue'), 'token-1');
    await waitFor(() => server.watches.length === 1, { what: 'the watch request' });
    const watch = server.watches[0];
    assert.equal(watch?.query.get('resourceVersion'), '10');
    assert.equal(watch?.query.get('allowWatchBookmarks'), 'true');
    const timeout = Number(watch?.query.get('timeoutSeconds'));
    assert.ok(timeout >= 5 && timeout <= 10, `timeoutSeconds ${timeout} within 5..10`);
    for (const request of server.requests) {
      assert.equal(request.query.get('labelSelector'), 'team=a');
      assert.equal(request.query.get('fieldSelector'), 'metadata.name!=x');
      assert.equal(request.authorization, 'Bearer fake-token');
    }
    assert.equal(informer.health().pages, 2);
  });

  it(`asks for pages of ${DEFAULT_PAGE_SIZE} when no page size is configured`, async (t) => {
    const server = await fakeServerFor(t, (request, response) =>
      request.watch ? holdOpen(request, response, 0) : sendList(response, '10', [object('a', '1')]),
    );
    const { informer } = startInformer(t, server.port);
    await informer.ready();
    assert.equal(DEFAULT_PAGE_SIZE, 5000);
    assert.equal(server.lists[0]?.query.get('limit'), String(DEFAULT_PAGE_SIZE));
  });

  it('delivers add, update and delete in order with old and new objects; bookmarks advance the resourceVersion', async (t) => {
    const server = await fakeServerFor(t, (request, response, index) => {
      if (!request.watch) return sendList(response, '1', [object('a', '1')]);
      if (index > 0) return holdOpen(request, response, index);
      const stream = openStream(response);
      stream.send('ADDED', object('b', '2'));
      stream.send('MODIFIED', object('a', '3'));
      stream.send('DELETED', object('b', '4'));
      stream.send('BOOKMARK', { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '9' } });
      response.end();
    });
    const { informer, seen } = startInformer(t, server.port);
    await waitFor(() => server.watches.length === 2, { what: 'the second watch' });
    assert.deepEqual(seen, [
      { type: 'add', name: 'a', rv: '1' },
      { type: 'add', name: 'b', rv: '2' },
      { type: 'update', name: 'a', oldRv: '1', rv: '3' },
      { type: 'delete', name: 'b', rv: '4' },
    ]);
    assert.equal(server.watches[1]?.query.get('resourceVersion'), '9', 'the bookmark moved the resourceVersion');
    assert.equal(server.lists.length, 1, 'a watch that ends normally is resumed without a relist');
    assert.equal(informer.health().bookmarks, 1);
  });

  it('a 410 ERROR event relists, and objects gone meanwhile arrive as delete events', async (t) => {
    const server = await fakeServerFor(t, (request, response, index) => {
      if (!request.watch)
        return index === 0 ? sendList(response, '5', [object('a', '1'), object('b', '2')]) : sendList(response, '7', [object('a', '1'), object('c', '6')]);
      if (index > 0) return holdOpen(request, response, index);
      openStream(response).send('ERROR', status(410, 'Expired', 'too old resource version: 5 (7)'));
      response.end();
    });
    const { informer, seen } = startInformer(t, server.port);
    await waitFor(() => server.watches.length === 2, { what: 'the watch after the relist' });
    assert.equal(server.lists.length, 2);
    assert.equal(server.watches[1]?.query.get('resourceVersion'), '7');
    assert.deepEqual(informer.store.keys().sort(), ['ns/a', 'ns/c']);
    assert.deepEqual(seen.slice(2), [
      { type: 'add', name: 'c', rv: '6' },
      { type: 'delete', name: 'b', rv: '2' },
    ]);
    assert.equal(informer.health().gones, 1);
  });

  it('an HTTP 410 answer to the watch request relists', async (t) => {
    const server = await fakeServerFor(t, (request, response, index) => {
      if (!request.watch) return sendList(response, String(10 + index), [object('a', '1')]);
      if (index === 0) return sendJson(response, 410, status(410, 'Gone'));
      holdOpen(request, response, index);
    });
    const { informer } = startInformer(t, server.port);
    await waitFor(() => server.watches.length === 2, { what: 'the watch after the relist' });
    assert.equal(server.lists.length, 2);
    assert.equal(server.watches[1]?.query.get('resourceVersion'), '11');
    assert.equal(informer.health().gones, 1);
  });

  it('an expired continue token restarts the list from its first page', async (t) => {
    const server = await fakeServerFor(t, (request, response, index) => {
      if (request.watch) return holdOpen(request, response, index);
      if (!request.query.get('continue')) return sendList(response, String(20 + index), [object('a', '1')], `token-${index}`);
      if (index === 1) return sendJson(response, 410, status(410, 'Expired', 'The provided continue parameter is too old'));
      sendList(response, String(20 + index - 1), [object('b', '2')]);
    });
    const { informer } = startInformer(t, server.port);
    await informer.ready();
    assert.deepEqual(
      server.lists.map((r) => r.query.get('continue')),
      [null, 'token-0', null, 'token-2'],
    );
    assert.deepEqual(informer.store.keys().sort(), ['ns/a', 'ns/b']);
    assert.equal(informer.health().expiredContinues, 1);
  });

  it('429, 500 and connection resets back off and re-watch from the last resourceVersion without relisting', async (t) => {
    const server = await fakeServerFor(t, (request, response, index) => {
      if (!request.watch) return sendList(response, '3', [object('a', '1')]);
      if (index === 0) return sendJson(response, 429, status(429, 'TooManyRequests'));
      if (index === 1) return sendJson(response, 500, status(500, 'InternalError'));
      if (index === 2) return void response.socket?.destroy();
      holdOpen(request, response, index);
    });
    const { informer } = startInformer(t, server.port);
    await waitFor(() => informer.health().watching, { what: 'an open watch' });
    assert.equal(server.lists.length, 1, 'no relist');
    assert.deepEqual(
      server.watches.map((r) => r.query.get('resourceVersion')),
      ['3', '3', '3', '3'],
    );
    assert.equal(informer.health().retries, 3);
  });

  it('keeps retrying a refused connection until the server comes up', async (t) => {
    const port = await unusedPort();
    const { informer } = startInformer(t, port);
    await waitFor(() => informer.health().retries >= 2, { what: 'refused attempts' });
    assert.match(informer.health().lastError ?? '', /ECONNREFUSED/);
    await fakeServerFor(
      t,
      (request, response, index) => (request.watch ? holdOpen(request, response, index) : sendList(response, '1', [object('a', '1')])),
      port,
    );
    await informer.ready();
    assert.deepEqual(informer.store.keys(), ['ns/a']);
  });

  it('the watchdog restarts streams that never answer or go silent', async (t) => {
    const server = await fakeServerFor(t, (request, response, index) => {
      if (!request.watch) return sendList(response, '1', []);
      if (index === 0) return; // accepted, but no headers: a frozen server
      if (index === 1) return void openStream(response); // headers, then silence
      openStream(response).send('ADDED', object('x', '2'));
    });
    const { informer } = startInformer(t, server.port, { silenceMs: 300 });
    await waitFor(() => informer.store.get('ns/x'), { what: 'the object sent on the third stream' });
    assert.equal(informer.health().watchdogRestarts, 2);
    assert.equal(server.lists.length, 1);
    assert.match(informer.health().lastError ?? '', /silent for 300 ms/);
  });

  it('resync replays the cache as updates without any request', async (t) => {
    const server = await fakeServerFor(t, (request, response, index) =>
      request.watch ? holdOpen(request, response, index) : sendList(response, '2', [object('a', '1'), object('b', '2')]),
    );
    const { seen } = startInformer(t, server.port, { resyncMs: 50 });
    await waitFor(() => seen.filter((s) => s.type === 'update').length >= 4, { what: 'two resyncs' });
    const updates = seen.filter((s) => s.type === 'update');
    assert.ok(updates.every((u) => u.type === 'update' && u.oldRv === u.rv));
    assert.equal(server.requests.length, 2, 'one list and one watch, nothing for the resyncs');
  });

  it('a handler that throws does not stop the informer or the other handlers', async (t) => {
    const server = await fakeServerFor(t, (request, response, index) =>
      request.watch ? holdOpen(request, response, index) : sendList(response, '2', [object('a', '1'), object('b', '2')]),
    );
    const { informer, seen } = startInformer(t, server.port);
    informer.on('add', () => {
      throw new Error('handler bug');
    });
    await informer.ready();
    assert.deepEqual(
      seen.map((s) => s.name),
      ['a', 'b'],
    );
    assert.equal(informer.store.size, 2);
  });

  it('retries even 403 forever and stops only on abort; ready() rejects when stopped before the first list', async (t) => {
    const server = await fakeServerFor(t, (_request, response) => sendJson(response, 403, status(403, 'Forbidden', 'configmaps is forbidden')));
    const { informer, controller } = startInformer(t, server.port);
    await waitFor(() => server.lists.length >= 3, { what: 'repeated lists' });
    assert.match(informer.health().lastError ?? '', /403 Forbidden: configmaps is forbidden/);
    controller.abort();
    await informer.stopped;
    await assert.rejects(informer.ready(), /stopped before its first list/);
    // A request sent just before the abort may still be arriving; let it land, then watch longer than
    // one backoff step (0.4-0.8 s), so a reflector that kept retrying would be seen.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const count = server.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(server.requests.length, count, 'no request after the abort');
  });

  it('applies the transform to listed and watched objects, and files objects under custom indexes', async (t) => {
    const owned = (name: string, rv: string, owner: string): object => ({
      ...object(name, rv),
      metadata: { name, namespace: 'ns', resourceVersion: rv, managedFields: [{ manager: 'x' }], ownerReferences: [{ uid: owner }] },
    });
    const server = await fakeServerFor(t, (request, response, index) => {
      if (!request.watch) return sendList(response, '2', [owned('a', '1', 'set-1')]);
      if (index > 0) return holdOpen(request, response, index);
      openStream(response).send('ADDED', owned('b', '3', 'set-1'));
    });
    const byOwner = (o: Frozen<KubeObject>): string[] => ((o.metadata?.ownerReferences ?? []) as Array<{ uid: string }>).map((r) => r.uid);
    const { informer } = startInformer(t, server.port, { transform: dropManagedFields, indexers: { owner: byOwner } });
    await waitFor(() => informer.store.size === 2, { what: 'both objects' });
    assert.ok(informer.store.list().every((o) => o.metadata && !('managedFields' in o.metadata)));
    assert.deepEqual(informer.store.byIndex('owner', 'set-1').map(name).sort(), ['a', 'b']);
  });

  it('a page that is not a JSON list, or breaks off, fails the whole list: none of its items is kept, and the retry lists afresh', async (t) => {
    // Page 1 is good every time. Page 2 is first invalid after one good item, then cut off mid-item, then good.
    let secondPages = 0;
    const server = await fakeServerFor(t, (request, response, index) => {
      if (request.watch) return holdOpen(request, response, index);
      if (!request.query.has('continue')) return sendList(response, '10', [object('a', '1')], 'token-1');
      secondPages++;
      const good = JSON.stringify(object('b', '1'));
      response.writeHead(200, { 'content-type': 'application/json' });
      if (secondPages === 1) return void response.end(`{"kind":"ConfigMapList","apiVersion":"v1","items":[${JSON.stringify(object('ghost', '1'))},<html>`);
      if (secondPages === 2) return void response.end(`{"kind":"ConfigMapList","apiVersion":"v1","items":[${good.slice(0, 20)}`);
      response.end(`{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"10"},"items":[${good}]}`);
    });
    const { informer, seen } = startInformer(t, server.port, { pageSize: 1 });
    await informer.ready();
    assert.deepEqual(informer.store.keys().sort(), ['ns/a', 'ns/b']);
    assert.deepEqual(seen.map((e) => e.name).sort(), ['a', 'b'], 'the item of the broken page never became an event');
    assert.equal(informer.health().retries, 2);
    assert.equal(informer.health().lists, 1);
    assert.deepEqual(
      server.lists.map((r) => r.query.get('continue') ?? 'first'),
      ['first', 'token-1', 'first', 'token-1', 'first', 'token-1'],
    );
  });

  it('names the collection and the problem when a list page is not JSON', async (t) => {
    const server = await fakeServerFor(t, (request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>proxy error</html>');
    });
    const { informer } = startInformer(t, server.port);
    await waitFor(() => informer.health().retries > 0, { what: 'a failed list' });
    assert.match(
      informer.health().lastError ?? '',
      /GET \/api\/v1\/namespaces\/ns\/configmaps: the server sent a body that is not a JSON list \(the body is not a JSON object/,
    );
    assert.equal(informer.health().synced, false);
  });

  it('asks for gzip on list pages and reads compressed and plain pages alike', async (t) => {
    const server = await fakeServerFor(t, (request, response, index) => {
      if (request.watch) return holdOpen(request, response, index);
      const last = request.query.has('continue');
      const page = {
        kind: 'ConfigMapList',
        apiVersion: 'v1',
        metadata: { resourceVersion: '10', continue: last ? undefined : 'token-1' },
        items: [object(last ? 'b' : 'a', '1')],
      };
      if (last) return sendJson(response, 200, page); // a server may leave small answers uncompressed
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(gzipSync(JSON.stringify(page)));
    });
    const { informer } = startInformer(t, server.port, { pageSize: 1 });
    await informer.ready();
    assert.deepEqual(informer.store.keys().sort(), ['ns/a', 'ns/b']);
    assert.deepEqual(
      server.lists.map((r) => r.acceptEncoding),
      ['gzip', 'gzip'],
    );
  });

  it('objects handed out are frozen', async (t) => {
    const server = await fakeServerFor(t, (request, response, index) =>
      request.watch ? holdOpen(request, response, index) : sendList(response, '2', [object('a', '1', { k: 'v' })]),
    );
    const { informer } = startInformer(t, server.port);
    await informer.ready();
    const a = informer.store.get('ns/a') as unknown as { data: Record<string, string>; metadata: { name: string } };
    assert.throws(() => (a.data.k = 'changed'), TypeError);
    assert.throws(() => (a.metadata.name = 'b'), TypeError);
    assert.equal(informer.store.get('ns/a')?.metadata?.name, 'a');
  });

  it('every object and array reachable from a listed or watched object is frozen, at any depth', async (t) => {
    const deep = (name: string, version: string): object => ({
      ...object(name, version),
      metadata: { name, namespace: 'ns', resourceVersion: version, managedFields: [{ manager: 'm', fieldsV1: { 'f:spec': { 'f:list': {} } } }] },
      spec: { matrix: [[{ cell: 'x' }], []], nested: { deeper: { deepest: { values: [1, 'two', { three: 3 }] } } } },
    });
    const server = await fakeServerFor(t, (request, response) => {
      if (!request.watch) return sendList(response, '2', [deep('listed', '1')]);
      openStream(response).send('ADDED', deep('watched', '3'));
    });
    const { informer } = startInformer(t, server.port);
    await waitFor(() => informer.store.size === 2, { what: 'the listed and the watched object' });
    for (const cached of informer.store.list()) {
      let containers = 0;
      const visit = (value: unknown, path: string): void => {
        if (typeof value !== 'object' || value === null) return;
        containers++;
        assert.ok(Object.isFrozen(value), `${path} of ${name(cached)} is frozen`);
        const mutable = value as Record<string, unknown>;
        assert.throws(() => (mutable['added'] = 1), TypeError, `adding to ${path}`);
        for (const [key, child] of Object.entries(value)) visit(child, `${path}.${key}`);
      };
      visit(cached, '$');
      assert.ok(containers >= 14, `walked ${containers} objects and arrays of ${name(cached)}`);
    }
  });
});

async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
