// Where resident memory goes, this controller against Argo CD's own ApplicationSet controller (v3.2.6):
// one replica and one Argo CD install (controller + repo-server) on the same private environment, each in
// its own namespace, measured idle with nothing cached, then with the same workload converged. For each:
// resident memory split into anonymous and file-backed pages (/proc/<pid>/smaps_rollup: the program's own
// mapped code is file-backed), the live heap (this controller: a V8 heap snapshot, which collects garbage
// first; Argo CD: its Go runtime's figures on /metrics), and from the two states the heap and RSS per cached
// Application. This controller's heap is also broken down by what holds it, and by what grew. With nothing
// cached its heap is read from a twin replica watching an empty namespace (a snapshot raises RSS for good).
//   node dist/bench/memory-argocd.js [--app-sets 50] [--apps-per-set 100] [--settle-seconds 20] [--no-write]
//     [--results-name memory-argocd] (the file under bench/results/: lower-case letters, digits and dashes)
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { TestEnvironment } from '../src/environment/local/environment.js';
import { GitFixtures } from '../src/environment/local/git-fixtures.js';
import { waitFor } from '../src/environment/local/wait-for.js';
import { testKubeConfig } from '../test/env/test-kube-config.js';
import { coldArgoCdBinaries } from './page-cache.js';
import { argoCdBinaries, ArgoCdInstall, ARGOCD_VERSION, prepareArgoCdNamespace } from '../test/system/argocd-process.js';
import { createAppSets, prepareNamespace } from '../test/system/cluster-setup.js';
import { ReplicaProcess } from '../test/system/controller-process.js';
import { ConvergenceWatch } from '../test/system/convergence.js';
import { rssMiB } from '../test/system/proc-stats.js';
import { createWorkloadRepo, renderExpected, workloadManifests } from '../test/system/workload.js';
import { summarizeHeapSnapshot, type HeapSummary } from './heap-snapshot.js';
import { machineInfo, writeBenchResults } from './results-file.js';
import { resultsName } from './system-options.js';
import { roundTo } from './statistics.js';

const MIB = 2 ** 20;
const progress = (text: string): void => void process.stderr.write(`[memory bench ${new Date().toISOString().slice(11, 19)}] ${text}\n`);

/** Resident pages of a process by kind, MiB: anonymous (heaps, stacks) and file-backed (the mapped program and libraries). */
function residentByKind(pid: number): { rss: number; anon: number; file: number } {
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kib = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(text)?.[1] ?? Number.NaN);
  return { rss: roundTo(kib('Rss') / 1024, 1), anon: roundTo(kib('Anonymous') / 1024, 1), file: roundTo((kib('Rss') - kib('Anonymous')) / 1024, 1) };
}

/** Asks a replica started with --heapsnapshot-signal=SIGUSR2 for a snapshot and sums it (the snapshot collects garbage first). */
async function heapOf(pid: number, dir: string): Promise<HeapSummary> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  let file = '';
  let size = -1;
  // The replica writes the file while it is paused; it is complete when its size stops changing and it ends the JSON.
  await waitFor(
    () => {
      const fresh = readdirSync(dir).find((name) => !before.has(name) && name.endsWith('.heapsnapshot'));
      if (!fresh) return false;
      file = join(dir, fresh);
      const now = statSync(file).size;
      const done = now === size && now > 0 && readFileSync(file, 'utf8').trimEnd().endsWith('}');
      size = now;
      return done;
    },
    { what: `the heap snapshot of ${pid}`, timeoutMs: 300_000, intervalMs: 1000 },
  );
  try {
    return summarizeHeapSnapshot(file);
  } finally {
    rmSync(file, { force: true });
  }
}

/** One Prometheus series' value (no labels) from Argo CD's metrics text. */
function series(text: string, name: string): number {
  const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return match ? Number(match[1]) : Number.NaN;
}

/** Argo CD's Go heap from its controller's metrics, MiB: allocated (live and not yet collected), and the live heap GOGC=100 implies. */
async function goHeapOf(argo: ArgoCdInstall) {
  const text = await argo.metrics();
  const mib = (name: string): number => roundTo(series(text, name) / MIB, 1);
  return {
    heapAllocMiB: mib('go_memstats_heap_alloc_bytes'),
    heapInuseMiB: mib('go_memstats_heap_inuse_bytes'),
    heapIdleMiB: mib('go_memstats_heap_idle_bytes'),
    // The next collection is due at twice the live heap of the last one (GOGC=100).
    liveHeapEstimateMiB: roundTo(series(text, 'go_memstats_next_gc_bytes') / 2 / MIB, 1),
    runtimeSysMiB: mib('go_memstats_sys_bytes'),
  };
}

/**
 * The readings of one state. Writing a heap snapshot raises a replica's RSS for good, so the replica that
 * caches the workload (`replica`) gives its heap only at the end (`withHeap`); with nothing cached, the
 * heap comes from a twin replica watching an empty namespace (`heapFrom`).
 */
async function measure(replica: ReplicaProcess, argo: ArgoCdInstall, snapshotDir: string, heapFrom: ReplicaProcess) {
  const [argoPid, repoPid] = argo.pids;
  const ours = { resident: residentByKind(replica.process.pid ?? 0) };
  const theirs = { resident: residentByKind(argoPid), repoServer: residentByKind(repoPid), heap: await goHeapOf(argo) };
  const heap = await heapOf(heapFrom.process.pid ?? 0, snapshotDir);
  return { ours: { ...ours, liveHeapMiB: heap.totalMiB, heap }, argoCd: theirs };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'app-sets': { type: 'string' },
      'apps-per-set': { type: 'string' },
      'settle-seconds': { type: 'string' },
      'no-write': { type: 'boolean' },
      'results-name': { type: 'string' },
    },
  });
  const shape = { appSets: Number(values['app-sets'] ?? 50), appsPerSet: Number(values['apps-per-set'] ?? 100) };
  const settleMs = Number(values['settle-seconds'] ?? 20) * 1000;
  const results = resultsName(values['results-name'], 'memory-argocd');
  const applications = shape.appSets * shape.appsPerSet;
  if (!Number.isInteger(applications) || applications < 1) throw new Error('--app-sets and --apps-per-set must be positive integers');
  progress(`starting a private environment (${shape.appSets} ApplicationSets x ${shape.appsPerSet} Applications for each controller)`);
  const env = await TestEnvironment.start();
  const abort = new AbortController();
  const running: Array<() => Promise<unknown>> = [];
  try {
    const info = env.info();
    const kc = testKubeConfig(env.apiServer.kubeconfigPath);
    const repo = await createWorkloadRepo(new GitFixtures(info.gitRoot, info.gitHttpBaseUrl), 'workload', shape);
    const binaries = await argoCdBinaries();
    const [oursNs, argoNs] = ['memory-ours', 'memory-argocd'];
    for (const ns of [oursNs, argoNs]) await prepareNamespace(kc, ns, info);
    await prepareArgoCdNamespace(kc, argoNs, 'memory-webhook-secret');
    const snapshotDir = mkdtempSync(join(env.run.root, 'heap-'));
    const startReplica = async (name: string, namespace: string) => {
      const started = await ReplicaProcess.start({
        name,
        kubeconfigPath: env.apiServer.kubeconfigPath,
        namespace,
        redisUrl: env.redis.url,
        logDir: env.run.logDir,
        gitCacheDir: mkdtempSync(join(env.run.root, 'git-cache-')),
        args: ['--concurrent-reconciliations=10'],
        env: { NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${snapshotDir}` },
      });
      running.push(() => started.process.stop('SIGTERM', 30_000));
      return started;
    };
    const replica = await startReplica('memory-replica', oursNs);
    await prepareNamespace(kc, 'memory-ours-empty', info);
    const twin = await startReplica('memory-replica-empty', 'memory-ours-empty');
    await coldArgoCdBinaries(binaries);
    const argo = await ArgoCdInstall.start({
      name: 'memory-argocd',
      binaries,
      config: 'lifted',
      kubeconfigPath: env.apiServer.kubeconfigPath,
      namespace: argoNs,
      redisUrl: env.redis.url,
      redisDb: 1,
      concurrentReconciliations: 10,
      logDir: env.run.logDir,
      workDir: join(env.run.root, 'argocd-work'),
    });
    running.push(() => argo.stop());
    await sleep(settleMs);
    progress('measuring with nothing cached');
    const empty = await measure(replica, argo, snapshotDir, twin);
    await twin.process.stop('SIGTERM', 30_000);
    for (const ns of [oursNs, argoNs]) {
      const manifests = workloadManifests(shape, ns, repo.httpUrl, 'v1');
      const watch = new ConvergenceWatch(kc, ns, abort.signal);
      await watch.ready();
      watch.expect(await renderExpected(manifests, repo.httpUrl, repo.barePath));
      progress(`${ns}: creating ${shape.appSets} ApplicationSets`);
      await createAppSets(kc, manifests);
      await watch.converged(1_800_000, ns);
    }
    await sleep(settleMs);
    progress(`measuring with ${applications} Applications cached by each`);
    const full = await measure(replica, argo, snapshotDir, replica);
    const perApp = (a: number, b: number): number => roundTo(((b - a) * 1024) / applications, 2);
    const before = new Map(empty.ours.heap.byHolder.map((h) => [h.holder, h.mib]));
    const result = {
      argoCdVersion: ARGOCD_VERSION,
      /** Argo CD's binaries were dropped from the page cache before it started (bench/page-cache.ts). */
      argoCdStartedCold: true,
      applications,
      shape,
      empty: { ours: { ...empty.ours, heap: { ...empty.ours.heap, byHolder: empty.ours.heap.byHolder.slice(0, 15) } }, argoCd: empty.argoCd },
      full: { ours: { ...full.ours, heap: { ...full.ours.heap, byHolder: full.ours.heap.byHolder.slice(0, 15) } }, argoCd: full.argoCd },
      perApplicationKiB: {
        ours: { rss: perApp(empty.ours.resident.rss, full.ours.resident.rss), liveHeap: perApp(empty.ours.liveHeapMiB, full.ours.liveHeapMiB) },
        argoCd: {
          rss: perApp(empty.argoCd.resident.rss, full.argoCd.resident.rss),
          liveHeapEstimate: perApp(empty.argoCd.heap.liveHeapEstimateMiB, full.argoCd.heap.liveHeapEstimateMiB),
          heapAlloc: perApp(empty.argoCd.heap.heapAllocMiB, full.argoCd.heap.heapAllocMiB),
        },
      },
      oursHeapGrowthByHolder: full.ours.heap.byHolder
        .map((h) => ({ holder: h.holder, mib: roundTo(h.mib - (before.get(h.holder) ?? 0), 1), count: h.count }))
        .sort((a, b) => b.mib - a.mib)
        .slice(0, 15),
      replicaRssAfterSnapshotsMiB: rssMiB(replica.process.pid ?? 0),
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    if (values['no-write'] !== true) {
      const machine = machineInfo();
      progress(`results written to ${writeBenchResults(results, result)} (${machine.cores} cores)`);
    }
  } finally {
    abort.abort();
    for (const stop of running.reverse()) await stop().catch(() => undefined);
    await env.stop(process.env.SYSTEM_BENCH_KEEP_RUN === '1');
  }
}

await main();
