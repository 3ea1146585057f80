import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** What the metrics read about each ApplicationSet at scrape time (from the cache, never the API). */
export interface ApplicationSetSummary {
  readonly namespace: string;
  readonly name: string;
  /** Reason of the ResourcesUpToDate condition, or `Unknown` (Argo CD's `resource_update_status`). */
  readonly resourceUpdateStatus: string;
  /** Entries in `status.resources`. */
  readonly ownedApplications: number;
}

/** Queue figures the metrics read at scrape time. */
export interface QueueFigures {
  readonly depth: number;
}

/** Where the scrape-time metrics come from; set once the parts exist. */
export interface MetricSources {
  applicationSets?: () => Iterable<ApplicationSetSummary>;
  queue?: () => QueueFigures | Promise<QueueFigures>;
  /** Returns and clears the add-to-start latencies (ms) recorded since the last call. */
  queueLatencySamplesMs?: () => readonly number[];
  /** Retries this replica scheduled since it started (cumulative). */
  queueRetries?: () => number;
  /** The render memo's lookups since the replica started (cumulative) and the renders it holds now. */
  renderMemo?: () => { readonly hits: number; readonly misses: number; readonly remembered: number };
  /** Successful reconciles' statuses waiting for the replica's Application writes now. */
  statusesWaiting?: () => number;
}

/** The controller's Prometheus metrics: Argo CD's names where it has them, `appset_*` for the rest. */
export interface ControllerMetrics {
  readonly reconcileSeconds: Histogram<'namespace' | 'name'>;
  readonly reconcileErrors: Counter<'reason'>;
  readonly applicationWrites: Counter<'operation' | 'result'>;
  readonly generatorSeconds: Histogram<'generator'>;
  readonly gitSeconds: Histogram<'operation'>;
  /** Git processes that reached a remote, by repository URL and type (`ls-remote`, `fetch`); Argo CD's repo-server name. */
  readonly gitRequests: Counter<'repo' | 'request_type'>;
  /** SCM provider API requests by outcome (`ok`, `not_modified`, `error`); no host label, as tenants may choose hosts. */
  readonly scmRequests: Counter<'result'>;
  readonly queueAdds: Counter;
  /** Reconciles that stopped after generating: every input was as in the last successful one. */
  readonly reconcilesUnchanged: Counter;
  /** ApplicationSets a full resync left out of the queue: nothing had changed since their last successful reconcile. */
  readonly resyncUnchanged: Counter;
  /** CPU-seconds of this process while it looked at a full resync's keys. */
  readonly resyncCpuSeconds: Counter;
  /** Wall time of each full resync's look at every key (on the replica that claimed the interval). */
  readonly resyncPassSeconds: Histogram;
  readonly queueRetries: Counter;
  readonly queueAddToStartSeconds: Histogram;
  readonly webhookRequests: Counter<'provider' | 'result'>;
  readonly webhookEnqueuedPerPush: Histogram;
  /** How long reconciles waited for this replica's caches to reach the event that enqueued them. */
  readonly cacheWaitSeconds: Histogram;
  /** Scrape-time sources; assign when the store and queue are up. */
  readonly sources: MetricSources;
}

/** Registers every controller metric on `registry`. */
export function createControllerMetrics(registry: Registry): ControllerMetrics {
  const registers = [registry];
  const sources: MetricSources = {};
  registerApplicationSetGauges(registers, sources);
  registerRenderMemoMetrics(registers, sources);
  registerQueueDepthGauge(registers, sources);
  registerStatusesWaitingGauge(registers, sources);
  return {
    ...reconcileMetrics(registers),
    ...inputMetrics(registers),
    ...queueMetrics(registers, sources),
    ...resyncMetrics(registers),
    ...webhookMetrics(registers),
    sources,
  };
}

type Registers = Registry[];

/** Argo CD's per-ApplicationSet gauges, read from the cache at scrape time. */
function registerApplicationSetGauges(registers: Registers, sources: MetricSources): void {
  new Gauge({
    name: 'argocd_appset_info',
    help: 'Information about ApplicationSets; value 1.',
    labelNames: ['namespace', 'name', 'resource_update_status'],
    registers,
    collect() {
      this.reset();
      for (const s of sources.applicationSets?.() ?? []) this.set({ namespace: s.namespace, name: s.name, resource_update_status: s.resourceUpdateStatus }, 1);
    },
  });
  new Gauge({
    name: 'argocd_appset_owned_applications',
    help: 'Applications listed in each ApplicationSet status.',
    labelNames: ['namespace', 'name'],
    registers,
    collect() {
      this.reset();
      for (const s of sources.applicationSets?.() ?? []) this.set({ namespace: s.namespace, name: s.name }, s.ownedApplications);
    },
  });
}

/** The render memo's lookups (a counter fed from its cumulative figures) and the renders it holds. */
function registerRenderMemoMetrics(registers: Registers, sources: MetricSources): void {
  const lookupsReported = { hit: 0, miss: 0 };
  new Counter({
    name: 'appset_render_memo_lookups_total',
    help: 'Parameter sets looked up in the render memo: hit (answered from memory) or miss (rendered).',
    labelNames: ['result'],
    registers,
    collect() {
      const figures = sources.renderMemo?.();
      if (!figures) return;
      for (const [result, total] of [
        ['hit', figures.hits],
        ['miss', figures.misses],
      ] as const) {
        if (total > lookupsReported[result]) this.inc({ result }, total - lookupsReported[result]);
        lookupsReported[result] = Math.max(total, lookupsReported[result]);
      }
    },
  });
  new Gauge({
    name: 'appset_render_memo_entries',
    help: 'Rendered Applications the render memo holds.',
    registers,
    collect() {
      const figures = sources.renderMemo?.();
      if (figures) this.set(figures.remembered);
    },
  });
}

/** Closing statuses held back while the replica's Application writes run (each written within 30 s). */
function registerStatusesWaitingGauge(registers: Registers, sources: MetricSources): void {
  new Gauge({
    name: 'appset_status_writes_waiting',
    help: "ApplicationSet statuses of successful reconciles waiting for this replica's Application writes to finish.",
    registers,
    collect() {
      const waiting = sources.statusesWaiting?.();
      if (waiting !== undefined) this.set(waiting);
    },
  });
}

/** Reconciles: their time, errors, writes, generators, and the ones that stopped early. */
function reconcileMetrics(
  registers: Registers,
): Pick<ControllerMetrics, 'reconcileSeconds' | 'reconcileErrors' | 'applicationWrites' | 'generatorSeconds' | 'reconcilesUnchanged'> {
  return {
    reconcileSeconds: new Histogram({
      name: 'argocd_appset_reconcile',
      help: 'ApplicationSet reconcile duration in seconds.',
      labelNames: ['namespace', 'name'],
      registers,
    }),
    reconcileErrors: new Counter({
      name: 'appset_reconcile_errors_total',
      help: 'Reconciles that ended in an error, by condition reason.',
      labelNames: ['reason'],
      registers,
    }),
    applicationWrites: new Counter({
      name: 'appset_application_writes_total',
      help: 'Application writes by operation (create, update, delete) and result.',
      labelNames: ['operation', 'result'],
      registers,
    }),
    generatorSeconds: new Histogram({
      name: 'appset_generator_duration_seconds',
      help: 'Generator run time in seconds, by generator.',
      labelNames: ['generator'],
      registers,
    }),
    reconcilesUnchanged: new Counter({
      name: 'appset_reconciles_unchanged_total',
      help: 'Reconciles that stopped after generating because every input was as in the last successful one (nothing rendered or written).',
      registers,
    }),
  };
}

/** What generators read from outside: Git and SCM provider APIs. */
function inputMetrics(registers: Registers): Pick<ControllerMetrics, 'gitSeconds' | 'gitRequests' | 'scmRequests'> {
  return {
    gitSeconds: new Histogram({
      name: 'appset_git_duration_seconds',
      help: 'Git operation time in seconds, by operation.',
      labelNames: ['operation'],
      registers,
    }),
    gitRequests: new Counter({
      name: 'argocd_git_request_total',
      help: 'Git requests that reached a remote, by repository and type (ls-remote, fetch).',
      labelNames: ['repo', 'request_type'],
      registers,
    }),
    scmRequests: new Counter({
      name: 'appset_scm_requests_total',
      help: 'SCM provider API requests sent, by result (ok, not_modified: a conditional request answered 304, error).',
      labelNames: ['result'],
      registers,
    }),
  };
}

/** The work queue's depth, read at scrape time. */
function registerQueueDepthGauge(registers: Registers, sources: MetricSources): void {
  new Gauge({
    name: 'appset_queue_depth',
    help: 'Keys waiting in the work queue.',
    registers,
    async collect() {
      const figures = await sources.queue?.();
      if (figures) this.set(figures.depth);
    },
  });
}

/** The work queue: adds, retries, and how long keys and caches kept reconciles waiting. */
function queueMetrics(
  registers: Registers,
  sources: MetricSources,
): Pick<ControllerMetrics, 'queueAdds' | 'queueRetries' | 'queueAddToStartSeconds' | 'cacheWaitSeconds'> {
  let retriesReported = 0; // the queue counts cumulatively; the Counter gets the difference at each scrape
  return {
    queueAdds: new Counter({ name: 'appset_queue_adds_total', help: 'Keys added to the work queue.', registers }),
    queueRetries: new Counter({
      name: 'appset_queue_retries_total',
      help: 'Keys re-added after a failed reconcile.',
      registers,
      collect() {
        const total = sources.queueRetries?.() ?? retriesReported;
        if (total > retriesReported) this.inc(total - retriesReported);
        retriesReported = Math.max(total, retriesReported);
      },
    }),
    queueAddToStartSeconds: new Histogram({
      name: 'appset_queue_add_to_start_seconds',
      help: 'Time from a key being added to its reconcile starting, in seconds.',
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120],
      registers,
      collect() {
        for (const ms of sources.queueLatencySamplesMs?.() ?? []) this.observe(ms / 1000);
      },
    }),
    cacheWaitSeconds: new Histogram({
      name: 'appset_cache_wait_seconds',
      help: "Time a reconcile waited for this replica's caches to reach the event that enqueued it, in seconds.",
      buckets: [0, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
      registers,
    }),
  };
}

/** Full resyncs: the keys they left out, and the CPU and time their look at every key took. */
function resyncMetrics(registers: Registers): Pick<ControllerMetrics, 'resyncUnchanged' | 'resyncCpuSeconds' | 'resyncPassSeconds'> {
  return {
    resyncUnchanged: new Counter({
      name: 'appset_resync_unchanged_total',
      help: 'ApplicationSets a full resync left out of the queue because every input was as in their last successful reconcile.',
      registers,
    }),
    resyncCpuSeconds: new Counter({
      name: 'appset_resync_cpu_seconds_total',
      help: "CPU-seconds this replica spent looking at full resyncs' keys (the replica that claimed each interval).",
      registers,
    }),
    resyncPassSeconds: new Histogram({
      name: 'appset_resync_pass_seconds',
      help: "Wall time of a full resync's look at every ApplicationSet, in seconds (the replica that claimed the interval).",
      buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
      registers,
    }),
  };
}

/** Webhook requests and the ApplicationSets each accepted push enqueued. */
function webhookMetrics(registers: Registers): Pick<ControllerMetrics, 'webhookRequests' | 'webhookEnqueuedPerPush'> {
  return {
    webhookRequests: new Counter({
      name: 'appset_webhook_requests_total',
      help: 'Webhook requests by provider and result.',
      labelNames: ['provider', 'result'],
      registers,
    }),
    webhookEnqueuedPerPush: new Histogram({
      name: 'appset_webhook_enqueued_applicationsets',
      help: 'ApplicationSets enqueued per accepted push.',
      buckets: [0, 1, 2, 5, 10, 50, 100, 500, 1000],
      registers,
    }),
  };
}
