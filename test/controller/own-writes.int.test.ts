import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type { GitRepo } from '../env/git-fixtures.js';
import { createTestNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig, sharedEnvironment, sharedGitFixtures } from '../env/shared-environment.js';
import { waitFor } from '../env/wait-for.js';
import { PausableProxy } from './pausable-proxy.js';
import { namespaceObjects, startReplicas, type Replicas } from './replicas.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const FILE = 'kustomization.yaml';

describe('a run that follows its ApplicationSet’s last run plans on a cache that shows that run’s writes', () => {
  const kc = adminKubeConfig();
  let ns: TestNamespace;
  let repo: GitRepo;
  let proxy: PausableProxy;
  let replicas: Replicas;
  let objects: ReturnType<typeof namespaceObjects>;

  before(async () => {
    ns = await createTestNamespace(kc, 'own-writes');
    const info = sharedEnvironment();
    repo = await sharedGitFixtures().createRepo(`own-writes-${ns.name}`, { [`own/a/${FILE}`]: 'resources: []\n' });
    await kc.makeApiClient(CoreV1Api).createNamespacedSecret({
      namespace: ns.name,
      body: { metadata: { name: 'repo', labels: { 'argocd.argoproj.io/secret-type': 'repository' } }, stringData: { url: repo.httpUrl, username: info.gitUsername, password: info.gitPassword } },
    });
    objects = namespaceObjects(kc, ns.name);
    const server = new URL(kc.getCurrentCluster()?.server ?? '');
    proxy = await PausableProxy.start({ host: server.hostname, port: Number(server.port) });
    // The replica's watches go through the proxy, its writes do not: the test decides when its cache
    // shows what it wrote.
    replicas = await startReplicas(kc, ns.name, 1, {}, () => ({ informerKubeConfig: proxy.kubeConfigThrough(kc, () => new KubeConfig()) }));
  });
  after(async () => {
    await replicas.stop();
    await proxy.close();
    await ns.delete();
  });

  it('writes each new Application once, though Git polls every second while its cache lags', async () => {
    await objects.createAppSet('own', {
      generators: [{ git: { repoURL: repo.httpUrl, revision: 'HEAD', requeueAfterSeconds: 1, directories: [{ path: 'own/*' }] } }],
      template: { metadata: { name: 'own-{{path.basename}}' }, spec: { project: 'default', source: { repoURL: repo.httpUrl, targetRevision: 'HEAD', path: '{{path}}' }, destination: { server: 'https://kubernetes.default.svc', namespace: 'default' } } },
    });
    await waitFor(async () => (await objects.liveNames('own-')) === 'own-a' && (await objects.condition('own', 'ResourcesUpToDate'))?.status === 'True', { what: 'the first Application', timeoutMs: 30_000 });
    const creates = (): Promise<number> => replicas.sample('appset_application_writes_total', 'operation="create"');
    const createdBefore = await creates();
    proxy.pause();
    try {
      await repo.commit({ [`own/b/${FILE}`]: 'resources: []\n', [`own/c/${FILE}`]: 'resources: []\n' }, 'two more folders');
      // Read past the proxy: the server has them once a poll saw the commit.
      await waitFor(async () => (await objects.liveNames('own-')) === 'own-a,own-b,own-c', { what: 'the new Applications on the server', timeoutMs: 30_000 });
      // Two more polls fall in here; planned on a cache without own-b and own-c, each would create them again.
      await sleep(2_500);
    } finally {
      proxy.resume();
    }
    const runs = await replicas.reconciles('own');
    await waitFor(async () => (await replicas.reconciles('own')) >= runs + 2, { what: 'two more polls on the caught-up cache', timeoutMs: 30_000 });
    assert.equal((await creates()) - createdBefore, 2, 'own-b and own-c were each created once');
  });
});
