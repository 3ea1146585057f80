import assert from 'node:assert/strict';
import { KubeApiError } from '../../src/kube/transport/api-errors.js';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { OWNER_UID_INDEX, ownerUidsOf } from '../../src/controller/routing/caches.js';
import { Reason } from '../../src/controller/status/conditions.js';
import { ReconcileFailure } from '../../src/controller/reconcile/failure.js';
import { createReconciler, type ReconcilerDeps } from '../../src/controller/reconcile/reconciler.js';
import { reportFailure } from '../../src/controller/status/report.js';
import { createReconcileHandler, type ReconcileResult } from '../../src/controller/reconcile/runner.js';
import type { ApplicationSetStatus } from '../../src/controller/status/status-writer.js';
import { createGeneratorRegistry } from '../../src/generators/registry.js';
import type { GitReader } from '../../src/git/git-reader.js';
import type { KubeObject } from '../../src/kube/informer/index.js';
import { Store } from '../../src/kube/informer/store.js';
import type { Application } from '../../src/model/objects.js';
import { noScmAccess } from '../../src/scm/no-access.js';
import { TemplateEngine } from '../../src/templating/engine.js';
import type { V1Secret } from '@kubernetes/client-node';
import type { AppProjectSpec } from '../../src/tenancy/project.js';
import { VALIDATION_RETRY_MS } from '../../src/controller/reconcile/validate-applications.js';

/** Records `item` and resolves: a writer that remembers what it was asked to write. */
function pushed<T>(list: T[], item: T): Promise<void> {
  list.push(item);
  return Promise.resolve();
}

const noGit: GitReader = {
  resolveRevision: () => Promise.reject(new Error('no Git here')),
  listDirectories: () => Promise.reject(new Error('no Git here')),
  listFiles: () => Promise.reject(new Error('no Git here')),
  readFile: () => Promise.reject(new Error('no Git here')),
};

/** An ApplicationSet of the controller's namespace (`argocd`) or a tenant's, with a list generator. */
function appset(namespace: string, elements: unknown[], project = 'default'): KubeObject {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name: 'guestbook', namespace, uid: `uid-${namespace}`, resourceVersion: '7' },
    spec: {
      generators: [{ list: { elements } }],
      template: {
        metadata: { name: 'guestbook-{{env}}' },
        spec: {
          project,
          source: { repoURL: 'https://git.example/apps.git', path: 'guestbook' },
          destination: { server: 'https://kubernetes.default.svc', namespace: 'guestbook-{{env}}' },
        },
      },
    },
  };
}

/** What the harness's cluster holds besides the ApplicationSets: AppProjects (Argo CD's `default` unless given), cluster Secrets, Applications. */
interface World {
  readonly projects?: Readonly<Record<string, AppProjectSpec>>;
  readonly clusterSecrets?: V1Secret[];
  readonly applications?: KubeObject[];
  /** `--enable-progressive-syncs`. */
  readonly progressiveSyncs?: boolean;
  /** Replaces the recording status writer (e.g. to answer 409). */
  readonly statusWrite?: (status: ApplicationSetStatus) => Promise<string | undefined>;
}

/** A reconciler over real stores, the real generators and renderer, and recording writers. */
function harness(objects: KubeObject[], world: World = {}) {
  const applicationSets = new Store<KubeObject>();
  for (const object of objects) applicationSets.upsert(object);
  const applications = new Store<KubeObject>({ [OWNER_UID_INDEX]: ownerUidsOf });
  for (const app of world.applications ?? []) applications.upsert(app);
  const projects = world.projects ?? { default: {} };
  const applied: Application[] = [];
  const deleted: string[] = [];
  const statuses: ApplicationSetStatus[] = [];
  const events: Array<{ type: string; reason: string; message: string }> = [];
  const reporter = {
    status: {
      write: (_target: unknown, status: ApplicationSetStatus) =>
        world.statusWrite ? world.statusWrite(status) : pushed(statuses, status).then(() => undefined),
    },
    events: { record: (_subject: unknown, event: { type: string; reason: string; message: string }) => pushed(events, event) },
    now: () => new Date('2026-12-01T00:00:00Z'),
    maxResourcesStatus: 5000,
  };
  const deps: ReconcilerDeps = {
    applicationSets,
    applications,
    registry: createGeneratorRegistry(),
    git: noGit,
    tenantGit: () => noGit,
    scm: noScmAccess('no SCM provider in this test'),
    tenantScm: () => noScmAccess('no SCM provider in this test'),
    engine: new TemplateEngine(),
    clusterSecrets: () => world.clusterSecrets ?? [],
    writer: {
      apply: (app) => pushed(applied, app),
      delete: (app) => pushed(deleted, app.metadata.name),
      startOperation: () => Promise.reject(new Error('no rollout in these tests')),
    },
    refresh: { clear: () => Promise.resolve() },
    reporter,
    settings: { policy: 'sync', enablePolicyOverride: true, maxDeleteShare: 0.5, progressiveSyncs: world.progressiveSyncs ?? false },
    controllerNamespace: 'argocd',
    projects: (name) => (Object.hasOwn(projects, name) ? projects[name] : undefined),
  };
  return { reconcile: createReconciler(deps), reporter, applied, deleted, statuses, events };
}

/** An Argo CD cluster Secret named `name` for `server`. */
function clusterSecret(name: string, server: string): V1Secret {
  return { metadata: { name, namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': 'cluster' } }, stringData: { name, server } };
}

const ctx = { signal: new AbortController().signal, log: pino({ level: 'silent' }), reconcileId: 'test' };

describe('reconciler (unit: real stores, generators and renderer; recording writers)', () => {
  it('applies one Application per parameter set and reports success', async () => {
    const h = harness([appset('argocd', [{ env: 'dev' }, { env: 'prod' }])]);
    assert.deepEqual(await h.reconcile('argocd/guestbook', ctx), { kind: 'awaitChange' });
    assert.deepEqual(h.applied.map((app) => app.metadata.name).sort(), ['guestbook-dev', 'guestbook-prod']);
    assert.equal(h.statuses.at(-1)?.conditions?.find((c) => c.type === 'ResourcesUpToDate')?.status, 'True');
  });

  it('throws one ReconcileFailure for a render error: retryable, its condition reason, parameters generated, nothing written', async () => {
    const h = harness([appset('argocd', [{ cluster: 'dev' }])]); // the template names {{env}}, which no element has
    const failure = await h.reconcile('argocd/guestbook', ctx).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(failure instanceof ReconcileFailure, String(failure));
    assert.equal(failure.reason, Reason.RenderTemplateParamsError);
    assert.equal(failure.terminal, false);
    assert.equal(failure.parametersGenerated, true);
    assert.equal(failure.appset?.metadata.name, 'guestbook');
    assert.deepEqual(h.applied, []);
    assert.deepEqual(h.statuses, [], 'the reconciler reports nothing itself: the runner does');
  });

  it('throws a terminal ReconcileFailure for a tenancy violation, before any generator runs', async () => {
    const h = harness([appset('team-a', [{ env: 'dev' }], 'team-a')]);
    const failure = await h.reconcile('team-a/guestbook', ctx).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(failure instanceof ReconcileFailure);
    assert.equal(failure.terminal, true);
    assert.equal(failure.reason, Reason.ValidationError);
    assert.equal(failure.parametersGenerated, false);
    assert.match(failure.message, /AppProject team-a does not exist/);
    assert.deepEqual(h.applied, []);
  });

  it('refuses the whole set, terminally, when one generated Application names an unknown cluster: nothing applied or deleted', async () => {
    const set = appset('argocd', [{ env: 'dev' }, { env: 'prod' }, { env: 'qa' }]) as KubeObject & { spec: { template: { spec: { destination: unknown } } } };
    set.spec.template.spec.destination = { server: 'https://{{env}}.example.com', namespace: 'guestbook' };
    const owned = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: {
        name: 'guestbook-old',
        namespace: 'argocd',
        uid: 'uid-old',
        resourceVersion: '3',
        ownerReferences: [{ apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', name: 'guestbook', uid: 'uid-argocd', controller: true }],
      },
      spec: { project: 'default', destination: { server: 'https://kubernetes.default.svc', namespace: 'old' } },
    } as KubeObject;
    const secrets = ['dev', 'prod'].map((env) => clusterSecret(env, `https://${env}.example.com`));
    const h = harness([set], { clusterSecrets: secrets, applications: [owned] });
    const failure = await h.reconcile('argocd/guestbook', ctx).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(failure instanceof ReconcileFailure, String(failure));
    assert.equal(failure.reason, Reason.ValidationError);
    assert.equal(failure.terminal, true);
    assert.equal(failure.parametersGenerated, true);
    assert.equal(failure.requeueAfterMs, VALIDATION_RETRY_MS, 'looked at again as Argo CD does, even if no event comes');
    assert.match(
      failure.message,
      /^1 of 3 generated Applications is invalid; .*Application guestbook-qa: application destination spec is invalid: error getting cluster by server "https:\/\/qa\.example\.com": rpc error: code = NotFound desc = cluster "https:\/\/qa\.example\.com" not found$/,
    );
    assert.deepEqual(h.applied, []);
    assert.deepEqual(h.deleted, [], 'the owned Application that is no longer generated stays');

    const fixed = harness([set], { clusterSecrets: [...secrets, clusterSecret('qa', 'https://qa.example.com')], applications: [owned] });
    assert.deepEqual(await fixed.reconcile('argocd/guestbook', ctx), { kind: 'awaitChange' });
    assert.deepEqual(fixed.applied.map((app) => app.metadata.name).sort(), ['guestbook-dev', 'guestbook-prod', 'guestbook-qa']);
  });

  it("refuses a platform ApplicationSet whose AppProject does not exist, in Argo CD's words", async () => {
    const h = harness([appset('argocd', [{ env: 'dev' }], 'platform')]);
    const failure = await h.reconcile('argocd/guestbook', ctx).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(failure instanceof ReconcileFailure);
    assert.equal(failure.reason, Reason.ValidationError);
    assert.match(failure.message, /Application guestbook-dev: application references project platform which does not exist$/);
    assert.deepEqual(h.applied, []);
    const withProject = harness([appset('argocd', [{ env: 'dev' }], 'platform')], { projects: { platform: {} } });
    assert.deepEqual(await withProject.reconcile('argocd/guestbook', ctx), { kind: 'awaitChange' });
  });

  it("checks a tenant's destinations against every cluster Secret, after its project's rules", async () => {
    const project = {
      sourceNamespaces: ['team-a'],
      sourceRepos: ['*'],
      destinations: [
        { name: '*', namespace: '*' },
        { server: '*', namespace: '*' },
      ],
    };
    const set = appset('team-a', [{ env: 'dev' }], 'team-a') as KubeObject & { spec: { template: { spec: { destination: unknown } } } };
    set.spec.template.spec.destination = { name: 'staging', namespace: 'guestbook' };
    const h = harness([set], { projects: { 'team-a': project } });
    const failure = await h.reconcile('team-a/guestbook', ctx).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(failure instanceof ReconcileFailure);
    assert.equal(failure.reason, Reason.ValidationError);
    assert.match(failure.message, /there are no clusters with this name: staging$/);
    const known = harness([set], { projects: { 'team-a': project }, clusterSecrets: [clusterSecret('staging', 'https://staging.example.com')] });
    assert.deepEqual(await known.reconcile('team-a/guestbook', ctx), { kind: 'awaitChange' });
  });

  it('waits for a change when the ApplicationSet is gone from the cache', async () => {
    assert.deepEqual(await harness([]).reconcile('argocd/missing', ctx), { kind: 'awaitChange' });
  });
});

describe('the one failure path (runner): condition, Event, one log line, metric, retry', () => {
  async function runOnce(objects: KubeObject[], key: string) {
    const h = harness(objects);
    const lines: Array<Record<string, unknown>> = [];
    const log = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const observed: Array<[ReconcileResult, string | undefined]> = [];
    const requeued: number[] = [];
    const handler = createReconcileHandler({
      queue: { addAfter: (_key, ms) => pushed(requeued, ms) },
      reconcile: h.reconcile,
      report: (_key, failure, c) => reportFailure(h.reporter, failure, c.log),
      log,
      observe: (_key, _seconds, result, reason) => observed.push([result, reason]),
    });
    const thrown = await handler(key, new AbortController().signal).then(
      () => undefined,
      (error: unknown) => error,
    );
    return { ...h, lines, observed, requeued, thrown };
  }

  it('a retryable failure: ErrorOccurred condition and Warning Event with its reason, one error line, the metric, rethrown for backoff', async () => {
    const run = await runOnce([appset('argocd', [{ cluster: 'dev' }])], 'argocd/guestbook');
    assert.ok(run.thrown instanceof ReconcileFailure, 'rethrown so the queue backs off');
    const errorOccurred = run.statuses.at(-1)?.conditions?.find((c) => c.type === 'ErrorOccurred');
    assert.equal(errorOccurred?.status, 'True');
    assert.equal(errorOccurred?.reason, Reason.RenderTemplateParamsError);
    assert.deepEqual(
      run.events.map((e) => [e.type, e.reason]),
      [['Warning', Reason.RenderTemplateParamsError]],
    );
    assert.deepEqual(run.observed, [['error', Reason.RenderTemplateParamsError]]);
    assert.equal(run.lines.filter((l) => (l.level as number) >= 40).length, 1, 'one log line');
    assert.deepEqual(run.requeued, []);
  });

  it('a terminal failure: reported, one warning without a stack, the metric, not rethrown', async () => {
    const run = await runOnce([appset('team-a', [{ env: 'dev' }], 'team-a')], 'team-a/guestbook');
    assert.equal(run.thrown, undefined, 'a terminal failure is not retried');
    assert.equal(run.statuses.at(-1)?.conditions?.find((c) => c.type === 'ErrorOccurred')?.reason, Reason.ValidationError);
    assert.deepEqual(
      run.events.map((e) => e.reason),
      [Reason.ValidationError],
    );
    assert.deepEqual(run.observed, [['terminal', Reason.ValidationError]]);
    const warnings = run.lines.filter((l) => (l.level as number) >= 40);
    assert.equal(warnings.length, 1);
    assert.match(String(warnings[0]?.reason), /AppProject team-a does not exist/);
    assert.doesNotMatch(JSON.stringify(warnings[0]), /stack/);
  });
});

describe('reconciler with progressive syncs (unit)', () => {
  const rolling = (): KubeObject => {
    const base = appset('argocd', [{ env: 'dev' }, { env: 'prod' }]) as { spec: Record<string, unknown> } & KubeObject;
    const template = base.spec.template as { metadata: Record<string, unknown>; spec: Record<string, unknown> };
    template.metadata.labels = { env: '{{env}}' };
    template.spec.syncPolicy = { automated: { prune: true } };
    base.spec.strategy = { type: 'RollingSync', rollingSync: { steps: [{ matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }] }] } };
    return base;
  };
  const live = (name: string): KubeObject => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: {
      name,
      namespace: 'argocd',
      uid: `uid-${name}`,
      resourceVersion: '3',
      ownerReferences: [{ apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', name: 'guestbook', uid: 'uid-argocd', controller: true }],
    },
    spec: {},
    status: { sync: { status: 'OutOfSync', revision: 'r1' }, health: { status: 'Missing' } },
  });

  it('writes the Applications without automated sync and reports RolloutProgressing', async () => {
    const h = harness([rolling()], { progressiveSyncs: true });
    assert.deepEqual(await h.reconcile('argocd/guestbook', ctx), { kind: 'awaitChange' });
    for (const app of h.applied) assert.equal((app.spec.syncPolicy as { automated?: unknown } | undefined)?.automated, undefined, app.metadata.name);
    assert.equal(h.statuses.at(-1)?.conditions?.find((c) => c.type === 'RolloutProgressing')?.message, 'ApplicationSet Rollout has completed');
  });

  it('without the switch the strategy is not read: a malformed one is not refused (Argo CD ignores it too)', async () => {
    const set = rolling() as { spec: { strategy: Record<string, unknown> } } & KubeObject;
    set.spec.strategy = { type: 'RollingSync', deletionOrder: 'Reverse', rollingSync: { steps: [{ matchExpressions: [{ key: 'env', operator: 'Exists' }] }] } };
    assert.deepEqual(await harness([set]).reconcile('argocd/guestbook', ctx), { kind: 'awaitChange' });
    await assert.rejects(harness([set], { progressiveSyncs: true }).reconcile('argocd/guestbook', ctx), /deletionOrder: Reverse is not supported/);
  });

  it('without the switch, a RollingSync set keeps automated sync, as Argo CD', async () => {
    const h = harness([rolling()]);
    await h.reconcile('argocd/guestbook', ctx);
    assert.ok(h.applied.every((app) => (app.spec.syncPolicy as { automated?: unknown }).automated !== undefined));
  });

  it('a rollout status write that meets a newer ApplicationSet writes nothing else and looks again shortly', async () => {
    const conflict = () => Promise.reject(new KubeApiError(409, undefined, 'HTTP 409 Conflict'));
    const h = harness([rolling()], { progressiveSyncs: true, applications: [live('guestbook-dev'), live('guestbook-prod')], statusWrite: conflict });
    assert.deepEqual(await h.reconcile('argocd/guestbook', ctx), { kind: 'requeue', afterMs: 1_000 });
    assert.deepEqual(h.applied, [], 'no Application written on a stale rollout decision');
    assert.deepEqual(h.events, []);
  });
});
