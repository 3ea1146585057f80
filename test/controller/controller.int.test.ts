import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ApiException, CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { pino } from 'pino';
import { readControllerConfig } from '../../src/config/controller-config.js';
import { startController, type RunningController } from '../../src/app/start-replica.js';
import { createControllerNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig, sharedEnvironment, sharedGitFixtures } from '../env/shared-environment.js';
import type { GitRepo } from '../../src/environment/local/git-fixtures.js';
import { waitFor } from '../../src/environment/local/wait-for.js';

const G = { group: 'argoproj.io', version: 'v1alpha1' };
const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);
type App = {
  metadata: { name: string; uid: string; resourceVersion: string; finalizers?: string[]; ownerReferences?: Array<{ uid: string }> };
  spec: { source: { path: string } };
};
type AppSet = {
  metadata: { uid: string; resourceVersion: string };
  spec: Record<string, unknown>;
  status?: { conditions?: Array<{ type: string; status: string; reason: string; message: string }> };
};

describe('controller end to end: two replicas, real API server, Redis and Git', () => {
  const kc = adminKubeConfig();
  const custom = kc.makeApiClient(CustomObjectsApi);
  let ns: TestNamespace;
  let repo: GitRepo;
  const replicas: RunningController[] = [];

  const apps = async (): Promise<Map<string, App>> => {
    const list = (await custom.listNamespacedCustomObject({ ...G, namespace: ns.name, plural: 'applications' })) as { items: App[] };
    return new Map(list.items.map((app) => [app.metadata.name, app]));
  };
  const appset = async (name: string): Promise<AppSet> =>
    (await custom.getNamespacedCustomObject({ ...G, namespace: ns.name, plural: 'applicationsets', name })) as AppSet;
  const condition = async (name: string, type: string) => (await appset(name)).status?.conditions?.find((c) => c.type === type);
  const template = (path: string) => ({
    metadata: { name: `{{name}}` },
    spec: {
      project: 'default',
      source: { repoURL: 'https://git.example/apps.git', targetRevision: 'HEAD', path },
      destination: { server: 'https://kubernetes.default.svc', namespace: '{{name}}' },
    },
  });
  const listAppSet = (name: string, names: string[]) => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name, namespace: ns.name },
    spec: { generators: [{ list: { elements: names.map((n) => ({ name: n })) } }], template: template('apps/{{name}}') },
  });
  const reconciles = async (): Promise<number> => {
    let total = 0;
    for (const replica of replicas) {
      const text = await replica.metricsRegistry.metrics();
      for (const match of text.matchAll(/^argocd_appset_reconcile_count\{[^}]*\} (\d+)$/gm)) total += Number(match[1]);
    }
    return total;
  };

  before(async () => {
    ns = await createControllerNamespace(kc, 'e2e');
    const info = sharedEnvironment();
    repo = await sharedGitFixtures().createRepo(`e2e-${ns.name}`, {
      'apps/alpha/kustomization.yaml': 'resources: []\n',
      'apps/beta/kustomization.yaml': 'resources: []\n',
    });
    await kc.makeApiClient(CoreV1Api).createNamespacedSecret({
      namespace: ns.name,
      body: {
        metadata: { name: 'repo', labels: { 'argocd.argoproj.io/secret-type': 'repository' } },
        stringData: { url: repo.httpUrl, username: info.gitUsername, password: info.gitPassword },
      },
    });
    const config = readControllerConfig(
      {
        namespace: ns.name,
        'redis-url': info.redisUrl,
        'listen-address': '127.0.0.1:0',
        'git-cache-dir': mkdtempSync(join(tmpdir(), 'e2e-git-')),
        'log-level': 'warn',
      },
      {},
    );
    const queueName = `e2e-${randomBytes(4).toString('hex')}`;
    for (let i = 0; i < 2; i++) replicas.push(await startController(config, kc, pino({ level: 'silent' }), { queueName }));
    await Promise.all(replicas.map((r) => r.ready));
  });
  after(async () => {
    await Promise.all(replicas.map((r) => r.stop(5_000)));
    await ns.delete();
  });

  it('creates the Applications a new ApplicationSet generates, owned and with the resources finalizer', async () => {
    await custom.createNamespacedCustomObject({ ...G, namespace: ns.name, plural: 'applicationsets', body: listAppSet('list', ['a', 'b', 'c']) });
    const created = await waitFor(async () => ((await apps()).size === 3 ? apps() : undefined), { what: 'three Applications', timeoutMs: 30_000 });
    const owner = (await appset('list')).metadata.uid;
    for (const app of created.values()) {
      assert.equal(app.metadata.ownerReferences?.[0]?.uid, owner);
      assert.deepEqual(app.metadata.finalizers, ['resources-finalizer.argocd.argoproj.io']);
    }
    await waitFor(async () => (await condition('list', 'ResourcesUpToDate'))?.status === 'True', { what: 'ResourcesUpToDate', timeoutMs: 10_000 });
  });

  it('does not wake itself with its own status writes', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const settled = await reconciles();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    assert.equal(await reconciles(), settled, 'no reconcile while nothing changes');
  });

  it('reverts a hand edit of a generated Application', async () => {
    const a = (await apps()).get('a');
    assert.ok(a);
    await custom.patchNamespacedCustomObject({
      ...G,
      namespace: ns.name,
      plural: 'applications',
      name: 'a',
      body: [{ op: 'replace', path: '/spec/source/path', value: 'hand/edited' }],
    });
    await waitFor(async () => (await apps()).get('a')?.spec.source.path === 'apps/a', { what: 'the hand edit to be reverted', timeoutMs: 20_000 });
    assert.equal((await apps()).get('a')?.metadata.uid, a.metadata.uid, 'updated in place, not recreated');
  });

  it('adds and deletes Applications when the generator output changes', async () => {
    // A JSON patch, not a replace: the controller's status writes move the resourceVersion meanwhile.
    const elements = listAppSet('list', ['a', 'b', 'd']).spec.generators;
    await custom.patchNamespacedCustomObject(
      { ...G, namespace: ns.name, plural: 'applicationsets', name: 'list', body: [{ op: 'replace', path: '/spec/generators', value: elements }] },
      jsonPatch,
    );
    await waitFor(
      async () => {
        const names = [...(await apps()).entries()]
          .filter(([, app]) => !('deletionTimestamp' in app.metadata))
          .map(([n]) => n)
          .sort();
        return names.join(',') === 'a,b,d';
      },
      { what: 'c replaced by d', timeoutMs: 30_000 },
    );
  });

  it('never takes over an Application nobody owns, and says so in the status', async () => {
    await custom.createNamespacedCustomObject({
      ...G,
      namespace: ns.name,
      plural: 'applications',
      body: {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Application',
        metadata: { name: 'taken' },
        spec: { project: 'default', destination: {}, source: { path: 'mine' } },
      },
    });
    await custom.createNamespacedCustomObject({ ...G, namespace: ns.name, plural: 'applicationsets', body: listAppSet('conflicting', ['taken', 'free']) });
    const error = await waitFor(
      async () => {
        const c = await condition('conflicting', 'ErrorOccurred');
        return c?.status === 'True' && c.message.includes('taken') ? c : undefined;
      },
      { what: 'the conflict condition', timeoutMs: 20_000 },
    );
    assert.match(error.message, /Application taken already exists and is controlled by nobody/);
    const taken = (await apps()).get('taken');
    assert.equal(taken?.spec.source.path, 'mine');
    assert.equal(taken?.metadata.ownerReferences, undefined);
    assert.ok((await apps()).has('free'), 'the other Application is still created');
  });

  it('reads Git over HTTP with the repository Secret, and follows a new commit', async () => {
    const spec = {
      generators: [{ git: { repoURL: repo.httpUrl, revision: 'HEAD', requeueAfterSeconds: 1, directories: [{ path: 'apps/*' }] } }],
      template: {
        metadata: { name: 'git-{{path.basename}}' },
        spec: {
          project: 'default',
          source: { repoURL: repo.httpUrl, targetRevision: 'HEAD', path: '{{path}}' },
          destination: { server: 'https://kubernetes.default.svc', namespace: '{{path.basename}}' },
        },
      },
    };
    await custom.createNamespacedCustomObject({
      ...G,
      namespace: ns.name,
      plural: 'applicationsets',
      body: { apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', metadata: { name: 'git', namespace: ns.name }, spec },
    });
    await waitFor(async () => (await apps()).has('git-alpha') && (await apps()).has('git-beta'), { what: 'Applications from Git', timeoutMs: 30_000 });
    await repo.commit({ 'apps/gamma/kustomization.yaml': 'resources: []\n' }, 'add gamma');
    await waitFor(async () => (await apps()).has('git-gamma'), { what: 'the Application of the new folder', timeoutMs: 30_000 });
  });

  it('deletes nothing when a generator fails, and reports the error', async () => {
    await custom.patchNamespacedCustomObject(
      {
        ...G,
        namespace: ns.name,
        plural: 'applicationsets',
        name: 'git',
        body: [{ op: 'replace', path: '/spec/generators/0/git/revision', value: 'no-such-branch' }],
      },
      jsonPatch,
    );
    // Wait for this error's condition: a transient one (a conflict under load) may come first.
    const error = await waitFor(
      async () => {
        const c = await condition('git', 'ErrorOccurred');
        return c?.status === 'True' && /no-such-branch/.test(c.message) ? c : undefined;
      },
      { what: 'the generator error condition', timeoutMs: 20_000 },
    );
    assert.match(error.message, /revision "no-such-branch": no branch, tag or commit of that name/);
    assert.equal((await condition('git', 'ParametersGenerated'))?.status, 'False');
    for (const name of ['git-alpha', 'git-beta', 'git-gamma']) assert.ok((await apps()).has(name), `${name} survives`);
  });

  it("lets the real garbage collector remove an ApplicationSet's Applications with it", async () => {
    await custom.deleteNamespacedCustomObject({ ...G, namespace: ns.name, plural: 'applicationsets', name: 'list', propagationPolicy: 'Background' });
    // The resources finalizer is Argo CD's to remove; without Argo CD here, remove it as Argo CD would.
    await waitFor(
      async () => {
        const left = [...(await apps()).values()].filter((app) => ['a', 'b', 'd'].includes(app.metadata.name));
        for (const app of left) {
          if (app.metadata.finalizers?.length) {
            await custom
              .patchNamespacedCustomObject({
                ...G,
                namespace: ns.name,
                plural: 'applications',
                name: app.metadata.name,
                body: [{ op: 'remove', path: '/metadata/finalizers' }],
              })
              .catch((e: unknown) => {
                if (!(e instanceof ApiException)) throw e;
              });
          }
        }
        return left.length === 0;
      },
      { what: 'the owned Applications to be garbage-collected', timeoutMs: 60_000, intervalMs: 500 },
    );
  });
});
