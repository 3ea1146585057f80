// Phases of the system benchmark. Each takes a namespace that only it uses, so runs never see each
// other's objects; the API server, etcd, Redis and Git server are shared, as in a real cluster.
import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { KubeApiError } from '../src/kube/transport/api-errors.js';
import { pathSegment } from '../src/kube/transport/request-url.js';
import { createKubeTransport, MERGE_PATCH, type KubeTransport } from '../src/kube/transport/transport.js';
import { TestEnvironment } from '../src/environment/local/environment.js';
import { GitFixtures, type GitRepo } from '../src/environment/local/git-fixtures.js';
import { waitFor } from '../src/environment/local/wait-for.js';
import { ConvergenceWatch } from '../test/system/convergence.js';
import { ReplicaProcess, unhandledErrors } from '../test/system/controller-process.js';
import { apiServerRequests, cpuSeconds, peakRssMiB, requestDelta, rssMiB } from '../test/system/proc-stats.js';
import { createWorkloadRepo, renderExpected, workloadManifests, type WorkloadShape } from '../test/system/workload.js';
import { createAppSets, pool, prepareNamespace, setRevision } from '../test/system/cluster-setup.js';
import { applyAll, ceilingObjects } from './system-cluster.js';
import type { SystemBenchOptions } from './system-options.js';
import { roundTo as round } from './statistics.js';
import { parseDurationMs } from '../src/config/parsers.js';
import { testKubeConfig, type TestKubeConfig } from '../test/env/test-kube-config.js';

/** Writes in flight the controller budgets per concurrent reconcile (its replica-wide write pool). */
export { WRITES_PER_RECONCILE } from '../src/controller/write/execute-plan.js';

/** API server requests while an action ran: applies of Applications, and every request and every write. */
export interface PhaseRequests {
  /** Server-side applies of Applications (the ideal for this controller: one per Application). */
  readonly applies: number;
  /** Every request the API server served. */
  readonly requests: number;
  /** Every request that was not a GET, LIST or WATCH. */
  readonly writes: number;
  /** The requests by verb and resource (`PATCH applicationsets/status`), those that did not happen left out. */
  readonly byVerbAndResource: Readonly<Record<string, number>>;
}

/** The requests the API server served while `action` ran (the benchmark's own included; see {@link PhaseRequests}). */
export async function countRequests<T>(ctx: BenchContext, action: () => Promise<T>): Promise<{ result: T } & PhaseRequests> {
  const before = await apiServerRequests(ctx.env);
  const result = await action();
  const delta = requestDelta(before, await apiServerRequests(ctx.env));
  const sum = (entries: Array<[string, number]>): number => entries.reduce((total, [, n]) => total + n, 0);
  return {
    result,
    applies: delta['APPLY applications'] ?? 0,
    requests: sum(Object.entries(delta)),
    writes: sum(Object.entries(delta).filter(([key]) => !/^(GET|LIST|WATCH) /.test(key))),
    byVerbAndResource: delta,
  };
}

/** CPU seconds per process over a phase: the API server, etcd, the replicas and this benchmark process. */
export interface PhaseCpu {
  readonly apiServer: number;
  readonly etcd: number;
  readonly replicas: number;
  readonly benchmark: number;
}

/**
 * Starts counting CPU seconds of the servers, `replicaPids` and this process; the returned function
 * stops and reports. On a machine where every process shares the cores this says where a phase's
 * time went: what the controller spends is taken from the API server.
 */
export function cpuMeter(ctx: BenchContext, replicaPids: readonly number[] = []): () => PhaseCpu {
  const read = (): PhaseCpu => ({
    apiServer: cpuSeconds(ctx.env.apiServer.process.pid ?? 0),
    etcd: cpuSeconds(ctx.env.etcd.process.pid ?? 0),
    replicas: replicaPids.reduce((sum, pid) => sum + cpuSeconds(pid), 0),
    benchmark: cpuSeconds(process.pid),
  });
  const before = read();
  return () => {
    const after = read();
    return {
      apiServer: round(after.apiServer - before.apiServer, 1),
      etcd: round(after.etcd - before.etcd, 1),
      replicas: round(after.replicas - before.replicas, 1),
      benchmark: round(after.benchmark - before.benchmark, 1),
    };
  };
}

/** What every phase needs. */
export interface BenchContext {
  readonly env: TestEnvironment;
  readonly kc: TestKubeConfig;
  /** The harness's own keep-alive way to the API server (its clears). */
  readonly transport: KubeTransport;
  readonly repo: GitRepo;
  readonly options: SystemBenchOptions;
  readonly signal: AbortSignal;
}

/** Runs `run` with a context on a private environment holding the workload's repository; stops the environment after. */
export async function withBenchContext<T>(options: SystemBenchOptions, run: (ctx: BenchContext) => Promise<T>): Promise<T> {
  const env = await TestEnvironment.start();
  const abort = new AbortController();
  try {
    const info = env.info();
    const repo = await createWorkloadRepo(new GitFixtures(info.gitRoot, info.gitHttpBaseUrl), 'workload', shapeOf(options));
    const kc = testKubeConfig(env.apiServer.kubeconfigPath);
    return await run({ env, kc, transport: createKubeTransport(kc), repo, options, signal: abort.signal });
  } finally {
    abort.abort();
    await env.stop(process.env.SYSTEM_BENCH_KEEP_RUN === '1'); // keep the logs for a post-mortem
  }
}

const shapeOf = (options: SystemBenchOptions): WorkloadShape => ({ appSets: options.appSets, appsPerSet: options.appsPerSet });

/** A namespace with the workload's manifests, what they should render to, and a watch on its Applications. */
export async function workloadNamespace(ctx: BenchContext, name: string, revision: string, webhookSecret?: string) {
  await prepareNamespace(ctx.kc, name, ctx.env.info(), webhookSecret);
  const manifests = workloadManifests(shapeOf(ctx.options), name, ctx.repo.httpUrl, revision);
  const expected = await renderExpected(manifests, ctx.repo.httpUrl, ctx.repo.barePath);
  const watching = new AbortController();
  const watch = new ConvergenceWatch(ctx.kc, name, AbortSignal.any([ctx.signal, watching.signal]));
  await watch.ready();
  watch.expect(expected);
  return { name, manifests, expected, watch, stopWatching: () => watching.abort() };
}

/**
 * Deletes a finished phase's Applications and ApplicationSets (its controller already stopped) and waits
 * until they are gone and the cluster is quiet, so every converge phase starts with only its own objects
 * (docs/benchmarks.md: the effect of leftovers was not separable from the run-to-run spread of the
 * ceiling, but no phase should pay for another's objects).
 */
export async function clearNamespace(ctx: BenchContext, space: Awaited<ReturnType<typeof workloadNamespace>>): Promise<void> {
  space.stopWatching();
  const collection = (plural: string): string => `/apis/argoproj.io/v1alpha1/namespaces/${pathSegment(space.name)}/${plural}`;
  // Every step is safe to repeat; the API server, busy with the mass delete, sometimes drops the
  // connection of the one large list (seen once in a probe: "socket hang up"), so a failure tries again.
  // The Applications go first, while their owners exist: deleting the ApplicationSets first left every
  // Application to the garbage collector, which then read each one (GET, about 40 a second) for minutes,
  // into the next phases' measurements. No controller runs here any more to recreate them.
  await waitFor(
    async () => {
      await deleteApplications(ctx, space.name);
      await ctx.transport.send({ method: 'DELETE', path: collection('applicationsets') });
      return true;
    },
    { what: `namespace ${space.name} to be cleared`, timeoutMs: 900_000, intervalMs: 1000 },
  );
  const left = async (plural: string): Promise<number> =>
    (await ctx.transport.request<{ items: unknown[] }>({ method: 'GET', path: collection(plural), query: { limit: 1 } })).items.length;
  await waitFor(async () => (await left('applications')) + (await left('applicationsets')) === 0, {
    what: `namespace ${space.name} to be empty`,
    timeoutMs: 300_000,
  });
  await settle(ctx);
}

/** The names of the Applications of `namespace` matching `labelSelector`, listed in pages. */
async function applicationNames(transport: KubeTransport, path: string, labelSelector: string | undefined): Promise<string[]> {
  const names: string[] = [];
  let next: string | undefined;
  do {
    const page = await transport.request<{ items: Array<{ metadata: { name: string } }>; metadata: { continue?: string } }>({
      method: 'GET',
      path,
      query: { labelSelector, limit: 5000, continue: next },
    });
    names.push(...page.items.map((item) => item.metadata.name));
    next = page.metadata.continue || undefined;
  } while (next);
  return names;
}

/** Rethrows anything but a 404: an object already gone needs no patch and no delete. */
function unlessNotFound(error: unknown): void {
  if (!(error instanceof KubeApiError) || error.status !== 404) throw error;
}

/**
 * Deletes the Applications of `namespace` (those matching `labelSelector`, if given), each after dropping the
 * Argo CD resources finalizer the workload sets, since no Argo CD runs here to remove it. Safe to repeat.
 * One by one, 100 in flight, not one deletecollection: at 50,000 Applications a deletecollection outlasts
 * the API server's 60 s request timeout (each try marked about a tenth), and a clear took 15 minutes.
 */
async function deleteApplications(ctx: BenchContext, namespace: string, labelSelector?: string): Promise<true> {
  const { transport } = ctx;
  const path = `/apis/argoproj.io/v1alpha1/namespaces/${namespace}/applications`;
  const names = await applicationNames(transport, path, labelSelector);
  await pool(
    names.map((name) => async () => {
      const one = `${path}/${pathSegment(name)}`;
      await transport.send({ method: 'PATCH', path: one, body: { metadata: { finalizers: null } }, contentType: MERGE_PATCH }).catch(unlessNotFound);
      await transport.send({ method: 'DELETE', path: one }).catch(unlessNotFound);
    }),
    100,
  );
  return true;
}

/** Name prefix of the warm-up workload's ApplicationSets (`wup-000`, ...). */
const WARM_UP_PREFIX = 'wup';

/**
 * Gives freshly started replicas the work of a small workload before the clock starts, then takes it
 * away: `--warm-up-app-sets` ApplicationSets of the same kinds converge in the phase's namespace, are
 * deleted with their Applications, and the cluster settles. The ceiling's client runs in this process,
 * warm from the rounds before; a controller in production has run long before a wave of ApplicationSets
 * arrives. Afterwards the replicas' caches hold nothing of the warm-up, and the namespace is empty again.
 */
export async function warmUp(ctx: BenchContext, space: Awaited<ReturnType<typeof workloadNamespace>>): Promise<void> {
  const sets = ctx.options.warmUpAppSets;
  if (sets === 0) return;
  const manifests = workloadManifests({ appSets: sets, appsPerSet: ctx.options.appsPerSet }, space.name, ctx.repo.httpUrl, 'v1', WARM_UP_PREFIX);
  await createAppSets(ctx.kc, manifests);
  // Every set makes appsPerSet Applications (the git-directory ones list the repository's appsPerSet folders).
  const count = sets * ctx.options.appsPerSet;
  await waitFor(() => space.watch.extras().length >= count, {
    what: `the warm-up's ${count} Applications`,
    timeoutMs: ctx.options.convergeTimeoutSeconds * 1000,
  });
  const names = manifests.map((m) => m.metadata.name);
  const appsets = `/apis/argoproj.io/v1alpha1/namespaces/${space.name}/applicationsets`;
  await waitFor(
    async () => {
      await pool(
        names.map((name) => () => ctx.transport.send({ method: 'DELETE', path: `${appsets}/${pathSegment(name)}` }).catch(unlessNotFound)),
        10,
      );
      return deleteApplications(ctx, space.name, `bench.appset/set in (${names.join(',')})`);
    },
    { what: 'the warm-up to be deleted', timeoutMs: 300_000, intervalMs: 1000 },
  );
  await waitFor(() => space.watch.extras().length === 0, { what: 'the warm-up Applications to be gone', timeoutMs: 300_000 });
  await settle(ctx);
}

/** CPU (cores) of the API server, etcd and kube-controller-manager under which the cluster counts as settled between phases. */
const SETTLE_CORES = 0.2;

/**
 * Waits until the API server, etcd and kube-controller-manager together use under {@link SETTLE_CORES}
 * cores over a second (at most two minutes): after a mass delete the controller manager's garbage
 * collector and the API server's watchers keep working for a while, and the next phase must not pay for it.
 */
async function settle(ctx: BenchContext): Promise<void> {
  const pids = [ctx.env.apiServer.process.pid, ctx.env.etcd.process.pid, ctx.env.controllerManager.process.pid].map((pid) => pid ?? 0);
  const used = (): number => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const deadline = Date.now() + 120_000;
  for (let before = used(); Date.now() < deadline;) {
    await sleep(1000);
    const now = used();
    if (now - before < SETTLE_CORES) return;
    before = now;
  }
}

/**
 * Waits until every ApplicationSet of `namespace` reports `ResourcesUpToDate` and none of them changed for a second.
 * Not timed: the converge is the Applications. But a controller's status writes are work of the phase, and this
 * one writes them after the Applications still waiting (src/controller/status/status-after-writes.ts), so the
 * phase's requests and CPU are read once they are written, for every controller alike. Not "all Applications in
 * `status.resources`": Argo CD v3.2.6 left it out on half the benchmark's ApplicationSets (seen in session 33).
 */
export async function statusesReported(ctx: BenchContext, namespace: string): Promise<void> {
  const path = `/apis/argoproj.io/v1alpha1/namespaces/${pathSegment(namespace)}/applicationsets`;
  type Listed = { items: Array<{ metadata: { resourceVersion?: string }; status?: { conditions?: Array<{ type: string; status: string }> } }> };
  let before = '';
  await waitFor(
    async () => {
      const { items } = await ctx.transport.request<Listed>({ method: 'GET', path });
      const versions = items.map((appset) => appset.metadata.resourceVersion).join(',');
      const reported = items.every((appset) => appset.status?.conditions?.some((c) => c.type === 'ResourcesUpToDate' && c.status === 'True'));
      const settled = reported && versions === before;
      before = versions;
      return settled;
    },
    { what: `the status of every ApplicationSet in ${namespace} to be written and settle`, timeoutMs: 180_000, intervalMs: 1000 },
  );
}

/** Seconds the ceiling client takes to server-side apply every expected Application of a fresh namespace. */
export async function ceilingCreate(ctx: BenchContext, concurrency: number, namespace = 'ceiling') {
  const space = await workloadNamespace(ctx, namespace, 'v1');
  const appsets = await createAppSets(ctx.kc, space.manifests);
  const objects = ceilingObjects(space.expected, appsets);
  const cpu = cpuMeter(ctx);
  const { result: elapsedMs, ...requests } = await countRequests(ctx, async () => {
    const start = performance.now();
    await applyAll(ctx.kc, objects, concurrency);
    return (await space.watch.converged(ctx.options.convergeTimeoutSeconds * 1000, 'ceiling')) - start;
  });
  return { space, appsets, seconds: round(elapsedMs / 1000), cpu: cpu(), ...requests };
}

/** Seconds the ceiling client takes to apply the update wave (revision `v2`) over the ceiling namespace. */
export async function ceilingUpdate(ctx: BenchContext, ceiling: Awaited<ReturnType<typeof ceilingCreate>>, concurrency: number): Promise<number> {
  const manifests = workloadManifests(shapeOf(ctx.options), ceiling.space.name, ctx.repo.httpUrl, 'v2');
  const expected = await renderExpected(manifests, ctx.repo.httpUrl, ctx.repo.barePath);
  ceiling.space.watch.expect(expected);
  const start = performance.now();
  await applyAll(ctx.kc, ceilingObjects(expected, ceiling.appsets), concurrency);
  return round(((await ceiling.space.watch.converged(ctx.options.convergeTimeoutSeconds * 1000, 'ceiling update')) - start) / 1000);
}

/** Starts `count` replicas sharing the reconcile budget, all watching `namespace`. */
export async function startReplicas(ctx: BenchContext, namespace: string, count: number, extraArgs: readonly string[] = []): Promise<ReplicaProcess[]> {
  const each = ctx.options.totalReconciles / count;
  const replicas: ReplicaProcess[] = [];
  for (let i = 0; i < count; i++) {
    replicas.push(
      await ReplicaProcess.start({
        name: `${namespace}-replica-${i}`,
        kubeconfigPath: ctx.env.apiServer.kubeconfigPath,
        namespace,
        redisUrl: ctx.env.redis.url,
        logDir: ctx.env.run.logDir,
        gitCacheDir: mkdtempSync(join(ctx.env.run.root, `git-cache-${namespace}-${i}-`)),
        args: [`--concurrent-reconciliations=${each}`, ...extraArgs],
      }),
    );
  }
  return replicas;
}

/** How a controller phase runs its replicas. */
export interface ControllerPhaseOptions {
  readonly namespace?: string;
  /** The webhook Secret's value: the replicas serve signed webhooks. */
  readonly webhookSecret?: string;
  /** Warm the replicas up before the clock starts (see {@link warmUp}). */
  readonly warm?: boolean;
  /**
   * The replicas' `--resync-period`. Omitted: the controller's default (10 minutes, what the chart ships),
   * so no full resync of every ApplicationSet lands inside a measured converge or update wave.
   */
  readonly resyncPeriod?: string;
}

/**
 * Seconds from creating every ApplicationSet to every Application being equal to the render, with `count`
 * replicas, started cold or warm (see {@link warmUp}).
 */
export async function controllerCreate(ctx: BenchContext, count: number, options: ControllerPhaseOptions = {}) {
  const space = await workloadNamespace(ctx, options.namespace ?? `controller-${count}`, 'v1', options.webhookSecret);
  const flags = [...(options.webhookSecret ? ['--webhook-secret=hooks'] : []), ...(options.resyncPeriod ? [`--resync-period=${options.resyncPeriod}`] : [])];
  const replicas = await startReplicas(ctx, space.name, count, flags);
  if (options.warm) await warmUp(ctx, space);
  const cpu = cpuMeter(
    ctx,
    replicas.map((r) => r.process.pid ?? 0),
  );
  // The clock runs inside the count, so reading the API server's metrics is not timed.
  const { result: elapsedMs, ...requests } = await countRequests(ctx, async () => {
    const start = performance.now();
    await createAppSets(ctx.kc, space.manifests);
    const elapsed = (await space.watch.converged(ctx.options.convergeTimeoutSeconds * 1000, `${count} replica(s)`)) - start;
    await statusesReported(ctx, space.name);
    return elapsed;
  });
  const pids = replicas.map((r) => r.process.pid ?? 0);
  return { space, replicas, seconds: round(elapsedMs / 1000), ...requests, cpu: cpu(), rssMiB: pids.map(rssMiB), peakRssMiB: pids.map(peakRssMiB) };
}

/** Seconds from changing the revision in every ApplicationSet to every Application carrying it, and the applies it took. */
export async function controllerUpdate(
  ctx: BenchContext,
  run: { space: Awaited<ReturnType<typeof workloadNamespace>> },
  pids: readonly number[] = [],
): Promise<{ seconds: number; cpu: PhaseCpu } & PhaseRequests> {
  const manifests = workloadManifests(shapeOf(ctx.options), run.space.name, ctx.repo.httpUrl, 'v2');
  run.space.watch.expect(await renderExpected(manifests, ctx.repo.httpUrl, ctx.repo.barePath));
  const cpu = cpuMeter(ctx, pids);
  const { result: elapsedMs, ...requests } = await countRequests(ctx, async () => {
    const start = performance.now();
    await setRevision(ctx.kc, manifests, 'v2');
    return (await run.space.watch.converged(ctx.options.convergeTimeoutSeconds * 1000, 'update wave')) - start;
  });
  return { seconds: round(elapsedMs / 1000), ...requests, cpu: cpu() };
}

/** What the idle phase reads of a running controller process, this project's replica or Argo CD's controller. */
export type MeteredController = Pick<ReplicaProcess, 'metrics'> & { readonly process: { readonly pid: number | undefined } };

/** The sum of one series over the replicas' metrics (e.g. `argocd_appset_reconcile_count`: the reconciles run so far). */
async function metricSum(replicas: readonly MeteredController[], series: string): Promise<number> {
  let sum = 0;
  for (const replica of replicas) sum += seriesSum(await replica.metrics(), series);
  return sum;
}

/** The sum of every sample of `series` (all its labels) in one Prometheus text. */
export function seriesSum(text: string, series: string): number {
  let sum = 0;
  for (const line of text.split('\n')) if (line.startsWith(series)) sum += Number(line.split(' ').pop());
  return sum;
}

/**
 * CPU (cores) of the replicas and the API server, API requests per minute, and the reconciles run while
 * nothing changes (the resync's): CPU-seconds per 1,000 reconciles is what a full resync of 1,000
 * ApplicationSets costs the replicas (an upper bound: their idle baseline, leases and polls, is in it).
 */
export async function idleCost(ctx: BenchContext, replicas: readonly MeteredController[], helperPids: readonly number[] = []) {
  // The first resync after a converge still reconciles every key in full (each fingerprint was taken before
  // that reconcile's own writes), so the window starts once it is over: what is measured is the steady state.
  const settleSeconds = parseDurationMs(ctx.options.resyncPeriod) / 1000 + 15;
  await sleep(settleSeconds * 1000);
  const pids = replicas.map((r) => r.process.pid ?? 0);
  const helperCpuBefore = helperPids.map(cpuSeconds);
  const resyncCpuBefore = await Promise.all(replicas.map((r) => metricSum([r], 'appset_resync_cpu_seconds_total')));
  const apiPid = ctx.env.apiServer.process.pid ?? 0;
  const cpuBefore = pids.map(cpuSeconds);
  const apiCpuBefore = cpuSeconds(apiPid);
  const requestsBefore = await apiServerRequests(ctx.env);
  const reconcilesBefore = await metricSum(replicas, 'argocd_appset_reconcile_count');
  const unchangedBefore = await metricSum(replicas, 'appset_reconciles_unchanged_total');
  const leftOutBefore = await metricSum(replicas, 'appset_resync_unchanged_total');
  await sleep(ctx.options.idleSeconds * 1000);
  const reconciles = (await metricSum(replicas, 'argocd_appset_reconcile_count')) - reconcilesBefore;
  const unchanged = (await metricSum(replicas, 'appset_reconciles_unchanged_total')) - unchangedBefore;
  const leftOut = (await metricSum(replicas, 'appset_resync_unchanged_total')) - leftOutBefore;
  const resyncCpu = await Promise.all(replicas.map(async (r, i) => (await metricSum([r], 'appset_resync_cpu_seconds_total')) - (resyncCpuBefore[i] ?? 0)));
  // What one full resync of 1,000 ApplicationSets costs each replica: its CPU over the window, per resync period, scaled.
  const periods = ctx.options.idleSeconds / (parseDurationMs(ctx.options.resyncPeriod) / 1000);
  const perResyncOf1000 = (cpu: number): number => round(cpu / periods / (ctx.options.appSets / 1000), 3);
  const replicaCpuSeconds = pids.map((pid, i) => cpuSeconds(pid) - (cpuBefore[i] ?? 0));
  const requests = requestDelta(requestsBefore, await apiServerRequests(ctx.env));
  const minutes = ctx.options.idleSeconds / 60;
  const perMinute = Object.fromEntries(Object.entries(requests).map(([key, n]) => [key, round(n / minutes, 1)]));
  const ours = Object.entries(requests).filter(([key]) => /applications|applicationsets|events/.test(key));
  const writes = ours.filter(([key]) => !/^(GET|LIST|WATCH) /.test(key)).reduce((sum, [, n]) => sum + n, 0);
  return {
    seconds: ctx.options.idleSeconds,
    replicaCores: replicaCpuSeconds.map((s) => round(s / ctx.options.idleSeconds, 4)),
    /** Processes beside the controller's (Argo CD's repo-server). */
    helperCores: helperPids.map((pid, i) => round((cpuSeconds(pid) - (helperCpuBefore[i] ?? 0)) / ctx.options.idleSeconds, 4)),
    apiServerCores: round((cpuSeconds(apiPid) - apiCpuBefore) / ctx.options.idleSeconds, 4),
    requestsPerMinuteAll: round(Object.values(requests).reduce((a, b) => a + b, 0) / minutes, 1),
    requestsPerMinuteArgoprojAndEvents: round(ours.reduce((sum, [, n]) => sum + n, 0) / minutes, 1),
    requestsPerMinuteByVerbResource: perMinute,
    reconciles,
    /** Of those, the ones that stopped after generating (the first after a converge still runs in full). */
    unchanged,
    /** Keys the resync left out of the queue: their inputs were those of their last successful reconcile. */
    resyncLeftOut: leftOut,
    resyncPeriods: round(periods, 2),
    settleSecondsBeforeWindow: settleSeconds,
    /** Each replica's whole CPU per resync period, per 1,000 ApplicationSets: an upper bound (its idle baseline and the generators' polls are in it). */
    replicaCpuSecondsPerResyncOf1000AppSets: replicaCpuSeconds.map(perResyncOf1000),
    /** The resync's own cost on each replica (appset_resync_cpu_seconds_total: the look at every key), per full resync of 1,000 ApplicationSets. */
    resyncCpuSecondsPerResyncOf1000AppSets: resyncCpu.map(perResyncOf1000),
    writesToApplicationsApplicationSetsEvents: writes,
    replicaCpuSecondsPer1000Reconciles: reconciles > 0 ? round((replicaCpuSeconds.reduce((a, b) => a + b, 0) / reconciles) * 1000, 3) : Number.NaN,
  };
}

/** Push → Application present latencies (ms) over `pushes` signed GitHub pushes, alternating replicas. */
export async function webhookLatency(
  ctx: BenchContext,
  namespace: string,
  replicas: ReadonlyArray<{ readonly port: number }>,
  secret: string,
  hooks: GitRepo,
): Promise<number[]> {
  const custom = ctx.kc.makeApiClient(CustomObjectsApi);
  const G = { group: 'argoproj.io', version: 'v1alpha1' };
  const spec = {
    generators: [{ git: { repoURL: hooks.httpUrl, revision: 'HEAD', requeueAfterSeconds: 3600, directories: [{ path: 'apps/*' }] } }],
    template: {
      metadata: { name: 'hooked-{{path.basename}}' },
      spec: {
        project: 'default',
        source: { repoURL: hooks.httpUrl, targetRevision: 'HEAD', path: '{{path}}' },
        destination: { server: 'https://kubernetes.default.svc', namespace: '{{path.basename}}' },
      },
    },
  };
  await custom.createNamespacedCustomObject({
    ...G,
    namespace,
    plural: 'applicationsets',
    body: { apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', metadata: { name: 'hooked' }, spec },
  });
  const exists = (name: string) =>
    custom.getNamespacedCustomObject({ ...G, namespace, plural: 'applications', name }).then(
      () => true,
      () => false,
    );
  await waitFor(() => exists('hooked-base'), { what: 'the webhook ApplicationSet to converge', timeoutMs: 120_000 });
  const latencies: number[] = [];
  for (let i = 0; i < ctx.options.pushes; i++) {
    await hooks.commit({ [`apps/push-${i}/kustomization.yaml`]: 'resources: []\n' }, `push ${i}`);
    const body = JSON.stringify({ ref: 'refs/heads/main', repository: { html_url: hooks.httpUrl.replace(/\.git$/, ''), default_branch: 'main' } });
    const replica = replicas[i % replicas.length];
    const start = performance.now();
    const response = await fetch(`http://127.0.0.1:${replica?.port ?? 0}/api/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'push',
        'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
      },
      body,
    });
    // This controller answers 202 (queued), Argo CD's 200.
    if (!response.ok) throw new Error(`webhook answered ${response.status}: ${await response.text()}`);
    await waitFor(() => exists(`hooked-push-${i}`), { what: `the Application of push ${i}`, timeoutMs: 60_000, intervalMs: 20 });
    latencies.push(round(performance.now() - start, 1));
  }
  return latencies;
}

/** Unhandled errors in the replicas' logs (none expected); stops them. */
export async function stopReplicas(replicas: readonly ReplicaProcess[]): Promise<number> {
  const errors = replicas.flatMap((r) => unhandledErrors(r.logLines()));
  await Promise.all(replicas.map((r) => r.process.stop('SIGTERM', 30_000)));
  return errors.length;
}
