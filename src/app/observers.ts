import { Registry } from 'prom-client';
import type { ControllerInformers } from '../controller/routing/caches.js';
import type { ExecutionResult } from '../controller/write/execute-plan.js';
import type { ReconcileResult } from '../controller/reconcile/runner.js';
import { countApplicationWrites } from '../controller/write/write-metrics.js';
import type { GitReader } from '../git/git-reader.js';
import type { ApiRequestRecord } from '../scm/http/api-client.js';
import type { WorkQueue } from '../queue/work-queue.js';
import { createControllerMetrics, type ControllerMetrics } from '../server/metrics.js';
import { splitKey } from '../model/object-key.js';

/** Every measurement point of a replica, as plain functions, over one metrics registry. */
export interface Observers {
  readonly registry: Registry;
  /** The metric objects, for the parts that take them whole (the webhook route). */
  readonly metrics: ControllerMetrics;
  readonly gitRequest: (repoURL: string, type: string) => void;
  readonly gitOperation: (operation: keyof GitReader, seconds: number) => void;
  readonly scmRequest: (record: ApiRequestRecord) => void;
  readonly generator: (generator: string, seconds: number) => void;
  readonly writes: (result: ExecutionResult) => void;
  readonly queueAdd: () => void;
  /** A reconcile whose inputs had not changed stopped after generating. */
  readonly unchangedReconcile: () => void;
  /**
   * A full resync's look at its keys: how many it left out (inputs unchanged: no queue job, no reconcile)
   * the process CPU-seconds the look took (anything else the process did meanwhile included) and its wall time.
   */
  readonly resyncPass: (pass: { readonly unchanged: number; readonly cpuSeconds: number; readonly seconds: number }) => void;
  readonly cacheWait: (seconds: number) => void;
  readonly reconcile: (key: string, seconds: number, result: ReconcileResult, reason?: string) => void;
}

/** The observers of one replica and the scrape-time readings of its caches and queue. */
export function createObservers(informers: ControllerInformers, queue: WorkQueue): Observers {
  const registry = new Registry();
  const metrics = createControllerMetrics(registry);
  metrics.sources.applicationSets = () => summaries(informers.applicationSets.store.list());
  metrics.sources.queue = async () => ({ depth: await queue.depth() });
  metrics.sources.queueLatencySamplesMs = () => queue.takeLatencySamples();
  metrics.sources.queueRetries = () => queue.counters().retries;
  return {
    registry,
    metrics,
    gitRequest: (repoURL, type) => metrics.gitRequests.inc({ repo: repoURL, request_type: type }),
    gitOperation: (operation, seconds) => metrics.gitSeconds.observe({ operation }, seconds),
    scmRequest: ({ status, notModified }) => metrics.scmRequests.inc({ result: notModified ? 'not_modified' : status >= 200 && status < 300 ? 'ok' : 'error' }),
    generator: (generator, seconds) => metrics.generatorSeconds.observe({ generator }, seconds),
    writes: countApplicationWrites(metrics.applicationWrites),
    queueAdd: () => metrics.queueAdds.inc(),
    unchangedReconcile: () => metrics.reconcilesUnchanged.inc(),
    resyncPass: ({ unchanged, cpuSeconds, seconds }) => {
      metrics.resyncUnchanged.inc(unchanged);
      metrics.resyncCpuSeconds.inc(cpuSeconds);
      metrics.resyncPassSeconds.observe(seconds);
    },
    cacheWait: (seconds) => metrics.cacheWaitSeconds.observe(seconds),
    reconcile: (key, seconds, result, reason) => {
      const { namespace, name } = splitKey(key);
      metrics.reconcileSeconds.observe({ namespace, name }, seconds);
      if (result !== 'success') metrics.reconcileErrors.inc({ reason: reason ?? 'Unknown' });
    },
  };
}

/** Per ApplicationSet: its ResourcesUpToDate reason and how many Applications it owns (Argo CD's gauges). */
function summaries(appsets: readonly unknown[]): Array<{ namespace: string; name: string; resourceUpdateStatus: string; ownedApplications: number }> {
  return appsets.map((raw) => {
    const appset = raw as {
      metadata: { namespace?: string; name?: string };
      status?: { conditions?: Array<{ type: string; reason?: string }>; resources?: unknown[] };
    };
    const upToDate = appset.status?.conditions?.find((c) => c.type === 'ResourcesUpToDate');
    return {
      namespace: appset.metadata.namespace ?? '',
      name: appset.metadata.name ?? '',
      resourceUpdateStatus: upToDate?.reason ?? 'Unknown',
      ownedApplications: appset.status?.resources?.length ?? 0,
    };
  });
}
