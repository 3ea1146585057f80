import type { KubeConfig, V1Secret } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import type { ControllerConfig } from '../config/controller-config.js';
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
import { TemplateEngine } from '../templating/engine.js';
import { DEFAULT_MAX_RESOURCES_STATUS } from './resource-status.js';
import { routeEvents } from './event-routing.js';
import { startControllerInformers, SECRET_TYPE_LABEL } from './informers.js';
import { createReconciler } from './reconciler.js';
import { createReconcileHandler } from './runner.js';
import { createApplicationWriter } from './writes/application-writer.js';
import { createEventRecorder } from './writes/event-recorder.js';
import { createRefreshClearer } from './writes/refresh-annotation.js';
import { createStatusWriter } from './writes/status-writer.js';
import { createWebhookHandler } from '../server/webhook/webhook-handler.js';
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
}

/** Wires informers, queue, generators, renderer, writers and the operations server into one replica. */
export async function startController(config: ControllerConfig, kc: KubeConfig, log: Logger, options: StartOptions = {}): Promise<RunningController> {
  const abort = new AbortController();
  const namespaceAllowed = (namespace: string): boolean => namespace === config.namespace || matchesNamespacePattern(config.applicationSetNamespaces, namespace);
  const informers = startControllerInformers(
    kc,
    { namespace: config.namespace, clusterWide: config.applicationSetNamespaces.length > 0, resyncMs: config.resyncPeriodMs, ...(config.webhookSecret ? { webhookSecretName: config.webhookSecret } : {}) },
    abort.signal,
    log,
  );
  const secretsOfType = (...types: string[]): V1Secret[] =>
    informers.secrets.store.list().filter((s) => types.includes(s.metadata?.labels?.[SECRET_TYPE_LABEL] ?? ''));
  const queue = createQueue(config, options.queueName ?? 'appset-controller', () => informers.applicationSets.store.keys(), log);
  const registry = new Registry();
  const metrics = createControllerMetrics(registry);
  metrics.sources.applicationSets = () => summaries(informers.applicationSets.store.list());
  const reconcile = createReconciler({
    applicationSets: informers.applicationSets.store,
    applications: informers.applications.store,
    registry: createGeneratorRegistry(),
    git: new RepoCache({
      root: config.gitCacheDir,
      repositorySecrets: () => secretsOfType('repository', 'repo-creds'),
      knownHosts: () => knownHostsFromConfigMaps(informers.knownHosts.store.list()),
      log,
      onNetworkRequest: ({ repoURL, type }) => metrics.gitRequests.inc({ repo: repoURL, request_type: type }),
    }),
    engine: new TemplateEngine(),
    clusterSecrets: () => secretsOfType('cluster'),
    writer: createApplicationWriter(kc, { dryRun: config.dryRun }),
    refresh: createRefreshClearer(kc, { dryRun: config.dryRun }),
    reporter: { status: createStatusWriter(kc, { dryRun: config.dryRun }), events: createEventRecorder(kc), now: () => new Date(), maxResourcesStatus: DEFAULT_MAX_RESOURCES_STATUS },
    settings: { policy: config.policy, enablePolicyOverride: config.enablePolicyOverride, maxDeleteShare: config.maxDeleteShare },
    controllerNamespace: config.namespace,
    tenantRepoAllowances: { allowFile: config.allowLocalRepos, allowLoopback: config.allowLocalRepos, allowLinkLocal: false },
    projects: (name) => (informers.projects.store.getByName(config.namespace, name) as { spec?: AppProjectSpec } | undefined)?.spec,
  });
  const enqueue = (key: string): void => {
    metrics.queueAdds.inc();
    queue.add(key).catch((error: unknown) => log.error({ err: error, appset: key }, 'could not enqueue'));
  };
  routeEvents(informers, { enqueue, namespaceAllowed });
  const server: OperationsServer = await startOperationsServer({
    host: config.listenAddress.host,
    port: config.listenAddress.port,
    registry,
    log,
    routes: {
      '/api/webhook': createWebhookHandler({
        secrets: () => webhookSecretsFrom(informers.webhookSecret?.store.list()[0]),
        onPush: (push) => Promise.resolve(routePush(push, informers.applicationSets.store, enqueue, namespaceAllowed)),
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
    queue.process(
      createReconcileHandler({
        queue,
        reconcile: (key, ctx) => (namespaceAllowed(key.split('/')[0] ?? '') ? reconcile(key, ctx) : Promise.resolve({ kind: 'awaitChange' as const })),
        onTerminalError: () => Promise.resolve(),
        log,
        observe: (key, seconds, outcome) => {
          const [namespace = '', name = ''] = key.split('/');
          metrics.reconcileSeconds.observe({ namespace, name }, seconds);
          if (outcome !== 'success') metrics.reconcileErrors.inc({ reason: outcome });
        },
      }),
    );
    log.info({ namespace: config.namespace, queue: config.redisUrl ? 'bullmq' : 'memory', dryRun: config.dryRun }, 'controller is taking work');
  });
  return {
    ready,
    metricsRegistry: registry,
    port: server.port,
    async stop(timeoutMs = 30_000) {
      await queue.close(timeoutMs);
      abort.abort();
      await Promise.all(informers.all.map((informer) => informer.stopped));
      await server.close();
    },
  };
}

function createQueue(config: ControllerConfig, name: string, keys: () => Iterable<string>, log: Logger): WorkQueue {
  const common = { concurrency: config.concurrentReconciliations };
  if (!config.redisUrl) return new MemoryWorkQueue(common);
  return new BullMqWorkQueue({ ...common, name, connection: { url: config.redisUrl }, resync: { intervalMs: config.resyncPeriodMs, keys }, logger: log });
}

function summaries(appsets: readonly unknown[]): Array<{ namespace: string; name: string; resourceUpdateStatus: string; ownedApplications: number }> {
  return appsets.map((raw) => {
    const appset = raw as { metadata: { namespace?: string; name?: string }; status?: { conditions?: Array<{ type: string; reason?: string }>; resources?: unknown[] } };
    const upToDate = appset.status?.conditions?.find((c) => c.type === 'ResourcesUpToDate');
    return { namespace: appset.metadata.namespace ?? '', name: appset.metadata.name ?? '', resourceUpdateStatus: upToDate?.reason ?? 'Unknown', ownedApplications: appset.status?.resources?.length ?? 0 };
  });
}
