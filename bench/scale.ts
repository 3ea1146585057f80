// Five times the size (issue 25): by default 5,000 ApplicationSets x 10 Applications (50,000, half list, half
// git directories) on a private real environment. The ceiling (a plain client server-side applying the same
// objects), then this controller with one replica and with two, each converging an emptied cluster; CPU of
// every process per phase (which part gives out first); resident memory per replica; with the two replicas
// running: the time a restarted replica takes to list and sync its caches (until /readyz), and the full
// resyncs that follow (the first after a converge reconciles every key once more, since each fingerprint
// was taken before that reconcile's own writes; the next finds nothing changed).
//   node dist/bench/scale.js [--app-sets 5000] [--apps-per-set 10] [--resync-period 3m] [--results-name system-scale] [--no-write]
import { setTimeout as sleep } from 'node:timers/promises';
import { parseDurationMs } from '../src/config/parsers.js';
import { peakRssMiB, rssMiB, cpuSeconds } from '../test/system/proc-stats.js';
import type { ReplicaProcess } from '../test/system/controller-process.js';
import { machineInfo, writeBenchResults } from './results-file.js';
import { readSystemBenchOptions } from './system-options.js';
import { roundTo } from './statistics.js';
import {
  ceilingCreate,
  clearNamespace,
  controllerCreate,
  seriesSum,
  stopReplicas,
  withBenchContext,
  WRITES_PER_RECONCILE,
  type BenchContext,
  type PhaseRequests,
} from './system-phases.js';

const progress = (text: string): void => void process.stderr.write(`[scale bench ${new Date().toISOString().slice(11, 19)}] ${text}\n`);

/** The flags with this benchmark's own defaults: 5,000 x 10 and a 3-minute resync (longer than a converge). */
function scaleArgs(argv: readonly string[]): string[] {
  const given = new Set(argv.filter((a) => a.startsWith('--')).map((a) => a.split('=')[0]));
  // The options are the system benchmark's; its Argo CD phase is not run here (docs/benchmarks.md, session 36),
  // so the flag would be taken and silently do nothing. `none` stays the recorded default.
  if (given.has('--argocd')) throw new Error('bench:scale does not run Argo CD; --argocd is a flag of bench:system');
  const defaults: Array<[string, string]> = [
    ['--app-sets', '5000'],
    ['--apps-per-set', '10'],
    ['--resync-period', '3m'],
    ['--argocd', 'none'],
    ['--results-name', 'system-scale'],
  ];
  return [...argv, ...defaults.filter(([flag]) => !given.has(flag)).flat()];
}

/** One full resync pass as the replicas' metrics saw it. */
interface ResyncPass {
  seconds: number;
  cpuSeconds: number;
  leftOut: number;
  reconcilesDuring: number;
}

/** Totals over both replicas of what a resync pass moves. */
async function resyncTotals(replicas: readonly ReplicaProcess[]) {
  // Each replica's metrics are read once; the five series come from the same scrape.
  const texts = await Promise.all(replicas.map((r) => r.metrics()));
  const sum = (name: string): number => texts.reduce((total, text) => total + seriesSum(text, name), 0);
  return {
    passes: sum('appset_resync_pass_seconds_count'),
    seconds: sum('appset_resync_pass_seconds_sum'),
    cpu: sum('appset_resync_cpu_seconds_total'),
    leftOut: sum('appset_resync_unchanged_total'),
    reconciles: sum('argocd_appset_reconcile_count'),
  };
}

/** Waits for resync passes until one leaves every key out (nothing changed), at most `most` passes. */
async function resyncPasses(ctx: BenchContext, replicas: readonly ReplicaProcess[], most: number): Promise<ResyncPass[]> {
  const periodMs = parseDurationMs(ctx.options.resyncPeriod);
  const passes: ResyncPass[] = [];
  let before = await resyncTotals(replicas);
  while (passes.length < most) {
    const deadline = performance.now() + 2 * periodMs + 60_000;
    let now = before;
    while (now.passes === before.passes) {
      if (performance.now() > deadline) throw new Error(`no resync pass within ${2 * periodMs + 60_000} ms`);
      await sleep(2_000);
      now = await resyncTotals(replicas);
    }
    const pass = {
      seconds: roundTo(now.seconds - before.seconds, 2),
      cpuSeconds: roundTo(now.cpu - before.cpu, 2),
      leftOut: now.leftOut - before.leftOut,
      reconcilesDuring: now.reconciles - before.reconciles,
    };
    passes.push(pass);
    progress(`resync pass ${passes.length}: ${pass.seconds} s, ${pass.cpuSeconds} CPU-s, ${pass.leftOut} keys left out`);
    before = now;
    if (pass.leftOut === ctx.options.appSets) break;
  }
  return passes;
}

/** Seconds a stopped replica takes from its start to /readyz (every cache listed and synced), and its RSS then. */
async function restart(replica: ReplicaProcess): Promise<{ syncSeconds: number; rssMiB: number; cpuSeconds: number }> {
  await replica.process.stop('SIGTERM', 30_000);
  const started = performance.now();
  await replica.start();
  const syncSeconds = roundTo((performance.now() - started) / 1000, 2);
  const pid = replica.process.pid ?? 0;
  return { syncSeconds, rssMiB: rssMiB(pid), cpuSeconds: cpuSeconds(pid) };
}

/** A phase's API requests per Application, and by verb and resource (the ApplicationSets' creation included in a controller's phase). */
function requestFigures(phase: PhaseRequests, applications: number) {
  return {
    perApplication: roundTo(phase.requests / applications, 3),
    writesPerApplication: roundTo(phase.writes / applications, 3),
    byVerbAndResource: phase.byVerbAndResource,
  };
}

async function measure(ctx: BenchContext) {
  const applications = ctx.options.appSets * ctx.options.appsPerSet;
  const writesInFlight = ctx.options.totalReconciles * WRITES_PER_RECONCILE;
  progress(`ceiling: ${applications} Applications, ${writesInFlight} applies in flight`);
  const ceiling = await ceilingCreate(ctx, writesInFlight, 'scale-ceiling');
  progress(`ceiling ${ceiling.seconds} s; clearing`);
  await clearNamespace(ctx, ceiling.space);
  progress('controller, 1 replica');
  const one = await controllerCreate(ctx, 1, { namespace: 'scale-1' });
  progress(`1 replica ${one.seconds} s (${roundTo(one.seconds / ceiling.seconds)}), RSS ${one.rssMiB.join(', ')} MiB; clearing`);
  const oneErrors = await stopReplicas(one.replicas);
  await clearNamespace(ctx, one.space);
  progress('controller, 2 replicas');
  const two = await controllerCreate(ctx, 2, { namespace: 'scale-2', resyncPeriod: ctx.options.resyncPeriod });
  const twoPids = two.replicas.map((r) => r.process.pid ?? 0);
  const twoRss = { converged: twoPids.map(rssMiB), peak: twoPids.map(peakRssMiB) };
  progress(`2 replicas ${two.seconds} s (${roundTo(two.seconds / ceiling.seconds)}), RSS ${twoRss.converged.join(', ')} MiB; restarting one`);
  const restarted = await restart(two.replicas[1] as ReplicaProcess);
  progress(`restarted replica ready after ${restarted.syncSeconds} s; waiting for full resyncs every ${ctx.options.resyncPeriod}`);
  const passes = await resyncPasses(ctx, two.replicas, 4);
  const rssAfterResyncs = two.replicas.map((r) => rssMiB(r.process.pid ?? 0));
  const twoErrors = await stopReplicas(two.replicas);
  return {
    writesInFlight,
    ceiling: { seconds: ceiling.seconds, cpu: ceiling.cpu, requests: requestFigures(ceiling, applications) },
    oneReplica: {
      seconds: one.seconds,
      ratio: roundTo(one.seconds / ceiling.seconds),
      cpu: one.cpu,
      rssMiB: one.rssMiB,
      peakRssMiB: one.peakRssMiB,
      applies: one.applies,
      requests: requestFigures(one, applications),
    },
    twoReplicas: {
      seconds: two.seconds,
      ratio: roundTo(two.seconds / ceiling.seconds),
      cpu: two.cpu,
      rssMiB: twoRss.converged,
      peakRssMiB: twoRss.peak,
      applies: two.applies,
      requests: requestFigures(two, applications),
    },
    restart: restarted,
    resyncPasses: passes,
    rssAfterResyncsMiB: rssAfterResyncs,
    unhandledErrorsInLogs: oneErrors + twoErrors,
  };
}

async function main(): Promise<void> {
  const options = readSystemBenchOptions(scaleArgs(process.argv.slice(2)));
  progress(`starting a private environment (${options.appSets} ApplicationSets x ${options.appsPerSet} Applications)`);
  const result = await withBenchContext(options, async (ctx) => ({
    options,
    applications: options.appSets * options.appsPerSet,
    machine: machineInfo(),
    ...(await measure(ctx)),
  }));
  console.log(JSON.stringify(result, null, 2));
  if (options.write) progress(`results written to ${writeBenchResults(options.resultsName, result)}`);
}

await main();
