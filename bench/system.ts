// System benchmark: 100 ApplicationSets x 100 Applications (list and git-directory generators) on a
// private real environment. Converge time with 1 and 2 controller replicas (child processes, BullMQ on
// Redis) against the ceiling (a plain client server-side applying the same objects with the same
// number of writes in flight), the same for an update wave, idle cost with resync on, memory per
// replica, and webhook push -> Application latency. Sizes are flags: see bench/system-options.ts.
import { GitFixtures } from '../src/environment/local/git-fixtures.js';
import { peakRssMiB, rssMiB } from '../test/system/proc-stats.js';
import { argoCdBinaries, ARGOCD_CONFIG_ENV, ARGOCD_VERSION, type ArgoCdBinaries, type ArgoCdConfig } from '../test/system/argocd-process.js';
import { argoCdCreate, argoCdUpdate } from './system-argocd-phases.js';
import { machineInfo, writeBenchResults } from './results-file.js';
import { readSystemBenchOptions } from './system-options.js';
import { median, roundTo } from './statistics.js';
import {
  ceilingCreate,
  ceilingUpdate,
  clearNamespace,
  controllerCreate,
  controllerUpdate,
  idleCost,
  stopReplicas,
  withBenchContext,
  webhookLatency,
  WRITES_PER_RECONCILE,
  type BenchContext,
  type PhaseCpu,
} from './system-phases.js';

const WEBHOOK_SECRET = 'system-bench-webhook-secret';
const ratio = (a: number, b: number): number => roundTo(a / b);
const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};
const progress = (text: string): void => void process.stderr.write(`[system bench ${new Date().toISOString().slice(11, 19)}] ${text}\n`);

/** One round: the ceiling, one replica and two replicas, each a create and then an update wave on an emptied cluster. */
interface CreateRound {
  ceilingSeconds: number;
  oneReplicaSeconds: number;
  twoReplicasSeconds: number;
  /** One replica ÷ this round's ceiling. */
  ratio: number;
  /** Two replicas ÷ this round's ceiling. */
  ratioTwoReplicas: number;
  cpuSeconds: { ceiling: PhaseCpu; oneReplica: PhaseCpu; twoReplicas: PhaseCpu };
  /** The update wave over the same namespace right after its create: seconds, and ÷ this round's ceiling update. */
  update: { ceilingSeconds: number; oneReplicaSeconds: number; twoReplicasSeconds: number; ratioOneReplica: number; ratioTwoReplicas: number };
  /** Server-side applies of Applications the API server served for each controller phase (ideal: one per Application). */
  applies: { oneReplica: number; twoReplicas: number; oneReplicaUpdate: number; twoReplicasUpdate: number };
  /** This controller's phases as Argo CD's are measured, for the side-by-side figures. */
  ours: { oneReplica: ControllerFigures; twoReplicas: ControllerFigures };
  /** Argo CD's controller in each configuration run (see bench/system-argocd.ts). */
  argocd: Partial<Record<ArgoCdConfig, ControllerFigures>>;
}

/** One controller phase of a round, ours or Argo CD's, in the units the side-by-side compares. */
interface ControllerFigures {
  seconds: number;
  updateSeconds: number;
  /** API requests and writes (not GET, LIST or WATCH) per Application, the benchmark's own few included. */
  perApplication: { requests: number; writes: number; updateRequests: number; updateWrites: number };
  /** CPU seconds of the controller's processes (Argo CD: the controller alone, its repo-server beside it). */
  cpuSeconds: { create: number; update: number; repoServerCreate?: number; repoServerUpdate?: number };
  /** Resident MiB per controller process: after the converge (everything cached), and the peak after the update wave. */
  rssMiB: { afterConverge: number[]; peak: number[]; repoServerAfterConverge?: number; repoServerPeak?: number };
}

/** The phases of a round: the ceiling, this controller with one and two replicas, and Argo CD's configurations. */
type PhaseName = 'ceiling' | 'one' | 'two' | ArgoCdConfig;

/**
 * The order round `r` runs the phases in: rotated each round, so no phase always meets the cluster right
 * after the same neighbour's clean-up, and a drift over the run touches every phase alike.
 */
function phaseOrder(r: number, argocd: readonly ArgoCdConfig[]): PhaseName[] {
  const phases: PhaseName[] = ['ceiling', 'one', 'two', ...argocd];
  const shift = r % phases.length;
  return [...phases.slice(shift), ...phases.slice(0, shift)];
}

/**
 * The create comparison: `--rounds` rounds of the ceiling, one replica, two replicas and Argo CD's controller
 * in each `--argocd` configuration, the order rotated each round (see {@link phaseOrder}). A single ceiling
 * varies by about ±30 % between identical runs here (docs/benchmarks.md), hence rounds, ratios within a round
 * and a median. Every phase follows its create with the update wave over the same namespace (since session
 * 7; before, the update wave was one sample after the rounds, and it spread 1.07-1.53 between runs).
 */
async function createRounds(ctx: BenchContext, writesInFlight: number, argoCd: ArgoCdBinaries | undefined) {
  // Warm-up, not measured: on a fresh API server the same 10,000 applies cost it about 24 CPU-s, after
  // the first mass delete 33-43 (docs/benchmarks.md). The controller never meets a fresh server, so
  // neither does the ceiling.
  progress('warm-up: one ceiling converge and its clean-up, not measured');
  await clearNamespace(ctx, (await ceilingCreate(ctx, writesInFlight, 'warm-up')).space);
  const applications = ctx.options.appSets * ctx.options.appsPerSet;
  const perApp = (n: number): number => roundTo(n / applications, 3);
  type Counted = { readonly requests: number; readonly writes: number };
  /** API requests and writes per Application of a converge and its update wave. */
  const perApplication = (run: Counted, update: Counted) => ({
    requests: perApp(run.requests),
    writes: perApp(run.writes),
    updateRequests: perApp(update.requests),
    updateWrites: perApp(update.writes),
  });
  const rounds: CreateRound[] = [];
  const argoCdErrors: string[] = [];
  let errors = 0;
  let oneReplicaRss: number[] = [];
  let twoReplicasRssAfterUpdate: number[] = [];
  for (let r = 0; r < ctx.options.rounds; r++) {
    const runCeiling = async () => {
      progress(
        `round ${r + 1}/${ctx.options.rounds}: ceiling, ${ctx.options.appSets * ctx.options.appsPerSet} server-side applies, ${writesInFlight} in flight`,
      );
      const ceiling = await ceilingCreate(ctx, writesInFlight, `ceiling-${r}`);
      const updateSeconds = await ceilingUpdate(ctx, ceiling, writesInFlight);
      await clearNamespace(ctx, ceiling.space);
      return { ...ceiling, updateSeconds };
    };
    const runController = async (count: 1 | 2) => {
      progress(
        `round ${r + 1}/${ctx.options.rounds}: controller with ${count} replica(s)${ctx.options.warmUpAppSets > 0 ? `, warmed up on ${ctx.options.warmUpAppSets} ApplicationSets` : ', cold'}`,
      );
      // The controller's default resync (10 minutes): with the 1-minute stress setting of the idle phase, a
      // full resync of all 100 ApplicationSets landed inside every update wave that ended more than a minute
      // after its replicas started, re-rendering everything and re-applying what the cache had not seen yet.
      const run = await controllerCreate(ctx, count, { namespace: `controller-${count}-${r}`, warm: ctx.options.warmUpAppSets > 0 });
      const pids = run.replicas.map((replica) => replica.process.pid ?? 0);
      const update = await controllerUpdate(ctx, run, pids);
      const afterUpdate = pids.map(rssMiB);
      if (count === 1) oneReplicaRss = run.rssMiB;
      else twoReplicasRssAfterUpdate = afterUpdate;
      const figures: ControllerFigures = {
        seconds: run.seconds,
        updateSeconds: update.seconds,
        perApplication: perApplication(run, update),
        cpuSeconds: { create: run.cpu.replicas, update: update.cpu.replicas },
        rssMiB: { afterConverge: run.rssMiB, peak: pids.map(peakRssMiB) },
      };
      errors += await stopReplicas(run.replicas);
      await clearNamespace(ctx, run.space);
      return { ...run, updateSeconds: update.seconds, updateApplies: update.applies, figures };
    };
    const runArgoCd = async (config: ArgoCdConfig): Promise<ControllerFigures> => {
      if (!argoCd) throw new Error('Argo CD binaries were not built');
      progress(`round ${r + 1}/${ctx.options.rounds}: Argo CD ${ARGOCD_VERSION} (${config}), --concurrent-reconciliations=${ctx.options.totalReconciles}`);
      const run = await argoCdCreate(ctx, argoCd, { config, namespace: `argocd-${config}-${r}`, warm: ctx.options.warmUpAppSets > 0 });
      const update = await argoCdUpdate(ctx, run);
      argoCdErrors.push(...(await run.install.stop()));
      await clearNamespace(ctx, run.space);
      return {
        seconds: run.seconds,
        updateSeconds: update.seconds,
        perApplication: perApplication(run, update),
        cpuSeconds: {
          create: run.cpu.replicas,
          update: update.cpu.replicas,
          repoServerCreate: run.repoServerCpuSeconds,
          repoServerUpdate: update.repoServerCpuSeconds,
        },
        rssMiB: {
          afterConverge: [run.rssMiB.controller],
          peak: [update.peakRssMiB.controller],
          repoServerAfterConverge: run.rssMiB.repoServer,
          repoServerPeak: update.peakRssMiB.repoServer,
        },
      };
    };
    const done: Partial<{
      ceiling: Awaited<ReturnType<typeof runCeiling>>;
      one: Awaited<ReturnType<typeof runController>>;
      two: Awaited<ReturnType<typeof runController>>;
    }> = {};
    const argocd: Partial<Record<ArgoCdConfig, ControllerFigures>> = {};
    for (const phase of phaseOrder(r, ctx.options.argocd)) {
      if (phase === 'ceiling') done.ceiling = await runCeiling();
      else if (phase === 'one' || phase === 'two') done[phase] = await runController(phase === 'one' ? 1 : 2);
      else argocd[phase] = await runArgoCd(phase);
    }
    const { ceiling, one, two } = done;
    if (!ceiling || !one || !two) throw new Error(`round ${r + 1} missed a phase`);
    rounds.push({
      ceilingSeconds: ceiling.seconds,
      oneReplicaSeconds: one.seconds,
      twoReplicasSeconds: two.seconds,
      ratio: ratio(one.seconds, ceiling.seconds),
      ratioTwoReplicas: ratio(two.seconds, ceiling.seconds),
      cpuSeconds: { ceiling: ceiling.cpu, oneReplica: one.cpu, twoReplicas: two.cpu },
      applies: { oneReplica: one.applies, twoReplicas: two.applies, oneReplicaUpdate: one.updateApplies, twoReplicasUpdate: two.updateApplies },
      update: {
        ceilingSeconds: ceiling.updateSeconds,
        oneReplicaSeconds: one.updateSeconds,
        twoReplicasSeconds: two.updateSeconds,
        ratioOneReplica: ratio(one.updateSeconds, ceiling.updateSeconds),
        ratioTwoReplicas: ratio(two.updateSeconds, ceiling.updateSeconds),
      },
      ours: { oneReplica: one.figures, twoReplicas: two.figures },
      argocd,
    });
    progress(
      `round ${r + 1}: ceiling ${ceiling.seconds} s, 1 replica ${one.seconds} s (${ratio(one.seconds, ceiling.seconds)}), 2 replicas ${two.seconds} s (${ratio(two.seconds, ceiling.seconds)}); ` +
        `update wave: ceiling ${ceiling.updateSeconds} s, 1 replica ${one.updateSeconds} s (${ratio(one.updateSeconds, ceiling.updateSeconds)}), 2 replicas ${two.updateSeconds} s (${ratio(two.updateSeconds, ceiling.updateSeconds)})` +
        Object.entries(argocd)
          .map(([config, a]) => `; Argo CD ${config}: ${a.seconds} s, update ${a.updateSeconds} s`)
          .join(''),
    );
  }
  return { rounds, errors, oneReplicaRss, twoReplicasRssAfterUpdate, argoCdErrors };
}

/**
 * The idle phase alone (`--idle-only`): 2 cold replicas converge once, then nothing changes; then, with
 * `--argocd`, Argo CD's controller in the first configuration the same way, and the ratios. A window of
 * several minutes is needed against Argo CD: it requeues git generators every 3 minutes, so a 1-minute
 * window catches that work or misses it.
 */
async function measureIdleOnly(ctx: BenchContext) {
  progress('idle only: controller with 2 cold replicas');
  const two = await controllerCreate(ctx, 2, { resyncPeriod: ctx.options.resyncPeriod });
  progress(`2 cold replicas took ${two.seconds} s; idle for ${ctx.options.idleSeconds} s`);
  const idle = await idleCost(ctx, two.replicas);
  printIdle(idle); // now, so a failure in Argo CD's phase does not lose it
  const unhandledErrorsInLogs = await stopReplicas(two.replicas);
  const config = ctx.options.argocd[0];
  if (!config) return { convergeSeconds: two.seconds, idle, unhandledErrorsInLogs };
  await clearNamespace(ctx, two.space);
  const argoCd = await argoCdIdleAndWebhook(ctx, await argoCdBinaries(), config);
  return {
    convergeSeconds: two.seconds,
    idle,
    unhandledErrorsInLogs,
    argoCd: { config, idle: argoCd.idle, ...idleVersusArgoCd(idle, argoCd.idle), errorLinesInLogs: argoCd.errorLines.length },
  };
}

/** This controller's idle figures, both replicas together, as ratios to Argo CD's controller's (and with its repo-server). */
function idleVersusArgoCd(ours: Awaited<ReturnType<typeof idleCost>>, argoCd: Awaited<ReturnType<typeof idleCost>>) {
  const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);
  return {
    requestsPerMinute: roundTo(ours.requestsPerMinuteAll / argoCd.requestsPerMinuteAll),
    cores: roundTo(sum(ours.replicaCores) / sum(argoCd.replicaCores)),
    coresVsControllerAndRepoServer: roundTo(sum(ours.replicaCores) / (sum(argoCd.replicaCores) + sum(argoCd.helperCores))),
  };
}

async function measure(ctx: BenchContext, argoCd: ArgoCdBinaries | undefined) {
  const writesInFlight = ctx.options.totalReconciles * WRITES_PER_RECONCILE;
  // Every phase runs with only its own namespace's objects in the cluster (see clearNamespace).
  const { rounds, errors: oneErrors, oneReplicaRss, twoReplicasRssAfterUpdate, argoCdErrors } = await createRounds(ctx, writesInFlight, argoCd);
  const ceilingSeconds = roundTo(median(rounds.map((r) => r.ceilingSeconds)));
  // Two replicas once more, started cold (no warm-up: the first converge of a fresh install), kept
  // running for the idle cost and the webhook.
  progress('controller with 2 cold replicas, kept for the idle cost and webhooks');
  const two = await controllerCreate(ctx, 2, { webhookSecret: WEBHOOK_SECRET, resyncPeriod: ctx.options.resyncPeriod });
  progress(`2 cold replicas took ${two.seconds} s; idle for ${ctx.options.idleSeconds} s`);
  const idle = await idleCost(ctx, two.replicas);
  progress(`webhook: ${ctx.options.pushes} pushes`);
  const hooks = await new GitFixtures(ctx.env.info().gitRoot, ctx.env.info().gitHttpBaseUrl).createRepo('hooks', {
    'apps/base/kustomization.yaml': 'resources: []\n',
  });
  const latencies = await webhookLatency(ctx, two.space.name, two.replicas, WEBHOOK_SECRET, hooks);
  const twoErrors = await stopReplicas(two.replicas);
  const argoCdIdle = argoCd && ctx.options.argocd[0] ? await argoCdIdleAndWebhook(ctx, argoCd, ctx.options.argocd[0]) : undefined;
  if (argoCdIdle) argoCdErrors.push(...argoCdIdle.errorLines);
  const webhook = { pushes: latencies.length, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), latenciesMs: latencies };
  return {
    writesInFlight,
    converge: {
      ceilingSeconds,
      oneReplicaSeconds: roundTo(median(rounds.map((r) => r.oneReplicaSeconds))),
      twoReplicasSeconds: roundTo(median(rounds.map((r) => r.twoReplicasSeconds))),
      ratioOneReplica: roundTo(median(rounds.map((r) => r.ratio))),
      ratioTwoReplicas: roundTo(median(rounds.map((r) => r.ratioTwoReplicas))),
      // The phase after the rounds (its replicas serve the update wave): its time ÷ the median ceiling.
      lastTwoReplicasSeconds: two.seconds,
      ratioLastTwoReplicas: ratio(two.seconds, ceilingSeconds),
      // Each round's figures, with CPU seconds per process over each converge: on shared cores, where the time went.
      rounds,
      lastTwoReplicasCpuSeconds: two.cpu,
      lastTwoReplicasApplies: two.applies,
    },
    updateWave: {
      ceilingSeconds: roundTo(median(rounds.map((r) => r.update.ceilingSeconds))),
      oneReplicaSeconds: roundTo(median(rounds.map((r) => r.update.oneReplicaSeconds))),
      twoReplicasSeconds: roundTo(median(rounds.map((r) => r.update.twoReplicasSeconds))),
      ratioOneReplica: roundTo(median(rounds.map((r) => r.update.ratioOneReplica))),
      ratioTwoReplicas: roundTo(median(rounds.map((r) => r.update.ratioTwoReplicas))),
    },
    idle,
    memoryMiB: { oneReplicaAfterConverge: oneReplicaRss, twoReplicasAfterConverge: two.rssMiB, twoReplicasAfterUpdateWave: twoReplicasRssAfterUpdate },
    webhook,
    unhandledErrorsInLogs: oneErrors + twoErrors,
    ...(argoCd ? { argoCd: argoCdSummary(ctx, rounds, { idle, webhook }, argoCdIdle, argoCdErrors) } : {}),
  };
}

/**
 * Argo CD's controller (in `config`) started cold in a namespace of its own, kept running for the idle cost
 * and its webhook endpoint, as this controller's two replicas are after the rounds.
 */
async function argoCdIdleAndWebhook(ctx: BenchContext, binaries: ArgoCdBinaries, config: ArgoCdConfig) {
  progress(`Argo CD (${config}) cold, kept for the idle cost and webhooks`);
  const run = await argoCdCreate(ctx, binaries, { config, namespace: `argocd-idle-${config}`, warm: false, webhookSecret: WEBHOOK_SECRET });
  progress(`Argo CD took ${run.seconds} s; idle for ${ctx.options.idleSeconds} s`);
  const idle = await idleCost(ctx, [run.install], [run.install.pids[1]]);
  progress(`Argo CD webhook: ${ctx.options.pushes} pushes`);
  const hooks = await new GitFixtures(ctx.env.info().gitRoot, ctx.env.info().gitHttpBaseUrl).createRepo('hooks-argocd', {
    'apps/base/kustomization.yaml': 'resources: []\n',
  });
  const latencies = await webhookLatency(ctx, run.space.name, [run.install], WEBHOOK_SECRET, hooks);
  const errorLines = await run.install.stop();
  return {
    config,
    convergeSeconds: run.seconds,
    idle,
    webhook: { pushes: latencies.length, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), latenciesMs: latencies },
    errorLines,
  };
}

/**
 * The side-by-side figures: every one of this controller's (and the ceiling's times) as a ratio to Argo CD's
 * in the same round, the median over the rounds, per Argo CD configuration.
 */
function argoCdSummary(
  ctx: BenchContext,
  rounds: readonly CreateRound[],
  ours: { idle: Awaited<ReturnType<typeof idleCost>>; webhook: { p50Ms: number; p99Ms: number } },
  argoCdIdle: Awaited<ReturnType<typeof argoCdIdleAndWebhook>> | undefined,
  errorLines: readonly string[],
) {
  const med = (values: number[]): number => roundTo(median(values));
  const versus = (config: ArgoCdConfig) => {
    const paired = rounds.flatMap((round) => {
      const argo = round.argocd[config];
      return argo ? [{ round, argo }] : [];
    });
    const against = (pick: (round: CreateRound) => ControllerFigures) => {
      const perRound = (of: (ours: ControllerFigures, argo: ControllerFigures) => number): number[] => paired.map(({ round, argo }) => of(pick(round), argo));
      // This controller does its git work in-process; Argo CD's repo-server does it beside the controller.
      const cpuByRound = perRound((ours, argo) => ours.cpuSeconds.create / argo.cpuSeconds.create);
      return {
        converge: med(perRound((ours, argo) => ours.seconds / argo.seconds)),
        updateWave: med(perRound((ours, argo) => ours.updateSeconds / argo.updateSeconds)),
        requestsPerApplication: med(perRound((ours, argo) => ours.perApplication.requests / argo.perApplication.requests)),
        writesPerApplication: med(perRound((ours, argo) => ours.perApplication.writes / argo.perApplication.writes)),
        updateWritesPerApplication: med(perRound((ours, argo) => ours.perApplication.updateWrites / argo.perApplication.updateWrites)),
        cpuSecondsVsController: med(cpuByRound),
        // Per round too: a round's ratio carries the host's spread from both of its phases (docs/benchmarks.md, session 30).
        cpuSecondsVsControllerByRound: cpuByRound.map((value) => roundTo(value)),
        updateCpuSecondsVsController: med(perRound((ours, argo) => ours.cpuSeconds.update / argo.cpuSeconds.update)),
        cpuSecondsVsControllerAndRepoServer: med(
          perRound((ours, argo) => ours.cpuSeconds.create / (argo.cpuSeconds.create + (argo.cpuSeconds.repoServerCreate ?? 0))),
        ),
        // Per process: the largest replica against Argo CD's one controller.
        rssAfterConverge: med(perRound((ours, argo) => Math.max(...ours.rssMiB.afterConverge) / Math.max(...argo.rssMiB.afterConverge))),
        peakRss: med(perRound((ours, argo) => Math.max(...ours.rssMiB.peak) / Math.max(...argo.rssMiB.peak))),
      };
    };
    return {
      rounds: paired.length,
      argoCd: {
        seconds: med(paired.map(({ argo }) => argo.seconds)),
        updateSeconds: med(paired.map(({ argo }) => argo.updateSeconds)),
        cpuSecondsCreate: med(paired.map(({ argo }) => argo.cpuSeconds.create)),
        repoServerCpuSecondsCreate: med(paired.map(({ argo }) => argo.cpuSeconds.repoServerCreate ?? 0)),
        rssMiBAfterConverge: med(paired.map(({ argo }) => argo.rssMiB.afterConverge[0] ?? Number.NaN)),
        peakRssMiB: med(paired.map(({ argo }) => argo.rssMiB.peak[0] ?? Number.NaN)),
      },
      ceiling: {
        converge: med(paired.map(({ round, argo }) => round.ceilingSeconds / argo.seconds)),
        updateWave: med(paired.map(({ round, argo }) => round.update.ceilingSeconds / argo.updateSeconds)),
      },
      oneReplica: against((round) => round.ours.oneReplica),
      twoReplicas: against((round) => round.ours.twoReplicas),
    };
  };
  const idleVersus = argoCdIdle
    ? {
        config: argoCdIdle.config,
        argoCd: { idle: argoCdIdle.idle, webhook: argoCdIdle.webhook, convergeSeconds: argoCdIdle.convergeSeconds },
        ...idleVersusArgoCd(ours.idle, argoCdIdle.idle),
        webhookP50: roundTo(ours.webhook.p50Ms / argoCdIdle.webhook.p50Ms),
        webhookP99: roundTo(ours.webhook.p99Ms / argoCdIdle.webhook.p99Ms),
      }
    : undefined;
  return {
    version: ARGOCD_VERSION,
    concurrentReconciliations: ctx.options.totalReconciles,
    configs: Object.fromEntries(ctx.options.argocd.map((config) => [config, { environment: ARGOCD_CONFIG_ENV[config], versus: versus(config) }])),
    idleAndWebhook: idleVersus,
    errorLinesInLogs: errorLines.length,
    firstErrorLines: errorLines.slice(0, 5),
  };
}

async function main(): Promise<void> {
  const options = readSystemBenchOptions(process.argv.slice(2));
  progress(`starting a private environment (${options.appSets} ApplicationSets x ${options.appsPerSet} Applications)`);
  await withBenchContext(options, async (ctx) => {
    if (options.idleOnly) {
      const idleOnly = { options, applications: options.appSets * options.appsPerSet, ...(await measureIdleOnly(ctx)) };
      if (idleOnly.argoCd) {
        printIdle(idleOnly.argoCd.idle);
        progress(`against Argo CD (${idleOnly.argoCd.config}): requests per minute ${idleOnly.argoCd.requestsPerMinute}, cores ${idleOnly.argoCd.cores}`);
      }
      if (options.write) progress(`results written to ${writeBenchResults(options.resultsName === 'system' ? 'system-idle' : options.resultsName, idleOnly)}`);
      return;
    }
    const argoCd = options.argocd.length > 0 ? await argoCdBinaries() : undefined;
    const figures = await measure(ctx, argoCd);
    const machine = machineInfo();
    const result = { options, applications: options.appSets * options.appsPerSet, ...figures };
    printTable(result, `${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.cpuModel}`);
    if (options.write) progress(`results written to ${writeBenchResults(options.resultsName, result)}`);
  });
}

function printTable(r: Awaited<ReturnType<typeof measure>> & { applications: number }, machine: string): void {
  const rows: Array<[string, string]> = [
    ['machine (shared by every process of the run)', machine],
    ['Applications', String(r.applications)],
    ['writes in flight (controller total = ceiling)', String(r.writesInFlight)],
    [
      'converge, 1 replica ÷ ceiling (median of rounds)',
      `${r.converge.ratioOneReplica} (rounds: ${r.converge.rounds.map((x) => `${x.oneReplicaSeconds} s ÷ ${x.ceilingSeconds} s = ${x.ratio}`).join('; ')})`,
    ],
    [
      'converge, 2 replicas ÷ ceiling (median of rounds)',
      `${r.converge.ratioTwoReplicas} (rounds: ${r.converge.rounds.map((x) => `${x.twoReplicasSeconds} s ÷ ${x.ceilingSeconds} s = ${x.ratioTwoReplicas}`).join('; ')})`,
    ],
    [
      'converge, 2 cold replicas after the rounds ÷ median ceiling',
      `${r.converge.ratioLastTwoReplicas} (${r.converge.lastTwoReplicasSeconds} s ÷ ${r.converge.ceilingSeconds} s)`,
    ],
    ...r.converge.rounds.flatMap((round, i): Array<[string, string]> =>
      (['ceiling', 'oneReplica', 'twoReplicas'] as const).map((phase): [string, string] => {
        const cpu = round.cpuSeconds[phase];
        return [
          `converge CPU s, round ${i + 1} ${phase}: apiserver / etcd / replicas / bench`,
          `${cpu.apiServer} / ${cpu.etcd} / ${cpu.replicas} / ${cpu.benchmark}`,
        ];
      }),
    ),
    [
      'converge CPU s, 2 replicas after the rounds: apiserver / etcd / replicas / bench',
      `${r.converge.lastTwoReplicasCpuSeconds.apiServer} / ${r.converge.lastTwoReplicasCpuSeconds.etcd} / ${r.converge.lastTwoReplicasCpuSeconds.replicas} / ${r.converge.lastTwoReplicasCpuSeconds.benchmark}`,
    ],
    [
      'update wave, 1 replica ÷ ceiling (median of rounds)',
      `${r.updateWave.ratioOneReplica} (rounds: ${r.converge.rounds.map((x) => `${x.update.oneReplicaSeconds} s ÷ ${x.update.ceilingSeconds} s = ${x.update.ratioOneReplica}`).join('; ')})`,
    ],
    [
      'update wave, 2 replicas ÷ ceiling (median of rounds)',
      `${r.updateWave.ratioTwoReplicas} (rounds: ${r.converge.rounds.map((x) => `${x.update.twoReplicasSeconds} s ÷ ${x.update.ceilingSeconds} s = ${x.update.ratioTwoReplicas}`).join('; ')})`,
    ],
    [
      'applies per Application, create / update wave, 1 replica (rounds)',
      r.converge.rounds.map((x) => `${roundTo(x.applies.oneReplica / r.applications)} / ${roundTo(x.applies.oneReplicaUpdate / r.applications)}`).join('; '),
    ],
    [
      'applies per Application, create / update wave, 2 replicas (rounds)',
      r.converge.rounds.map((x) => `${roundTo(x.applies.twoReplicas / r.applications)} / ${roundTo(x.applies.twoReplicasUpdate / r.applications)}`).join('; '),
    ],
    ...idleRows(r.idle),
    [
      'memory per replica, MiB (1 replica; 2 replicas)',
      `${r.memoryMiB.oneReplicaAfterConverge.join(', ')}; ${r.memoryMiB.twoReplicasAfterConverge.join(', ')}`,
    ],
    ['webhook push -> Application p50 / p99 (ms)', `${r.webhook.p50Ms} / ${r.webhook.p99Ms}`],
    ['unhandled errors in controller logs', String(r.unhandledErrorsInLogs)],
    ...(r.argoCd ? argoCdRows(r.argoCd) : []),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  process.stdout.write(rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n') + '\n');
}

/** The side-by-side rows: Argo CD's own figures, then this controller's as ratios to them (medians of rounds). */
function argoCdRows(a: ReturnType<typeof argoCdSummary>): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  for (const [config, { versus: v }] of Object.entries(a.configs)) {
    const label = `Argo CD ${a.version} ${config}`;
    rows.push(
      [`${label}: converge / update wave (s)`, `${v.argoCd.seconds} / ${v.argoCd.updateSeconds}`],
      [`${label}: CPU s controller / repo-server (create)`, `${v.argoCd.cpuSecondsCreate} / ${v.argoCd.repoServerCpuSecondsCreate}`],
      [`${label}: controller RSS MiB converged / peak`, `${v.argoCd.rssMiBAfterConverge} / ${v.argoCd.peakRssMiB}`],
      [`ceiling ÷ ${label}: converge / update wave`, `${v.ceiling.converge} / ${v.ceiling.updateWave}`],
    );
    for (const [who, x] of [
      ['1 replica', v.oneReplica],
      ['2 replicas', v.twoReplicas],
    ] as const) {
      rows.push(
        [`${who} ÷ ${label}: converge / update wave`, `${x.converge} / ${x.updateWave}`],
        [`${who} ÷ ${label}: requests / writes per Application`, `${x.requestsPerApplication} / ${x.writesPerApplication}`],
        [
          `${who} ÷ ${label}: CPU s vs controller / vs + repo-server`,
          `${x.cpuSecondsVsController} / ${x.cpuSecondsVsControllerAndRepoServer} (rounds: ${x.cpuSecondsVsControllerByRound.join(', ')})`,
        ],
        [`${who} ÷ ${label}: update wave CPU s vs controller`, `${x.updateCpuSecondsVsController}`],
        [`${who} ÷ ${label}: RSS converged / peak (largest process)`, `${x.rssAfterConverge} / ${x.peakRss}`],
      );
    }
  }
  const i = a.idleAndWebhook;
  if (i) {
    rows.push(
      [
        `Argo CD ${i.config}: idle requests/min, controller / repo-server cores`,
        `${i.argoCd.idle.requestsPerMinuteAll}, ${i.argoCd.idle.replicaCores.join(', ')} / ${i.argoCd.idle.helperCores.join(', ')}`,
      ],
      [`Argo CD ${i.config}: webhook push -> Application p50 / p99 (ms)`, `${i.argoCd.webhook.p50Ms} / ${i.argoCd.webhook.p99Ms}`],
      [
        `2 replicas ÷ Argo CD ${i.config}: idle requests/min / idle cores / webhook p50, p99`,
        `${i.requestsPerMinute} / ${i.cores} / ${i.webhookP50}, ${i.webhookP99}`,
      ],
    );
  }
  rows.push(['error lines in Argo CD logs', String(a.errorLinesInLogs)]);
  return rows;
}

/** The idle phase's rows of the printed table. */
function idleRows(idle: Awaited<ReturnType<typeof idleCost>>): Array<[string, string]> {
  return [
    ['idle CPU per replica (cores)', idle.replicaCores.join(', ')],
    ['idle kube-apiserver CPU (cores)', String(idle.apiServerCores)],
    ['idle API requests/min (argoproj + events / all)', `${idle.requestsPerMinuteArgoprojAndEvents} / ${idle.requestsPerMinuteAll}`],
    [
      'idle reconciles (resync) / of them unchanged / writes to argoproj + events',
      `${idle.reconciles} / ${idle.unchanged} / ${idle.writesToApplicationsApplicationSetsEvents}`,
    ],
    ['idle replica CPU-s per 1,000 reconciles', String(idle.replicaCpuSecondsPer1000Reconciles)],
    ['idle keys the resync left out of the queue (inputs unchanged)', String(idle.resyncLeftOut)],
    [
      `idle replica CPU-s per resync period per 1,000 ApplicationSets, all work (${idle.resyncPeriods} periods)`,
      idle.replicaCpuSecondsPerResyncOf1000AppSets.join(', '),
    ],
    ['idle resync CPU-s per full resync of 1,000 ApplicationSets, per replica', idle.resyncCpuSecondsPerResyncOf1000AppSets.join(', ')],
  ];
}

function printIdle(idle: Awaited<ReturnType<typeof idleCost>>): void {
  const rows = idleRows(idle);
  const width = Math.max(...rows.map(([k]) => k.length));
  process.stdout.write(rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n') + '\n');
}

await main();
