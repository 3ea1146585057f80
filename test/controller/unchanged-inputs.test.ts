import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import type { V1Secret } from '@kubernetes/client-node';
import { OWNER_UID_INDEX, ownerUidsOf } from '../../src/controller/routing/caches.js';
import { createReconciler, type ReconcilerDeps } from '../../src/controller/reconcile/reconciler.js';
import { UnchangedInputsMemo } from '../../src/controller/reconcile/unchanged-inputs.js';
import { createLocalFingerprints } from '../../src/controller/consistency/input-fingerprints.js';
import { siftResyncKeys } from '../../src/controller/reconcile/resync-sieve.js';
import { resolveOncePerPass } from '../../src/controller/reconcile/pass-git.js';
import type { ApplicationSetStatus } from '../../src/controller/status/status-writer.js';
import { createGeneratorRegistry } from '../../src/generators/registry.js';
import type { KubeObject } from '../../src/kube/informer/index.js';
import { Store } from '../../src/kube/informer/store.js';
import type { Application } from '../../src/model/objects.js';
import { noScmAccess } from '../../src/scm/no-access.js';
import { TemplateEngine } from '../../src/templating/engine.js';
import { noGit } from '../generators/test-context.js';
import type { GitReader } from '../../src/git/git-reader.js';

/** A Git reader over one repository whose branch points at `head.commit`; each commit lists its own folders. */
function fakeGit(trees: Record<string, string[]>, head: { commit: string }): GitReader {
  return {
    resolveRevision: () => Promise.resolve(head.commit),
    listDirectories: (_url, commit) => Promise.resolve(trees[commit] ?? []),
    listFiles: () => Promise.resolve([]),
    readFile: () => Promise.reject(new Error('no files here')),
  };
}

const ctx = { signal: new AbortController().signal, log: pino({ level: 'silent' }), reconcileId: 'test' };

/** An Argo CD cluster Secret named `name` for `server`. */
function clusterSecret(name: string, server: string, resourceVersion: string): V1Secret {
  return { metadata: { name, namespace: 'argocd', resourceVersion, labels: { 'argocd.argoproj.io/secret-type': 'cluster' } }, stringData: { name, server } };
}

/** A platform ApplicationSet with one generator; its Applications' destination is the cluster named `prod`. */
function appset(generator: unknown, resourceVersion: string, nameTemplate = 'app-{{name}}'): KubeObject {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name: 'set', namespace: 'argocd', uid: 'uid-set', resourceVersion },
    spec: {
      generators: [generator],
      template: {
        metadata: { name: nameTemplate },
        spec: { project: 'default', source: { repoURL: 'https://git.example/apps.git', path: 'apps' }, destination: { name: 'prod', namespace: 'x' } },
      },
    },
  };
}

/**
 * A reconciler with the memo over real stores, generators and renderer, whose writer behaves like the API
 * server: an apply that changes an Application gives it a new resourceVersion in the store, one that
 * changes nothing does not (server-side apply).
 */
function harness(initial: KubeObject, secrets: V1Secret[], git: GitReader = noGit) {
  const applicationSets = new Store<KubeObject>();
  applicationSets.upsert(initial);
  const applications = new Store<KubeObject>({ [OWNER_UID_INDEX]: ownerUidsOf });
  let version = 100;
  const applied: string[] = [];
  const deleted: string[] = [];
  const statuses: ApplicationSetStatus[] = [];
  const events: string[] = [];
  const fingerprints = createLocalFingerprints();
  const memo = new UnchangedInputsMemo(undefined, fingerprints);
  const world = { secrets };
  const deps: ReconcilerDeps = {
    applicationSets,
    applications,
    registry: createGeneratorRegistry(),
    git,
    tenantGit: () => git,
    scm: noScmAccess('none'),
    tenantScm: () => noScmAccess('none'),
    engine: new TemplateEngine(),
    clusterSecrets: () => world.secrets,
    writer: {
      apply: (app) => {
        applied.push(app.metadata.name);
        const live = applications.getByName(app.metadata.namespace, app.metadata.name) as unknown as Application | undefined;
        const same =
          live &&
          JSON.stringify({ ...live, metadata: { ...live.metadata, resourceVersion: '' } }) ===
            JSON.stringify({ ...app, metadata: { ...app.metadata, resourceVersion: '' } });
        if (!same)
          applications.upsert({
            ...app,
            metadata: { ...app.metadata, uid: `uid-${app.metadata.name}`, resourceVersion: String(version++) },
          });
        return Promise.resolve();
      },
      delete: (app) => Promise.resolve(void deleted.push(app.metadata.name)),
      startOperation: () => Promise.reject(new Error('no rollout here')),
    },
    refresh: { clear: () => Promise.resolve() },
    reporter: {
      status: { write: (_t: unknown, status: ApplicationSetStatus) => Promise.resolve(void statuses.push(status)) },
      events: { record: (_s: unknown, event: { reason: string }) => Promise.resolve(void events.push(event.reason)) },
      now: () => new Date('2026-12-01T00:00:00Z'),
      maxResourcesStatus: 5000,
    },
    settings: { policy: 'sync', enablePolicyOverride: true, maxDeleteShare: 1 },
    controllerNamespace: 'argocd',
    projects: (name) => (name === 'default' ? {} : undefined),
    unchangedInputs: memo,
    cacheVersions: () => 'projects-v1',
  };
  const reconcile = createReconciler(deps);
  return {
    memo,
    applied,
    deleted,
    statuses,
    events,
    applications,
    world,
    setAppSet: (object: KubeObject) => applicationSets.upsert(object),
    reconcile: () => reconcile('argocd/set', ctx),
    fingerprints,
    /** The resync's look at `keys`, from the shared fingerprints only (as on a replica that never ran the key). */
    sift: (keys = ['argocd/set']) => siftResyncKeys(deps, fingerprints, keys, ctx.log, ctx.signal),
    /** Reconciles until a reconcile is answered from memory (at most 3 runs); the number of runs. */
    async settle(): Promise<number> {
      for (let run = 1; run <= 3; run++) {
        const before = memo.stats.unchanged;
        await reconcile('argocd/set', ctx);
        if (memo.stats.unchanged > before) return run;
      }
      throw new Error('never settled');
    },
  };
}

const list = (...names: string[]) => ({ list: { elements: names.map((name) => ({ name })) } });
const prod = (rv = '1') => clusterSecret('prod', 'https://prod.example', rv);

describe('unchanged reconcile inputs (memo of the last successful reconcile)', () => {
  it('a reconcile with nothing changed writes nothing, records no Event and writes no status', async () => {
    const h = harness(appset(list('a', 'b'), '1'), [prod()]);
    await h.settle();
    const counts = () => [h.applied.length, h.statuses.length, h.events.length];
    const before = counts();
    for (let i = 0; i < 5; i++) await h.reconcile();
    assert.deepEqual(counts(), before);
    assert.ok(h.memo.stats.unchanged >= 6);
  });

  it('a changed template is never answered from memory', async () => {
    const h = harness(appset(list('a'), '1'), [prod()]);
    await h.settle();
    h.setAppSet(appset(list('a'), '2', 'renamed-{{name}}'));
    await h.reconcile();
    assert.ok(h.applications.getByName('argocd', 'renamed-a'), 'the new template was rendered');
  });

  it('a changed cluster Secret is never answered from memory', async () => {
    const h = harness(appset(list('a'), '1'), [prod()]);
    await h.settle();
    // The cluster the Applications deploy to is renamed: the same parameters now fail validation.
    h.world.secrets = [clusterSecret('staging', 'https://prod.example', '2')];
    await assert.rejects(h.reconcile(), /prod/);
  });

  it('a changed generator output (same ApplicationSet resourceVersion) is never answered from memory', async () => {
    const h = harness(appset({ clusters: {} }, '1'), [prod()]);
    await h.settle();
    h.world.secrets = [prod(), clusterSecret('extra', 'https://extra.example', '3')];
    await h.reconcile();
    assert.ok(h.applications.getByName('argocd', 'app-extra'), 'an Application for the new cluster');
  });

  it('a changed commit (nothing else changed) is never answered from memory', async () => {
    const head = { commit: 'a'.repeat(40) };
    const git = fakeGit({ ['a'.repeat(40)]: ['apps', 'apps/one'], ['b'.repeat(40)]: ['apps', 'apps/one', 'apps/two'] }, head);
    const generator = { git: { repoURL: 'https://git.example/apps.git', directories: [{ path: 'apps/*' }] } };
    const h = harness(appset(generator, '1', 'app-{{path.basename}}'), [prod()], git);
    await h.settle();
    head.commit = 'b'.repeat(40);
    await h.reconcile();
    assert.ok(h.applications.getByName('argocd', 'app-two'), "the new commit's folder has its Application");
  });

  it('an Application someone puts under the ApplicationSet is never answered from memory: it is pruned', async () => {
    const h = harness(appset(list('a'), '1'), [prod()]);
    await h.settle();
    const live = h.applications.getByName('argocd', 'app-a') as unknown as Application;
    h.applications.upsert({ ...live, metadata: { ...live.metadata, name: 'stray', uid: 'uid-stray', resourceVersion: '998' } });
    await h.reconcile();
    assert.deepEqual(h.deleted, ['stray']);
  });

  it('an owned Application changed by someone else is never answered from memory: it is put back', async () => {
    const h = harness(appset(list('a'), '1'), [prod()]);
    await h.settle();
    const live = h.applications.getByName('argocd', 'app-a') as unknown as Application;
    h.applications.upsert({
      ...live,
      spec: { ...live.spec, project: 'hijacked' },
      metadata: { ...live.metadata, resourceVersion: '999' },
    });
    const applies = h.applied.length;
    await h.reconcile();
    assert.equal(h.applied.length, applies + 1, 'the edited Application was applied again');
  });

  it('a failed reconcile is forgotten: the next one runs in full', async () => {
    const h = harness(appset(list('a'), '1'), [prod()]);
    await h.settle();
    h.world.secrets = [];
    await assert.rejects(h.reconcile());
    h.world.secrets = [prod()];
    const changed = h.memo.stats.changed;
    await h.reconcile();
    assert.equal(h.memo.stats.changed, changed + 1);
  });
});

describe("the full resync's sieve: only keys whose inputs changed go to the queue", () => {
  it('leaves out a key whose inputs are those of its last successful reconcile, on any replica', async () => {
    const h = harness(appset(list('a', 'b'), '1'), [prod()]);
    await h.settle();
    assert.deepEqual(await h.sift(), { toReconcile: [], unchanged: 1 });
    // A replica that never reconciled the key reads the same shared entry: a fresh memo changes nothing here.
    assert.equal((await h.fingerprints.readAll()).size, 1);
  });

  it('sends a key with a changed commit to the queue', async () => {
    const head = { commit: 'a'.repeat(40) };
    const git = fakeGit({ ['a'.repeat(40)]: ['apps', 'apps/one'], ['b'.repeat(40)]: ['apps', 'apps/one', 'apps/two'] }, head);
    const generator = { git: { repoURL: 'https://git.example/apps.git', directories: [{ path: 'apps/*' }] } };
    const h = harness(appset(generator, '1', 'app-{{path.basename}}'), [prod()], git);
    await h.settle();
    assert.deepEqual((await h.sift()).toReconcile, []);
    head.commit = 'b'.repeat(40);
    assert.deepEqual((await h.sift()).toReconcile, ['argocd/set']);
  });

  it('sends a key with a changed cluster Secret, a changed ApplicationSet or an edited Application to the queue', async () => {
    const h = harness(appset(list('a'), '1'), [prod()]);
    await h.settle();
    h.world.secrets = [prod('2')];
    assert.deepEqual((await h.sift()).toReconcile, ['argocd/set'], 'cluster Secret');
    await h.settle();
    h.setAppSet(appset(list('a'), '2'));
    assert.deepEqual((await h.sift()).toReconcile, ['argocd/set'], 'ApplicationSet');
    await h.settle();
    const live = h.applications.getByName('argocd', 'app-a') as unknown as Application;
    h.applications.upsert({ ...live, metadata: { ...live.metadata, resourceVersion: '999' } });
    assert.deepEqual((await h.sift()).toReconcile, ['argocd/set'], 'Application');
  });

  it('sends a key nobody reconciled, or whose generators fail, to the queue', async () => {
    const head = { commit: 'a'.repeat(40) };
    const git = fakeGit({ ['a'.repeat(40)]: ['apps', 'apps/one'] }, head);
    const generator = { git: { repoURL: 'https://git.example/apps.git', directories: [{ path: 'apps/*' }] } };
    const h = harness(appset(generator, '1', 'app-{{path.basename}}'), [prod()], git);
    assert.deepEqual((await h.sift()).toReconcile, ['argocd/set'], 'never reconciled');
    await h.settle();
    git.resolveRevision = () => Promise.reject(new Error('the Git server is down'));
    assert.deepEqual((await h.sift()).toReconcile, ['argocd/set'], 'generators fail');
  });

  it('a failed reconcile removes the shared entry, and entries of deleted ApplicationSets are dropped', async () => {
    const h = harness(appset(list('a'), '1'), [prod()]);
    await h.settle();
    h.world.secrets = [];
    await assert.rejects(h.reconcile());
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal((await h.fingerprints.readAll()).size, 0, 'removed on failure');
    h.world.secrets = [prod()];
    await h.settle();
    await h.fingerprints.write('argocd/gone/uid-gone', { fingerprint: 'x', desiredNames: [] });
    await h.sift();
    assert.deepEqual([...(await h.fingerprints.readAll()).keys()], ['argocd/set/uid-set']);
  });
});

describe('resolveOncePerPass', () => {
  it('asks the reader once per repository, revision and refs age, and passes the rest through', async () => {
    const asked: string[] = [];
    const git: GitReader = {
      resolveRevision: (url, revision, _signal, options) => {
        asked.push(`${url}@${revision}/${options?.maxRefsAgeMs ?? '-'}`);
        return Promise.resolve(`sha-of-${revision}`);
      },
      listDirectories: () => Promise.resolve(['apps']),
      listFiles: () => Promise.resolve([]),
      readFile: () => Promise.resolve(Buffer.from('x')),
    };
    const pass = resolveOncePerPass(git);
    const { signal } = new AbortController();
    const answers = await Promise.all([
      pass.resolveRevision('https://a', 'main', signal),
      pass.resolveRevision('https://a', 'main', signal),
      pass.resolveRevision('https://a', 'dev', signal),
      pass.resolveRevision('https://b', 'main', signal),
      pass.resolveRevision('https://a', 'main', signal, { maxRefsAgeMs: 0 }),
    ]);
    assert.deepEqual(answers, ['sha-of-main', 'sha-of-main', 'sha-of-dev', 'sha-of-main', 'sha-of-main']);
    assert.deepEqual(asked, ['https://a@main/-', 'https://a@dev/-', 'https://b@main/-', 'https://a@main/0']);
    assert.deepEqual(await pass.listDirectories('https://a', 'sha', signal), ['apps']);
  });
});
