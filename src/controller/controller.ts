import type { KubeConfig, V1Secret } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import type { ControllerConfig } from '../config/controller-config.js';
import { redisConnectionOf, usesRedis } from '../config/redis-connection-config.js';
import { createGeneratorRegistry } from '../generators/registry.js';
import { RepoCache } from '../git/repo-cache.js';
import { knownHostsFromConfigMaps } from '../git/ssh-transport.js';
import { BullMqWorkQueue } from '../queue/bullmq-queue.js';
import { MemoryWorkQueue } from '../queue/memory-queue.js';
import type { WorkQueue } from '../queue/work-queue.js';
import { startOperationsServer, type OperationsServer } from '../server/http-server.js';
import { createControllerMetrics } from '../server/metrics.js';
import { matchesNamespacePattern } from '../tenancy/namespace-patterns.js';
import type { AppProjectSpec } from '../tenancy/project.js';
import { tenantRepoAccess } from '../tenancy/credential-scope.js';
import { TemplateEngine } from '../templating/engine.js';
import { DEFAULT_MAX_RESOURCES_STATUS } from './resource-status.js';
import { routeEvents } from './event-routing.js';
import { startControllerInformers, SECRET_TYPE_LABEL } from './informers.js';
import { createReconciler } from './reconciler.js';
import { createReconcileHandler } from './runner.js';
import { createApplicationWriter } from './writes/application-writer.js';
import { WRITES_PER_RECONCILE } from './execute-plan.js';
import { WritePool } from './write-pool.js';
import { createEventRecorder, createLoggingEventRecorder } from './writes/event-recorder.js';
import { createRefreshClearer } from './writes/refresh-annotation.js';
import { createStatusWriter } from './writes/status-writer.js';
import { createWebhookHandler } from '../server/webhook/webhook-handler.js';
import type { Informer, KubeObject } from '../kube/informer/index.js';
import { createRedisClient, type RedisConnectionOptions } from '../queue/redis-connection.js';
import { createLocalPushEpochs, createRedisPushEpochs } from '../git/push-epochs.js';
import { withFreshCaches } from './cache-freshness.js';
import { reasonOf } from './error-reason.js';
import { timedGitReader } from './timed-git.js';
import type { GitReader } from '../generators/generator.js';
import { createLocalWatermarks, createRedisWatermarks, type Cause } from './watermarks.js';
import { countApplicationWrites } from './write-metrics.js';
import { routePush, webhookSecretsFrom } from './webhook-routing.js';

/** A running controller replica. */
export interface RunningController {
  /** Resolves once the caches are filled and work is being taken. */
  readonly ready: Promise<void>;
  readonly metricsRegistry: Registry;
  /** The bound port of the operations server. */
  readonly port: number;
  /** Stops taking work, drains what runs (up to `timeoutMs`), stops the watches and the server. */
  stop(timeoutMs?: number): Promise<void>;
}

/** Options beyond the configuration, for tests and embedding. */
export interface StartOptions {
  /** Queue name shared by the replicas of one installation (default `appset-controller`). */
  queueName?: string;
  /** Where the informers list and watch (default `kc`); tests route one replica's watches through a delaying proxy. */
  informerKubeConfig?: KubeConfig;
  /** False: route watch events to the queue but run no reconciles here (default true). */
  takeWork?: boolean;
  /** Longest a reconcile waits for this replica's caches to reach the event that enqueued it (default 30 s). */
  cacheWaitTimeoutMs?: number;
}

/** Wires informers, queue, generators, renderer, writers and the operations server into one replica. */
export async function startController(config: ControllerConfig, kc: KubeConfig, log: Logger, options: StartOptions = {}): Promise<RunningController> {
  const abort = new AbortController();
  const namespaceAllowed = (namespace: string): boolean => namespace === config.namespace || matchesNamespacePattern(config.applicationSetNamespaces, namespace);
  const informers = startControllerInformers(
    options.informerKubeConfig ?? kc,
    { namespace: config.namespace, clusterWide: config.applicationSetNamespaces.length > 0, resyncMs: config.resyncPeriodMs, ...(config.webhookSecret ? { webhookSecretName: config.webhookSecret } : {}) },
    abort.signal,
    log,
  );
  const secretsOfType = (...types: string[]): V1Secret[] =>
    informers.secrets.store.list().filter((s) => types.includes(s.metadata?.labels?.[SECRET_TYPE_LABEL] ?? ''));
  const queueName = options.queueName ?? 'appset-controller';
  // The queue's Redis (URL or Sentinels, with its password and TLS), read once; watermarks and push
  // counters are shared by the replicas through it too.
  const connection = redisConnectionOf(config);
  const queue = createQueue(config, connection, queueName, () => informers.applicationSets.store.keys(), log);
  const shared = connection ? sharedStateClient(connection, log) : undefined;
  const watermarks = shared ? createRedisWatermarks(shared, `appset:${queueName}`) : createLocalWatermarks();
  const pushEpochs = shared ? createRedisPushEpochs(shared, `appset:${queueName}`) : createLocalPushEpochs();
  const registry = new Registry();
  const metrics = createControllerMetrics(registry);
  metrics.sources.applicationSets = () => summaries(informers.applicationSets.store.list());
  metrics.sources.queue = async () => ({ depth: await queue.depth() });
  metrics.sources.queueLatencySamplesMs = () => queue.takeLatencySamples();
  metrics.sources.queueRetries = () => queue.counters().retries;
  const git = new RepoCache({
    root: config.gitCacheDir,
    repositorySecrets: () => secretsOfType('repository', 'repo-creds'),
    knownHosts: () => knownHostsFromConfigMaps(informers.knownHosts.store.list()),
    log,
    onNetworkRequest: ({ repoURL, type }) => metrics.gitRequests.inc({ repo: repoURL, request_type: type }),
    refsMaxAgeMs: config.gitRefsMaxAgeMs,
    pushEpochs,
  });
  const observeGit = (operation: keyof GitReader, seconds: number): void => metrics.gitSeconds.observe({ operation }, seconds);
  const tenantRepoAllowances = { allowFile: config.allowLocalRepos, allowLoopback: config.allowLocalRepos, allowLinkLocal: false };
  const reconcile = createReconciler({
    applicationSets: informers.applicationSets.store,
    applications: informers.applications.store,
    registry: createGeneratorRegistry(),
    git: timedGitReader(git, observeGit),
    tenantGit: (tenant) => timedGitReader(git.forAccess(tenantRepoAccess(tenant.projectName, tenantRepoAllowances)), observeGit),
    observeGenerator: (generator, seconds) => metrics.generatorSeconds.observe({ generator }, seconds),
    engine: new TemplateEngine(),
    clusterSecrets: () => secretsOfType('cluster'),
    writer: createApplicationWriter(kc, { dryRun: config.dryRun }),
    writePool: new WritePool(config.concurrentReconciliations * WRITES_PER_RECONCILE),
    refresh: createRefreshClearer(kc, { dryRun: config.dryRun }),
    reporter: { status: createStatusWriter(kc, { dryRun: config.dryRun }), events: config.dryRun ? createLoggingEventRecorder(log) : createEventRecorder(kc), now: () => new Date(), maxResourcesStatus: DEFAULT_MAX_RESOURCES_STATUS },
    settings: { policy: config.policy, enablePolicyOverride: config.enablePolicyOverride, maxDeleteShare: config.maxDeleteShare },
    controllerNamespace: config.namespace,
    tenantRepoAllowances,
    quotas: { perApplicationSet: config.maxApplicationsPerApplicationSet, perNamespace: config.maxApplicationsPerNamespace },
    observeWrites: countApplicationWrites(metrics.applicationWrites),
    projects: (name) => (informers.projects.store.getByName(config.namespace, name) as { spec?: AppProjectSpec } | undefined)?.spec,
  });
  const enqueue = (key: string, cause?: Cause): void => {
    metrics.queueAdds.inc();
    // The watermark goes first, so whichever replica runs this add waits for its cache to see the cause.
    // If it cannot be raised the add still goes out: every replica enqueues the key again once it sees the event.
    const raised = cause ? watermarks.raise(key, cause).catch((error: unknown) => log.warn({ err: error, appset: key }, 'could not record the cause of an add')) : Promise.resolve();
    raised.then(() => queue.add(key)).catch((error: unknown) => log.error({ err: error, appset: key }, 'could not enqueue'));
  };
  const fresh = withFreshCaches(reconcile, {
    watermarks,
    cacheVersions: { applicationSets: versionOf(informers.applicationSets), applications: versionOf(informers.applications), secrets: versionOf(informers.secrets) },
    ...(options.cacheWaitTimeoutMs === undefined ? {} : { timeoutMs: options.cacheWaitTimeoutMs }),
    observeWait: (seconds) => metrics.cacheWaitSeconds.observe(seconds),
  });
  routeEvents(informers, { enqueue, namespaceAllowed });
  const server: OperationsServer = await startOperationsServer({
    host: config.listenAddress.host,
    port: config.listenAddress.port,
    registry,
    log,
    routes: {
      '/api/webhook': createWebhookHandler({
        secrets: () => webhookSecretsFrom(informers.webhookSecret?.store.list()[0]),
        onPush: async (push) => {
          // Counted before anything is enqueued: whichever replica runs a woken key then reads refs after this push.
          await pushEpochs.advance(push.repoURLs);
          return routePush(push, informers.applicationSets.store, enqueue, namespaceAllowed);
        },
        log,
        metrics: { requests: metrics.webhookRequests, enqueuedPerPush: metrics.webhookEnqueuedPerPush },
      }),
    },
    readiness: [
      ...informers.all.map((informer) => ({ name: `informer ${informer.health().path}`, check: () => (informer.health().synced ? Promise.resolve() : Promise.reject(new Error('not synced yet'))) })),
      { name: 'work queue', check: () => queue.depth().then(() => undefined) },
    ],
  });
  const ready = Promise.all(informers.all.map((informer) => informer.ready())).then(() => {
    if (options.takeWork === false) return log.info({ namespace: config.namespace }, 'controller routes events but takes no work');
    queue.process(
      createReconcileHandler({
        queue,
        reconcile: (key, ctx) => (namespaceAllowed(key.split('/')[0] ?? '') ? fresh(key, ctx) : Promise.resolve({ kind: 'awaitChange' as const })),
        onTerminalError: () => Promise.resolve(),
        log,
        observe: (key, seconds, outcome, error) => {
          const [namespace = '', name = ''] = key.split('/');
          metrics.reconcileSeconds.observe({ namespace, name }, seconds);
          if (outcome !== 'success') metrics.reconcileErrors.inc({ reason: reasonOf(error) });
        },
      }),
    );
    log.info({ namespace: config.namespace, queue: usesRedis(config) ? 'bullmq' : 'memory', dryRun: config.dryRun }, 'controller is taking work');
  });
  return {
    ready,
    metricsRegistry: registry,
    port: server.port,
    async stop(timeoutMs = 30_000) {
      await queue.close(timeoutMs);
      await watermarks.close();
      abort.abort();
      await Promise.all(informers.all.map((informer) => informer.stopped));
      await server.close();
    },
  };
}

/**
 * The Redis client of the watermarks and push counters, on the queue's connection (so a password or
 * Sentinels given for the queue apply here too); its failures surface on the commands, so connection
 * errors are only logged.
 */
function sharedStateClient(connection: RedisConnectionOptions, log: Logger): ReturnType<typeof createRedisClient> {
  const client = createRedisClient(connection, 'producer');
  client.on('error', (error: Error) => log.debug({ err: error }, 'redis connection error (watermarks, push counters)'));
  return client;
}

/** The resourceVersion an informer's cache has reached (its last list, event or bookmark). */
function versionOf(informer: Informer<KubeObject>): () => string | undefined {
  return () => informer.health().resourceVersion;
}

function createQueue(config: ControllerConfig, connection: RedisConnectionOptions | undefined, name: string, keys: () => Iterable<string>, log: Logger): WorkQueue {
  const common = { concurrency: config.concurrentReconciliations };
  if (!connection) return new MemoryWorkQueue(common);
  return new BullMqWorkQueue({ ...common, name, connection, resync: { intervalMs: config.resyncPeriodMs, keys }, logger: log });
}

function summaries(appsets: readonly unknown[]): Array<{ namespace: string; name: string; resourceUpdateStatus: string; ownedApplications: number }> {
  return appsets.map((raw) => {
    const appset = raw as { metadata: { namespace?: string; name?: string }; status?: { conditions?: Array<{ type: string; reason?: string }>; resources?: unknown[] } };
    const upToDate = appset.status?.conditions?.find((c) => c.type === 'ResourcesUpToDate');
    return { namespace: appset.metadata.namespace ?? '', name: appset.metadata.name ?? '', resourceUpdateStatus: upToDate?.reason ?? 'Unknown', ownedApplications: appset.status?.resources?.length ?? 0 };
  });
}
