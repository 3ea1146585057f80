import type { Logger } from 'pino';
import type { ControllerConfig } from '../config/controller-config.js';
import { withFreshCaches } from '../controller/consistency/cache-freshness.js';
import type { ControllerInformers } from '../controller/routing/caches.js';
import { WRITES_PER_RECONCILE } from '../controller/write/execute-plan.js';
import { createReconciler } from '../controller/reconcile/reconciler.js';
import { reportFailure, type Reporter } from '../controller/status/report.js';
import { createReconcileHandler, type ReconcileFunction } from '../controller/reconcile/runner.js';
import { timedGitReader } from '../controller/reconcile/timed-git.js';
import type { Cause } from '../controller/consistency/watermarks.js';
import { WritePool } from '../controller/write/write-pool.js';
import { createApplicationWriter } from '../controller/write/application-writer.js';
import { createEventRecorder, createLoggingEventRecorder } from '../controller/status/event-recorder.js';
import { createRefreshClearer } from '../controller/write/refresh-annotation.js';
import { createStatusWriter, type StatusWriter } from '../controller/status/status-writer.js';
import { createGeneratorRegistry } from '../generators/registry.js';
import type { KubeTransport } from '../kube/transport/transport.js';
import { RepoCache } from '../git/repo-cache.js';
import { knownHostsFromConfigMaps } from '../git/ssh-transport.js';
import type { WorkHandler } from '../queue/work-queue.js';
import { tenantRepoAccess } from '../tenancy/credential-scope.js';
import type { AppProjectSpec } from '../tenancy/project.js';
import type { ProjectLookup } from '../tenancy/tenant-policy.js';
import { TemplateEngine } from '../templating/engine.js';
import { RenderMemo } from '../templating/render-memo.js';
import { secretsOfType, versionOf } from './caches.js';
import { UnchangedInputsMemo } from '../controller/reconcile/unchanged-inputs.js';
import { siftResyncKeys } from '../controller/reconcile/resync-sieve.js';
import type { Observers } from './observers.js';
import type { SharedState } from './shared-state.js';
import { createReplicaScm } from './scm.js';
import { createReplicaPlugins } from './plugins.js';
import { createReplicaDecisionResources } from './decision-resources.js';
import { keyOf, splitKey } from '../model/object-key.js';
import { StatusAfterWrites, type StatusAfterWritesOptions } from '../controller/status/status-after-writes.js';

/** The reconcile pipeline of one replica: what the queue runs, and how events reach the queue. */
export interface Pipeline {
  /** Enqueues a key because of `cause` (the watch event that concerns it): watermark first, then the add. */
  readonly enqueue: (key: string, cause?: Cause) => void;
  /** The queue handler: cache freshness, then the reconcile, then the one failure path of the runner. */
  readonly handler: WorkHandler;
  /** The one template engine of this replica (its compiled-template cache outlives a reconcile). */
  readonly engine: TemplateEngine;
  /** Of a full resync's keys, those to reconcile: the others' inputs are as their last successful reconcile left them. */
  readonly resyncKeys: (keys: Iterable<string>) => Promise<string[]>;
  /** Writes the closing statuses still waiting for Application writes (when the replica stops). */
  readonly flushStatuses: () => Promise<void>;
}

/** What the pipeline is built from. */
export interface PipelineParts {
  readonly config: ControllerConfig;
  /** The replica's one way to the API server, for the writers. */
  readonly transport: KubeTransport;
  readonly informers: ControllerInformers;
  readonly shared: SharedState;
  readonly observers: Observers;
  readonly namespaceAllowed: (namespace: string) => boolean;
  readonly log: Logger;
  /** Longest a reconcile waits for this replica's caches to reach the event that enqueued it. */
  readonly cacheWaitTimeoutMs?: number;
  /** Aborted when the replica stops (ends a resync's look at its keys). */
  readonly signal: AbortSignal;
}

/** Builds Git cache, generators, one template engine, writers, reporter and runner into the queue handler. */
export function createPipeline(parts: PipelineParts): Pipeline {
  const { informers, shared, observers, log } = parts;
  const engine = new TemplateEngine();
  const renderMemo = observedRenderMemo(parts);
  const writePool = new WritePool(parts.config.concurrentReconciliations * WRITES_PER_RECONCILE);
  const status = createStatusWriter(parts.transport, { dryRun: parts.config.dryRun });
  // A closing status that waited and could not be written: the next reconcile runs in full and writes it.
  const closingStatus = closingStatusOf(parts, status, writePool, (appset) => {
    deps.unchangedInputs?.forget(appset);
    enqueue(keyOf(appset.metadata.namespace, appset.metadata.name));
  });
  const reporter = reporterOf(parts, status, closingStatus);
  const deps = reconcilerDeps(parts, { engine, renderMemo, writePool }, reporter);
  const reconcile = createReconciler(deps);
  const fresh = withFreshCaches(reconcile, {
    watermarks: shared.watermarks,
    cacheVersions: {
      applicationSets: versionOf(informers.applicationSets),
      applications: versionOf(informers.applications),
      secrets: versionOf(informers.secrets),
      projects: versionOf(informers.projects),
    },
    ...(parts.cacheWaitTimeoutMs === undefined ? {} : { timeoutMs: parts.cacheWaitTimeoutMs }),
    observeWait: observers.cacheWait,
  });
  // Keys reach the queue through the namespace check already; this one guards keys that came through Redis.
  const guarded: ReconcileFunction = (key, ctx) =>
    parts.namespaceAllowed(splitKey(key).namespace) ? fresh(key, ctx) : Promise.resolve({ kind: 'awaitChange' });
  const handler = createReconcileHandler({
    queue: shared.queue,
    reconcile: guarded,
    report: (_key, failure, ctx) => reportFailure(reporter, failure, ctx.log),
    log,
    observe: observers.reconcile,
  });
  const enqueue = (key: string, cause?: Cause): void => {
    observers.queueAdd();
    // The watermark goes first, so whichever replica runs this add waits for its cache to see the cause.
    // If it cannot be raised the add still goes out: every replica enqueues the key again once it sees the event.
    const raised = cause
      ? shared.watermarks.raise(key, cause).catch((error: unknown) => log.warn({ err: error, appset: key }, 'could not record the cause of an add'))
      : Promise.resolve();
    raised.then(() => shared.queue.add(key)).catch((error: unknown) => log.error({ err: error, appset: key }, 'could not enqueue'));
  };
  const resyncKeys = async (keys: Iterable<string>): Promise<string[]> => {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const allowed = [...keys].filter((key) => parts.namespaceAllowed(splitKey(key).namespace));
    const sifted = await siftResyncKeys(deps, shared.fingerprints, allowed, log, parts.signal);
    const cpu = process.cpuUsage(cpuBefore);
    observers.resyncPass({ unchanged: sifted.unchanged, cpuSeconds: (cpu.user + cpu.system) / 1e6, seconds: (performance.now() - started) / 1000 });
    log.debug({ keys: allowed.length, toReconcile: sifted.toReconcile.length }, 'full resync: keys whose inputs changed go to the queue');
    return sifted.toReconcile;
  };
  return { enqueue, handler, engine, resyncKeys, flushStatuses: () => closingStatus.flush() };
}

/** Successful reconciles' closing statuses, written after the replica's Application writes; the metrics read how many wait. */
function closingStatusOf(parts: PipelineParts, writer: StatusWriter, writePool: WritePool, onLost: StatusAfterWritesOptions['onLost']): StatusAfterWrites {
  const closing = new StatusAfterWrites({ writer, activity: writePool, onLost });
  parts.observers.metrics.sources.statusesWaiting = () => closing.waitingCount;
  return closing;
}

/** The replica's render memo, its figures read by the metrics at scrape time. */
function observedRenderMemo(parts: PipelineParts): RenderMemo {
  const memo = new RenderMemo(parts.config.renderMemoSize);
  parts.observers.metrics.sources.renderMemo = () => ({ ...memo.stats, remembered: memo.remembered });
  return memo;
}

function reconcilerDeps(
  parts: PipelineParts,
  { engine, renderMemo, writePool }: { engine: TemplateEngine; renderMemo: RenderMemo; writePool: WritePool },
  reporter: Reporter,
): Parameters<typeof createReconciler>[0] {
  const { config, transport, informers, shared, observers, log } = parts;
  const git = new RepoCache({
    root: config.gitCacheDir,
    repositorySecrets: () => secretsOfType(informers, 'repository', 'repo-creds'),
    knownHosts: () => knownHostsFromConfigMaps(informers.knownHosts.store.list()),
    log,
    onNetworkRequest: ({ repoURL, type }) => observers.gitRequest(repoURL, type),
    refsMaxAgeMs: config.gitRefsMaxAgeMs,
    pushEpochs: shared.pushEpochs,
  });
  const tenantRepoAllowances = { allowFile: config.allowLocalRepos, allowLoopback: config.allowLocalRepos, allowLinkLocal: false };
  const scm = createReplicaScm({
    config,
    transport,
    secrets: () => secretsOfType(informers, 'scm-creds', 'repository', 'repo-creds'),
    eventCounter: (key) => shared.pushEpochs.current(key),
    tenantAllowances: tenantRepoAllowances,
    onRequest: observers.scmRequest,
  });
  const plugins = createReplicaPlugins({ config, transport, tenantAllowances: tenantRepoAllowances });
  const decisions = createReplicaDecisionResources(transport, config.namespace);
  return {
    applicationSets: informers.applicationSets.store,
    applications: informers.applications.store,
    registry: createGeneratorRegistry({ git: { newFileGlobbing: config.enableNewGitFileGlobbing, includeHiddenDirectories: config.includeHiddenDirectories } }),
    git: timedGitReader(git, observers.gitOperation),
    tenantGit: (tenant) => timedGitReader(git.forAccess(tenantRepoAccess(tenant.projectName, tenantRepoAllowances)), observers.gitOperation),
    observeGenerator: observers.generator,
    scm: scm.platform,
    tenantScm: (tenant) => scm.forTenant(tenant.projectName),
    plugins: plugins.platform,
    tenantPlugins: (tenant) => plugins.forTenant(tenant.projectName),
    decisionResources: decisions.platform,
    tenantDecisionResources: decisions.forTenant,
    engine,
    renderMemo,
    clusterSecrets: () => secretsOfType(informers, 'cluster'),
    writer: createApplicationWriter(transport, { dryRun: config.dryRun }),
    writePool,
    refresh: createRefreshClearer(transport, { dryRun: config.dryRun }),
    reporter,
    settings: {
      policy: config.policy,
      enablePolicyOverride: config.enablePolicyOverride,
      maxDeleteShare: config.maxDeleteShare,
      progressiveSyncs: config.enableProgressiveSyncs,
    },
    controllerNamespace: config.namespace,
    tenantRepoAllowances,
    quotas: { perApplicationSet: config.maxApplicationsPerApplicationSet, perNamespace: config.maxApplicationsPerNamespace },
    observeWrites: observers.writes,
    unchangedInputs: new UnchangedInputsMemo(undefined, shared.fingerprints, (error) =>
      log.debug({ err: error }, 'could not share an input fingerprint; the next resync reconciles that ApplicationSet'),
    ),
    // What else a reconcile reads from the caches: AppProjects (tenant admission, project checks). Not the
    // informer's resourceVersion: watch bookmarks move it while nothing changes.
    cacheVersions: () => objectVersions(informers.projects.store.list()),
    observeUnchanged: observers.unchangedReconcile,
    projects: projectLookup(informers, config.namespace),
  };
}

/** `name@resourceVersion` of each object, sorted: changes exactly when one of them does. */
function objectVersions(objects: ReadonlyArray<{ metadata?: { name?: string; resourceVersion?: string } }>): string {
  return objects
    .map((o) => `${o.metadata?.name}@${o.metadata?.resourceVersion}`)
    .sort()
    .join(',');
}

/** AppProjects of the controller's namespace by name; one without a spec still exists (and allows nothing). */
function projectLookup(informers: ControllerInformers, namespace: string): ProjectLookup {
  return (name) => {
    const project = informers.projects.store.getByName(namespace, name) as { spec?: AppProjectSpec } | undefined;
    return project ? (project.spec ?? {}) : undefined;
  };
}

/** Where status and Events go (Events only logged in dry run). */
function reporterOf(parts: PipelineParts, status: StatusWriter, closingStatus: StatusAfterWrites): Reporter {
  const { config, transport, log } = parts;
  return {
    status,
    closingStatus,
    events: config.dryRun ? createLoggingEventRecorder(log) : createEventRecorder(transport),
    now: () => new Date(),
    maxResourcesStatus: config.maxResourcesStatusCount,
  };
}
