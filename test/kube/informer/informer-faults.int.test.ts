// The watch layer through real API server faults, on a private environment: a frozen server, a crash
// with deletions made while it was down, and a 410 forced by compacting etcd.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it, type TestContext } from 'node:test';
import { createInformer, type Informer, type KubeObject } from '../../../src/kube/informer/index.js';
import { testKubeConfig } from '../../env/test-kube-config.js';
import { TestEnvironment } from '../../../src/environment/local/environment.js';
import { waitFor } from '../../../src/environment/local/wait-for.js';
import { ApiWriter, cachedVersions, configMap, deleteFromEtcd } from './cluster-objects.js';
import { createKubeTransport } from '../../../src/kube/transport/transport.js';

interface Watched {
  informer: Informer<KubeObject>;
  seen: string[];
  path: string;
  ns: string;
}

describe('informer through API server faults (private environment)', () => {
  let env: TestEnvironment;
  let writer: ApiWriter;

  before(async () => {
    env = await TestEnvironment.start();
    writer = new ApiWriter(env.info());
  });
  after(async () => {
    env.apiServer.process.signal('SIGCONT'); // never leave a frozen server behind, whatever failed
    writer.close();
    await env.stop();
  });

  /** A namespace holding `names`, and a synced informer on its ConfigMaps with short fault bounds. */
  async function watched(t: TestContext, names: string[]): Promise<Watched> {
    const ns = `faults-${randomBytes(3).toString('hex')}`;
    await writer.send('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    await writer.createAll(
      path,
      names.map((name) => configMap(name)),
    );
    const controller = new AbortController();
    const informer = createInformer<KubeObject>({
      transport: createKubeTransport(testKubeConfig(env.apiServer.kubeconfigPath)),
      path,
      signal: controller.signal,
      silenceMs: 3_000,
      requestTimeoutMs: 3_000,
      backoff: { initialMs: 200, maxMs: 2_000 },
    });
    const seen: string[] = [];
    informer.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
    informer.on('update', (_old, o) => seen.push(`update ${o.metadata?.name}`));
    informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name}`));
    t.after(async () => {
      controller.abort();
      await informer.stopped;
    });
    await informer.ready();
    await waitFor(() => informer.health().watching, { what: 'an open watch' });
    return { informer, seen, path, ns };
  }

  /** Waits until the cache equals a fresh list of the collection. */
  async function converged({ informer, path }: Watched): Promise<void> {
    let truth = new Map<string, string>();
    await waitFor(
      async () => {
        truth = await writer.versions(path);
        return JSON.stringify([...cachedVersions(informer)].sort()) === JSON.stringify([...truth].sort());
      },
      { what: 'the cache to equal a fresh list', timeoutMs: 60_000, intervalMs: 250 },
    ).catch(() => undefined);
    assert.deepEqual(new Map([...cachedVersions(informer)].sort()), new Map([...truth].sort()));
  }

  async function restartApiServer(whileDown: () => Promise<void>): Promise<void> {
    await env.apiServer.process.kill();
    await whileDown();
    await env.apiServer.process.start();
    await env.apiServer.ready();
  }

  it('the watchdog restarts a stream frozen by SIGSTOP and catches up after SIGCONT', async (t) => {
    const w = await watched(t, ['kept', 'deleted-while-frozen']);
    env.apiServer.process.signal('SIGSTOP');
    try {
      await waitFor(() => w.informer.health().watchdogRestarts >= 1, { what: 'the watchdog to fire', timeoutMs: 30_000 });
      assert.equal(w.informer.health().watching, false);
      await deleteFromEtcd(env.etcd.clientUrl, 'configmaps', w.ns, 'deleted-while-frozen');
    } finally {
      env.apiServer.process.signal('SIGCONT');
    }
    await writer.send('POST', w.path, configMap('created-after-thaw'));
    await converged(w);
    assert.deepEqual(w.seen.slice(2).sort(), ['add created-after-thaw', 'delete deleted-while-frozen']);
    assert.deepEqual(w.informer.store.keys().sort(), [`${w.ns}/created-after-thaw`, `${w.ns}/kept`]);
  });

  it('survives a crashed API server: deletes made while it was down arrive as delete events', async (t) => {
    const w = await watched(t, ['updated', 'deleted-while-down', 'deleted-after', 'kept']);
    await restartApiServer(() => deleteFromEtcd(env.etcd.clientUrl, 'configmaps', w.ns, 'deleted-while-down'));
    await writer.patch(`${w.path}/updated`, { data: { value: 'changed' } });
    await writer.send('POST', w.path, configMap('created-after'));
    await writer.send('DELETE', `${w.path}/deleted-after`);
    await converged(w);
    const changes = w.seen.slice(4);
    for (const expected of ['delete deleted-while-down', 'update updated', 'add created-after', 'delete deleted-after']) {
      assert.ok(changes.includes(expected), `${expected} in ${JSON.stringify(changes)}`);
    }
    assert.ok(w.informer.health().retries >= 1, 'the outage was retried');
  });

  it('a 410 after etcd was compacted past the watched resourceVersion relists to the truth', async (t) => {
    const w = await watched(t, ['kept', 'deleted-before-compaction']);
    const watchedVersion = Number(w.informer.health().resourceVersion);
    await restartApiServer(async () => {
      await deleteFromEtcd(env.etcd.clientUrl, 'configmaps', w.ns, 'deleted-before-compaction');
      const compactedTo = await env.etcd.compact();
      assert.ok(compactedTo > watchedVersion, `compacted to ${compactedTo}, past ${watchedVersion}`);
    });
    await waitFor(() => w.informer.health().gones >= 1, { what: 'a 410 Gone', timeoutMs: 60_000 });
    await converged(w);
    assert.ok(w.informer.health().lists >= 2, 'listed again');
    assert.deepEqual(w.seen.slice(2), ['delete deleted-before-compaction']);
  });
});
