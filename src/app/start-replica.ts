import type { KubeConfig } from '../kube/kubeconfig.js';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { ControllerConfig } from '../config/controller-config.js';
import { routeEvents } from '../controller/routing/event-routing.js';
import { createKubeTransport } from '../kube/transport/transport.js';
import { matchesNamespacePattern } from '../tenancy/namespace-patterns.js';
import { startControllerInformers } from './caches.js';
import { startHttpRoutes } from './http-routes.js';
import { createObservers } from './observers.js';
import { createPipeline } from './pipeline.js';
import { createSharedState } from './shared-state.js';
import { usesRedis } from '../config/redis-connection-config.js';
import { watchDecisionResources } from './decision-watches.js';
import { releaseMemoryWhenIdle } from './idle-memory.js';

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

/**
 * Starts one replica, the composition root: caches, shared state, observers, the reconcile pipeline and
 * the HTTP routes, each built by its own module; the returned stop undoes it in reverse order.
 */
export async function startController(config: ControllerConfig, kc: KubeConfig, log: Logger, options: StartOptions = {}): Promise<RunningController> {
  const abort = new AbortController();
  const namespaceAllowed = (namespace: string): boolean =>
    namespace === config.namespace || matchesNamespacePattern(config.applicationSetNamespaces, namespace);
  const scope = {
    namespace: config.namespace,
    clusterWide: config.applicationSetNamespaces.length > 0,
    // With Redis the queue resyncs, once per installation; replaying the cache as well ran every key twice per replica.
    ...(usesRedis(config) ? {} : { resyncMs: config.resyncPeriodMs }),
    ...(config.webhookSecret ? { webhookSecretName: config.webhookSecret } : {}),
  };
  // One transport: one connection pool and one credential policy for every list, watch and write.
  const transport = createKubeTransport(kc);
  const informerTransport = options.informerKubeConfig ? createKubeTransport(options.informerKubeConfig) : transport;
  const informers = startControllerInformers(informerTransport, scope, abort.signal, log);
  // The resync asks the pipeline (built below, long before the first interval) which keys changed.
  const shared = createSharedState(config, options.queueName ?? 'appset-controller', () => pipeline.resyncKeys(informers.applicationSets.store.keys()), log);
  const idle = releaseMemoryWhenIdle({ signal: abort.signal, log });
  const observed = createObservers(informers, shared.queue);
  const observers = {
    ...observed,
    reconcile: (...args: Parameters<typeof observed.reconcile>) => {
      idle.activity();
      observed.reconcile(...args);
    },
  };
  const pipeline = createPipeline({
    config,
    transport,
    informers,
    shared,
    observers,
    namespaceAllowed,
    log,
    signal: abort.signal,
    ...(options.cacheWaitTimeoutMs === undefined ? {} : { cacheWaitTimeoutMs: options.cacheWaitTimeoutMs }),
  });
  routeEvents(informers, { enqueue: pipeline.enqueue, namespaceAllowed, progressiveSyncs: config.enableProgressiveSyncs });
  // Started on demand, by the ApplicationSets that name a clusterDecisionResource ConfigMap; not part of readiness.
  const decisions = watchDecisionResources({
    transport: informerTransport,
    scope,
    applicationSets: informers.applicationSets,
    enqueue: (key) => pipeline.enqueue(key),
    namespaceAllowed,
    signal: abort.signal,
    log,
  });
  const server = await startHttpRoutes({ config, informers, shared, observers, pipeline, namespaceAllowed, log });
  const ready = Promise.all(informers.all.map((informer) => informer.ready())).then(() => {
    if (options.takeWork === false) return log.info({ namespace: config.namespace }, 'controller routes events but takes no work');
    shared.queue.process(pipeline.handler);
    log.info({ namespace: config.namespace, queue: shared.kind, dryRun: config.dryRun }, 'controller is taking work');
  });
  return {
    ready,
    metricsRegistry: observers.registry,
    port: server.port,
    async stop(timeoutMs = 30_000) {
      await shared.queue.close(timeoutMs);
      await pipeline.flushStatuses();
      await shared.watermarks.close();
      abort.abort();
      await Promise.all([...informers.all.map((informer) => informer.stopped), decisions.stopped()]);
      await server.close();
    },
  };
}
