// The watch layer against the shared real kube-apiserver: a large paged sync, event order, selectors.
import assert from 'node:assert/strict';
import { after, describe, it, type TestContext } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createInformer, type Informer, type InformerOptions, type KubeObject } from '../../../src/kube/informer/index.js';
import { createTestNamespace, type TestNamespace } from '../../env/namespaces.js';
import { adminKubeConfig, sharedEnvironment } from '../../env/shared-environment.js';
import { waitFor } from '../../../src/environment/local/wait-for.js';
import { ApiWriter, cachedVersions, configMap } from './cluster-objects.js';
import { createKubeTransport } from '../../../src/kube/transport/transport.js';

interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

function startInformer<T extends KubeObject>(t: TestContext, options: Omit<InformerOptions<T>, 'transport' | 'signal'>): Informer<T> {
  const controller = new AbortController();
  const informer = createInformer<T>({ transport: createKubeTransport(adminKubeConfig()), signal: controller.signal, ...options });
  t.after(async () => {
    controller.abort();
    await informer.stopped;
  });
  return informer;
}

describe('informer against the real API server', () => {
  const writer = new ApiWriter(sharedEnvironment(), 24);
  const namespaces: TestNamespace[] = [];
  const namespace = async (prefix: string): Promise<string> => {
    const ns = await createTestNamespace(adminKubeConfig(), prefix);
    namespaces.push(ns);
    return ns.name;
  };
  after(async () => {
    await Promise.all(namespaces.map((ns) => ns.delete()));
    writer.close();
  });

  it('syncs 5,000 objects in pages of 500 and equals a fresh list', async (t) => {
    const ns = await namespace('informer-sync');
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    await writer.createAll(
      path,
      Array.from({ length: 5000 }, (_, i) => configMap(`cm-${i}`)),
      24,
    );
    const informer = startInformer<ConfigMap>(t, { path, pageSize: 500 });
    await informer.ready();
    const health = informer.health();
    assert.ok(health.pages > 1, `more than one page requested (got ${health.pages})`);
    assert.equal(health.pages, 10, 'ten pages of 500');
    assert.equal(informer.store.size, 5000);
    assert.deepEqual(cachedVersions(informer), await writer.versions(path));
    assert.equal(informer.store.getByName(ns, 'cm-4999')?.data?.value, 'cm-4999');
    assert.ok(health.synced && health.lastHeardAt !== undefined && health.lastError === undefined);
  });

  it('delivers create, update and delete in order with the old and new objects', async (t) => {
    const ns = await namespace('informer-events');
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    const informer = startInformer<ConfigMap>(t, { path });
    const seen: string[] = [];
    informer.on('add', (o) => seen.push(`add ${o.metadata?.name} ${o.data?.value}`));
    informer.on('update', (old, o) =>
      seen.push(`update ${o.metadata?.name} ${old.data?.value}->${o.data?.value} rv ${old.metadata?.resourceVersion}<${o.metadata?.resourceVersion}`),
    );
    informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name} ${o.data?.value}`));
    await informer.ready();
    const created = await writer.send<ConfigMap>('POST', path, configMap('a', {}, { value: 'one' }));
    const updated = await writer.patch<ConfigMap>(`${path}/a`, { data: { value: 'two' } });
    await writer.send('POST', path, configMap('b', {}, { value: 'three' }));
    await writer.send('DELETE', `${path}/a`);
    const expected = [
      'add a one',
      `update a one->two rv ${created.metadata?.resourceVersion}<${updated.metadata?.resourceVersion}`,
      'add b three',
      'delete a two',
    ];
    await waitFor(() => seen.length >= expected.length, { what: 'four events', timeoutMs: 20_000 });
    assert.deepEqual(seen, expected);
    assert.deepEqual(informer.store.keys(), [`${ns}/b`]);
  });

  it('keeps objects outside the label and field selectors out, also across relabels', async (t) => {
    const ns = await namespace('informer-selectors');
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    await writer.createAll(path, [configMap('in', { team: 'blue' }), configMap('out', { team: 'red' }), configMap('excluded', { team: 'blue' })]);
    const informer = startInformer<ConfigMap>(t, { path, labelSelector: 'team=blue', fieldSelector: 'metadata.name!=excluded' });
    const seen: string[] = [];
    informer.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
    informer.on('update', (_old, o) => seen.push(`update ${o.metadata?.name}`));
    informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name}`));
    await informer.ready();
    assert.deepEqual(informer.store.keys(), [`${ns}/in`]);
    await writer.send('POST', path, configMap('late-out', { team: 'red' }));
    await writer.send('POST', path, configMap('late-in', { team: 'blue' }));
    await waitFor(() => informer.store.getByName(ns, 'late-in'), { what: 'late-in', timeoutMs: 20_000 });
    await writer.patch(`${path}/in`, { metadata: { labels: { team: 'red' } } });
    await waitFor(() => !informer.store.getByName(ns, 'in'), { what: 'the relabelled object to leave', timeoutMs: 20_000 });
    // Changes outside the selector come first, so they would have arrived before the relabel below.
    await writer.patch(`${path}/excluded`, { data: { value: 'changed' } });
    await writer.patch(`${path}/late-out`, { data: { value: 'changed' } });
    await writer.patch(`${path}/out`, { metadata: { labels: { team: 'blue' } } });
    await waitFor(() => informer.store.getByName(ns, 'out'), { what: 'the relabelled object to enter', timeoutMs: 20_000 });
    assert.deepEqual(seen, ['add in', 'add late-in', 'delete in', 'add out']);
    assert.deepEqual(informer.store.keys().sort(), [`${ns}/late-in`, `${ns}/out`]);
    assert.deepEqual(cachedVersions(informer), await writer.versions(path, '?labelSelector=team%3Dblue&fieldSelector=metadata.name%21%3Dexcluded'));
  });

  it('a stopped informer leaves nothing of its cache reachable, even before its list connections closed', async () => {
    const ns = await namespace('informer-release');
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    await writer.createAll(
      path,
      Array.from({ length: 2000 }, (_, i) => configMap(`cm-${i}`)),
      24,
    );
    const collected = new Set<string>();
    const registry = new FinalizationRegistry<string>((name) => collected.add(name));
    const { stopped } = await syncRegisterAndStop(path, (object) => registry.register(object, object.metadata?.name ?? ''));
    await stopped;
    collectGarbage();
    await waitFor(() => collected.size === 2000, { what: 'every cached object collected by the one collection right after the stop', timeoutMs: 2000 });
  });
});

/**
 * Syncs an informer in pages of 1,000 (large enough for the server to gzip them), registers every cached object, stops it and hands back only its stop
 * promise. Nothing between the sync and the caller's collection waits for I/O: the list's last connection is
 * still closing then, which is when anything it holds would keep the cache alive. (A FinalizationRegistry,
 * unlike a WeakRef made in the same job, does not itself keep the objects alive.)
 */
async function syncRegisterAndStop(path: string, register: (object: ConfigMap) => void): Promise<{ stopped: Promise<void> }> {
  const controller = new AbortController();
  const informer = createInformer<ConfigMap>({ transport: createKubeTransport(adminKubeConfig()), signal: controller.signal, path, pageSize: 1000 });
  await informer.ready();
  for (const object of informer.store.list()) register(object);
  controller.abort();
  return { stopped: informer.stopped };
}

/** A full garbage collection, without running the whole test process with --expose-gc. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
