import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { createControllerNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig, sharedEnvironment, sharedGitFixtures } from '../env/shared-environment.js';
import type { GitRepo } from '../../src/environment/local/git-fixtures.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { namespaceObjects, startReplicas, type Replicas } from './replicas.js';

const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);
const RESOURCES_FINALIZER = 'resources-finalizer.argocd.argoproj.io';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('controller lifecycle end to end: two replicas, real API server, Redis, Git and garbage collector', () => {
  const kc = adminKubeConfig();
  const core = kc.makeApiClient(CoreV1Api);
  let ns: TestNamespace;
  let repo: GitRepo;
  let replicas: Replicas;
  let objects: ReturnType<typeof namespaceObjects>;

  const destination = { server: 'https://kubernetes.default.svc', namespace: 'default' };
  const gitAppSet = (prefix: string, folder: string, syncPolicy?: Record<string, unknown>) => ({
    generators: [{ git: { repoURL: repo.httpUrl, revision: 'HEAD', requeueAfterSeconds: 1, directories: [{ path: `${folder}/*` }] } }],
    template: {
      metadata: { name: `${prefix}-{{path.basename}}` },
      spec: { project: 'default', source: { repoURL: repo.httpUrl, targetRevision: 'HEAD', path: '{{path}}' }, destination },
    },
    ...(syncPolicy ? { syncPolicy } : {}),
  });
  const clusterAppSet = (prefix: string, env: string) => ({
    generators: [{ clusters: { selector: { matchLabels: { env } } } }],
    template: {
      metadata: { name: `${prefix}-{{name}}` },
      spec: {
        project: 'default',
        source: { repoURL: 'https://git.example/apps.git', path: 'apps' },
        destination: { server: '{{server}}', namespace: 'default' },
      },
    },
  });
  const file = 'kustomization.yaml';

  before(async () => {
    ns = await createControllerNamespace(kc, 'life');
    const info = sharedEnvironment();
    repo = await sharedGitFixtures().createRepo(`life-${ns.name}`, {
      README: 'fixture\n',
      ...Object.fromEntries(['a', 'b', 'c'].map((d) => [`policy/${d}/${file}`, 'resources: []\n'])),
      ...Object.fromEntries(['x', 'y', 'z'].map((d) => [`guard/${d}/${file}`, 'resources: []\n'])),
    });
    await core.createNamespacedSecret({
      namespace: ns.name,
      body: {
        metadata: { name: 'repo', labels: { 'argocd.argoproj.io/secret-type': 'repository' } },
        stringData: { url: repo.httpUrl, username: info.gitUsername, password: info.gitPassword },
      },
    });
    objects = namespaceObjects(kc, ns.name);
    replicas = await startReplicas(kc, ns.name, 2);
  });
  after(async () => {
    await replicas.stop();
    await ns.delete();
  });

  it('deletes the Application of a folder removed from Git under sync, and keeps it under create-update', async () => {
    await objects.createAppSet('kept', gitAppSet('kept', 'policy', { applicationsSync: 'create-update' }));
    await objects.createAppSet('synced', gitAppSet('synced', 'policy'));
    await waitFor(
      async () => (await objects.liveNames('kept-')) === 'kept-a,kept-b,kept-c' && (await objects.liveNames('synced-')) === 'synced-a,synced-b,synced-c',
      { what: 'both sets of Applications', timeoutMs: 60_000 },
    );
    await repo.commit({ [`policy/c/${file}`]: null }, 'remove folder c');
    await waitFor(async () => (await objects.liveNames('synced-')) === 'synced-a,synced-b', { what: 'synced-c to be deleted', timeoutMs: 60_000 });
    // The create-update set has seen the same commit by now; give it two more polls to be sure.
    const seen = await replicas.reconciles('kept');
    await waitFor(async () => (await replicas.reconciles('kept')) >= seen + 2, { what: 'two more reconciles of kept', timeoutMs: 30_000 });
    assert.equal(await objects.liveNames('kept-'), 'kept-a,kept-b,kept-c', 'create-update never deletes');
    assert.equal((await objects.condition('kept', 'ResourcesUpToDate'))?.status, 'True');
  });

  it('refuses to delete every Application when a generator suddenly returns nothing, reconsiders on the next reconcile, and deletes on opt-in', async () => {
    await objects.createAppSet('guard', gitAppSet('guard', 'guard'));
    await waitFor(async () => (await objects.liveNames('guard-')) === 'guard-x,guard-y,guard-z', { what: 'the guarded Applications', timeoutMs: 60_000 });
    await repo.commit({ [`guard/x/${file}`]: null, [`guard/y/${file}`]: null, [`guard/z/${file}`]: null }, 'remove every guarded folder');
    const refusal = await waitFor(
      async () => {
        const c = await objects.condition('guard', 'ErrorOccurred');
        return c?.status === 'True' && /refusing to delete 3 of 3/.test(c.message) ? c : undefined;
      },
      { what: 'the deletion guard condition', timeoutMs: 60_000 },
    );
    assert.equal(refusal.reason, 'DeleteApplicationError');
    assert.equal(await objects.liveNames('guard-'), 'guard-x,guard-y,guard-z', 'nothing deleted');
    const events = await objects.events('guard');
    assert.ok(
      events.some((e) => e.type === 'Warning' && e.reason === 'DeleteApplicationError' && /refusing to delete/.test(e.message ?? '')),
      'a Warning Event says why',
    );

    // Git comes back but for one folder: the next poll decides afresh and deletes just that one.
    await repo.commit({ [`guard/x/${file}`]: 'resources: []\n', [`guard/y/${file}`]: 'resources: []\n' }, 'restore x and y');
    await waitFor(async () => (await objects.liveNames('guard-')) === 'guard-x,guard-y', { what: 'guard-z alone to be deleted', timeoutMs: 60_000 });
    await waitFor(async () => (await objects.condition('guard', 'ErrorOccurred'))?.status === 'False', { what: 'the refusal to clear', timeoutMs: 30_000 });

    await repo.commit({ [`guard/x/${file}`]: null, [`guard/y/${file}`]: null }, 'remove them again');
    await waitFor(async () => /refusing to delete 2 of \d/.test((await objects.condition('guard', 'ErrorOccurred'))?.message ?? ''), {
      what: 'the second refusal',
      timeoutMs: 60_000,
    });
    assert.equal(await objects.liveNames('guard-'), 'guard-x,guard-y');
    await objects.custom.patchNamespacedCustomObject(
      {
        ...objects.G,
        plural: 'applicationsets',
        name: 'guard',
        body: [{ op: 'add', path: '/metadata/annotations', value: { 'appset-controller.io/allow-mass-deletion': 'true' } }],
      },
      jsonPatch,
    );
    await waitFor(async () => (await objects.liveNames('guard-')) === '', { what: 'the opted-in deletion', timeoutMs: 60_000 });
  });

  it('routes a cluster Secret change only to ApplicationSets whose selector matches its old or new labels', async () => {
    await objects.createAppSet('prod', clusterAppSet('prod', 'prod'), { annotations: { 'appset-controller.io/allow-mass-deletion': 'true' } });
    await objects.createAppSet('dev', clusterAppSet('dev', 'dev'));
    await waitFor(
      async () =>
        (await objects.condition('prod', 'ResourcesUpToDate'))?.status === 'True' && (await objects.condition('dev', 'ResourcesUpToDate'))?.status === 'True',
      { what: 'both cluster sets settled', timeoutMs: 30_000 },
    );
    await sleep(1_000);
    const devBefore = await replicas.reconciles('dev');
    const prodBefore = await replicas.reconciles('prod');
    const secret = {
      metadata: { name: 'cluster-one', labels: { 'argocd.argoproj.io/secret-type': 'cluster', env: 'prod' } },
      stringData: { name: 'one', server: 'https://one.example' },
    };
    await core.createNamespacedSecret({ namespace: ns.name, body: secret });
    await waitFor(async () => (await objects.liveNames('prod-')) === 'prod-one', { what: 'the prod Application', timeoutMs: 30_000 });
    await sleep(2_000); // room for a wrongly routed reconcile to happen and be counted
    assert.equal(await replicas.reconciles('dev'), devBefore, 'a prod cluster does not wake the dev ApplicationSet');
    assert.ok((await replicas.reconciles('prod')) > prodBefore);

    await core.patchNamespacedSecret(
      { namespace: ns.name, name: 'cluster-one', body: [{ op: 'replace', path: '/metadata/labels/env', value: 'dev' }] },
      jsonPatch,
    );
    await waitFor(async () => (await objects.liveNames('dev-')) === 'dev-one' && (await objects.liveNames('prod-')) === '', {
      what: 'the cluster to move from prod to dev',
      timeoutMs: 30_000,
    });

    const unrelated = {
      metadata: { name: 'cluster-two', labels: { 'argocd.argoproj.io/secret-type': 'cluster', env: 'staging' } },
      stringData: { name: 'two', server: 'https://two.example' },
    };
    await sleep(1_000);
    const settled = { dev: await replicas.reconciles('dev'), prod: await replicas.reconciles('prod') };
    await core.createNamespacedSecret({ namespace: ns.name, body: unrelated });
    await sleep(2_000);
    assert.deepEqual({ dev: await replicas.reconciles('dev'), prod: await replicas.reconciles('prod') }, settled, 'a staging cluster wakes neither');
  });

  it('writes no status that wakes a replica again: a quiet period costs no reconcile', async () => {
    // prod and dev have no requeue interval: with nothing changing, neither replica may run them.
    await sleep(1_000);
    const before = (await replicas.reconciles('dev')) + (await replicas.reconciles('prod'));
    await sleep(4_000);
    assert.equal((await replicas.reconciles('dev')) + (await replicas.reconciles('prod')), before);
  });

  it('answers the polls of an unchanged ApplicationSet from memory: no Application write, no status write, no Event', async () => {
    // "synced" polls Git every second; its commit, template and Applications no longer change.
    await waitFor(async () => (await objects.liveNames('synced-')) === 'synced-a,synced-b', { what: 'synced to settle', timeoutMs: 60_000 });
    const snapshot = async () => ({
      appsetVersion: (await objects.appset('synced')).metadata.resourceVersion,
      apps: [...(await objects.apps('synced-')).values()].map((app) => `${app.metadata.name}@${app.metadata.resourceVersion}`).join(','),
      events: (await objects.events('synced')).length,
    });
    await sleep(2_000); // past the reconcile that saw the last write
    const before = { ...(await snapshot()), unchanged: await replicas.sample('appset_reconciles_unchanged_total'), runs: await replicas.reconciles('synced') };
    await waitFor(async () => (await replicas.reconciles('synced')) >= before.runs + 3, { what: 'three more polls of synced', timeoutMs: 30_000 });
    const { unchanged, runs, ...quiet } = before;
    assert.deepEqual(await snapshot(), quiet, 'nothing was written');
    assert.ok((await replicas.sample('appset_reconciles_unchanged_total')) >= unchanged + 3, 'the polls stopped after generating');
    assert.ok(runs > 0);
  });

  it('with preserveResourcesOnDeletion, leaves the resources finalizer off, so the garbage collector removes the Applications and Argo CD keeps what they deployed', async () => {
    const list = (prefix: string, syncPolicy?: Record<string, unknown>) => ({
      generators: [{ list: { elements: [{ n: '1' }, { n: '2' }] } }],
      template: {
        metadata: { name: `${prefix}-{{n}}` },
        spec: { project: 'default', source: { repoURL: 'https://git.example/apps.git', path: 'apps' }, destination },
      },
      ...(syncPolicy ? { syncPolicy } : {}),
    });
    await objects.createAppSet('preserve', list('preserve', { preserveResourcesOnDeletion: true }));
    await objects.createAppSet('orphan', list('orphan'));
    await waitFor(
      async () => (await objects.liveNames('preserve-')) === 'preserve-1,preserve-2' && (await objects.liveNames('orphan-')) === 'orphan-1,orphan-2',
      { what: 'the Applications', timeoutMs: 30_000 },
    );
    for (const app of (await objects.apps('preserve-')).values())
      assert.equal(app.metadata.finalizers, undefined, `${app.metadata.name} has no resources finalizer`);
    for (const app of (await objects.apps('orphan-')).values()) assert.deepEqual(app.metadata.finalizers, [RESOURCES_FINALIZER]);

    // Argo CD semantics: the ApplicationSet's deletion removes its Applications either way (garbage
    // collection through the owner reference); without the finalizer Argo CD leaves their resources.
    // Nobody removes a finalizer here, so the Applications can only go because they carry none.
    await objects.custom.deleteNamespacedCustomObject({ ...objects.G, plural: 'applicationsets', name: 'preserve', propagationPolicy: 'Background' });
    await waitFor(async () => (await objects.apps('preserve-')).size === 0, {
      what: 'the garbage collector to remove the preserved Applications',
      timeoutMs: 60_000,
      intervalMs: 500,
    });

    // Keeping the Applications themselves is an orphaning delete (kubectl delete --cascade=orphan).
    await objects.custom.deleteNamespacedCustomObject({ ...objects.G, plural: 'applicationsets', name: 'orphan', propagationPolicy: 'Orphan' });
    await waitFor(async () => [...(await objects.apps('orphan-')).values()].every((app) => !app.metadata.ownerReferences?.length), {
      what: 'the owner references to be removed',
      timeoutMs: 60_000,
      intervalMs: 500,
    });
    await sleep(1_000);
    const kept = await objects.apps('orphan-');
    assert.deepEqual([...kept.keys()].sort(), ['orphan-1', 'orphan-2']);
    for (const app of kept.values()) assert.equal(app.metadata.deletionTimestamp, undefined);
  });

  it('exposes generator, Git, queue and error metrics of the reconciles that ran', async () => {
    assert.ok((await replicas.sample('appset_generator_duration_seconds_count', 'generator="git"')) > 0, 'git generator durations');
    assert.ok((await replicas.sample('appset_generator_duration_seconds_count', 'generator="clusters"')) > 0, 'clusters generator durations');
    assert.ok((await replicas.sample('appset_generator_duration_seconds_count', 'generator="list"')) > 0, 'list generator durations');
    assert.ok((await replicas.sample('appset_git_duration_seconds_count', 'operation="resolveRevision"')) > 0, 'Git revision resolutions');
    assert.ok((await replicas.sample('appset_git_duration_seconds_count', 'operation="listDirectories"')) > 0, 'Git tree listings');
    assert.ok((await replicas.sample('appset_queue_add_to_start_seconds_count')) > 0, 'queue add-to-start latency');
    assert.ok((await replicas.sample('appset_cache_wait_seconds_count')) > 0, 'cache waits');
    assert.ok((await replicas.sample('appset_reconcile_errors_total', 'reason="DeleteApplicationError"')) > 0, 'errors by reason');
    assert.ok((await replicas.sample('argocd_appset_reconcile_count')) > 0);
    assert.ok((await replicas.sample('appset_queue_adds_total')) > 0);
    assert.ok((await replicas.sample('appset_application_writes_total', 'operation="create"')) > 0, 'Application creates');
    assert.ok((await replicas.sample('appset_application_writes_total', 'operation="delete"')) > 0, 'Application deletes');
  });
});
