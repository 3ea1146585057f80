import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { createControllerNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig } from '../env/shared-environment.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { PausableProxy } from './pausable-proxy.js';
import { namespaceObjects, startReplicas, type Replicas } from './replicas.js';

const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a job that lands on a replica with a stale cache waits for the cache', () => {
  const kc = adminKubeConfig();
  let ns: TestNamespace;
  let proxy: PausableProxy;
  let replicas: Replicas;
  let objects: ReturnType<typeof namespaceObjects>;

  before(async () => {
    ns = await createControllerNamespace(kc, 'stale');
    objects = namespaceObjects(kc, ns.name);
    const server = new URL(kc.getCurrentCluster()?.server ?? '');
    proxy = await PausableProxy.start({ host: server.hostname, port: Number(server.port) });
    // Replica 0 sees every event at once but runs nothing; replica 1 runs every job, and its watches
    // go through the proxy, so the test decides when its cache falls behind.
    replicas = await startReplicas(kc, ns.name, 2, {}, (i) =>
      i === 0 ? { takeWork: false } : { informerKubeConfig: proxy.kubeConfigThrough(kc), cacheWaitTimeoutMs: 120_000 },
    );
  });
  after(async () => {
    await replicas.stop();
    await proxy.close();
    await ns.delete();
  });

  const template = {
    metadata: { name: 'stale-{{n}}' },
    spec: {
      project: 'default',
      source: { repoURL: 'https://git.example/apps.git', path: 'apps/{{n}}' },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'default' },
    },
  };
  const elements = (...ns: string[]) => [{ list: { elements: ns.map((n) => ({ n })) } }];

  /** Pauses the runner's watches, makes `change`, and checks the runner started the job but does not finish it on its old cache. */
  async function changeWhileBehind(change: () => Promise<void>): Promise<void> {
    const started = await replicas.sample('appset_queue_add_to_start_seconds_count');
    const finished = await replicas.reconciles('stale');
    proxy.pause();
    try {
      await change();
      await waitFor(async () => (await replicas.sample('appset_queue_add_to_start_seconds_count')) > started, {
        what: 'the lagging replica to take the job',
        timeoutMs: 30_000,
      });
      await sleep(1_500); // acting on the old cache would take milliseconds
      assert.equal(await replicas.reconciles('stale'), finished, 'no reconcile completed on the stale cache');
    } finally {
      proxy.resume();
    }
  }

  it('runs a spec change only once the cache holds it', async () => {
    await objects.createAppSet('stale', { generators: elements('a'), template });
    await waitFor(async () => (await objects.liveNames('stale-')) === 'stale-a' && (await objects.condition('stale', 'ResourcesUpToDate'))?.status === 'True', {
      what: 'the first Application',
      timeoutMs: 30_000,
    });
    await sleep(500);
    await changeWhileBehind(async () => {
      await objects.custom.patchNamespacedCustomObject(
        { ...objects.G, plural: 'applicationsets', name: 'stale', body: [{ op: 'replace', path: '/spec/generators', value: elements('a', 'b') }] },
        jsonPatch,
      );
    });
    await waitFor(async () => (await objects.liveNames('stale-')) === 'stale-a,stale-b', {
      what: 'the new Application once the cache caught up',
      timeoutMs: 30_000,
    });
    assert.ok((await replicas.sample('appset_cache_wait_seconds_sum')) >= 1, 'the wait shows in the metrics');
  });

  it('recreates a deleted Application only once the cache has seen the deletion', async () => {
    await sleep(500);
    const before = (await objects.apps()).get('stale-b');
    assert.ok(before);
    await changeWhileBehind(async () => {
      // The finalizer is Argo CD's; take it off so the delete is immediate, as Argo CD would once done.
      await objects.custom.patchNamespacedCustomObject(
        { ...objects.G, plural: 'applications', name: 'stale-b', body: [{ op: 'remove', path: '/metadata/finalizers' }] },
        jsonPatch,
      );
      await objects.custom.deleteNamespacedCustomObject({ ...objects.G, plural: 'applications', name: 'stale-b' });
    });
    const recreated = await waitFor(async () => (await objects.apps()).get('stale-b'), { what: 'the Application to be recreated', timeoutMs: 30_000 });
    assert.notEqual(recreated.metadata.uid, before.metadata.uid);
  });
});
