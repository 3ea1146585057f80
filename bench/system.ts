// System benchmark: 100 ApplicationSets x 100 Applications (list and git-directory generators) on a
// private real environment. Converge time with 1 and 2 controller replicas (child processes, BullMQ on
// Redis) against the ceiling (a plain client server-side applying the same objects with the same
// number of writes in flight), the same for an update wave, idle cost with resync on, memory per
// replica, and webhook push -> Application latency. Sizes are flags: see bench/system-options.ts.
import { loadKubeConfig } from '../src/kube/kubeconfig.js';
import { TestEnvironment } from '../test/env/environment.js';
import { GitFixtures } from '../test/env/git-fixtures.js';
import { rssMiB } from '../test/system/proc-stats.js';
import { createWorkloadRepo } from '../test/system/workload.js';
import { machineInfo, writeBenchResults } from './results-file.js';
import { readSystemBenchOptions } from './system-options.js';
import { ceilingCreate, ceilingUpdate, clearNamespace, controllerCreate, controllerUpdate, idleCost, stopReplicas, webhookLatency, WRITES_PER_RECONCILE, type BenchContext } from './system-phases.js';

const WEBHOOK_SECRET = 'system-bench-webhook-secret';
const ratio = (a: number, b: number): number => Math.round((a / b) * 100) / 100;
const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};
const progress = (text: string): void => void process.stderr.write(`[system bench ${new Date().toISOString().slice(11, 19)}] ${text}\n`);

async function measure(ctx: BenchContext) {
  const writesInFlight = ctx.options.totalReconciles * WRITES_PER_RECONCILE;
  progress(`ceiling: ${ctx.options.appSets * ctx.options.appsPerSet} server-side applies, ${writesInFlight} in flight`);
  // Every converge and update phase runs with only its own namespace's objects in the cluster: each
  // phase's namespace is emptied before the next starts (see clearNamespace).
  const ceiling = await ceilingCreate(ctx, writesInFlight);
  progress(`ceiling took ${ceiling.seconds} s; ceiling update wave`);
  const updateCeiling = await ceilingUpdate(ctx, ceiling, writesInFlight);
  await clearNamespace(ctx, ceiling.space);
  progress(`ceiling update took ${updateCeiling} s; controller with 1 replica`);
  const one = await controllerCreate(ctx, 1);
  const oneErrors = await stopReplicas(one.replicas);
  await clearNamespace(ctx, one.space);
  progress(`1 replica took ${one.seconds} s; controller with 2 replicas`);
  const two = await controllerCreate(ctx, 2, WEBHOOK_SECRET);
  progress(`2 replicas took ${two.seconds} s; update wave`);
  const updateController = await controllerUpdate(ctx, two);
  progress(`update wave: controller ${updateController} s, ceiling ${updateCeiling} s; idle for ${ctx.options.idleSeconds} s`);
  const memoryAfterUpdate = two.replicas.map((r) => (r.process.pid ? rssMiB(r.process.pid) : Number.NaN));
  const idle = await idleCost(ctx, two.replicas);
  progress(`webhook: ${ctx.options.pushes} pushes`);
  const hooks = await new GitFixtures(ctx.env.info().gitRoot, ctx.env.info().gitHttpBaseUrl).createRepo('hooks', { 'apps/base/kustomization.yaml': 'resources: []\n' });
  const latencies = await webhookLatency(ctx, two.space.name, two.replicas, WEBHOOK_SECRET, hooks);
  const twoErrors = await stopReplicas(two.replicas);
  return {
    writesInFlight,
    converge: {
      ceilingSeconds: ceiling.seconds,
      oneReplicaSeconds: one.seconds,
      twoReplicasSeconds: two.seconds,
      ratioOneReplica: ratio(one.seconds, ceiling.seconds),
      ratioTwoReplicas: ratio(two.seconds, ceiling.seconds),
      // CPU seconds per process over each converge: on shared cores, where the time went.
      cpuSeconds: { ceiling: ceiling.cpu, oneReplica: one.cpu, twoReplicas: two.cpu },
    },
    updateWave: { ceilingSeconds: updateCeiling, twoReplicasSeconds: updateController, ratioTwoReplicas: ratio(updateController, updateCeiling) },
    idle,
    memoryMiB: { oneReplicaAfterConverge: one.rssMiB, twoReplicasAfterConverge: two.rssMiB, twoReplicasAfterUpdateWave: memoryAfterUpdate },
    webhook: { pushes: latencies.length, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), latenciesMs: latencies },
    unhandledErrorsInLogs: oneErrors + twoErrors,
  };
}

async function main(): Promise<void> {
  const options = readSystemBenchOptions(process.argv.slice(2));
  progress(`starting a private environment (${options.appSets} ApplicationSets x ${options.appsPerSet} Applications)`);
  const env = await TestEnvironment.start();
  const abort = new AbortController();
  try {
    const info = env.info();
    const repo = await createWorkloadRepo(new GitFixtures(info.gitRoot, info.gitHttpBaseUrl), 'workload', { appSets: options.appSets, appsPerSet: options.appsPerSet });
    const figures = await measure({ env, kc: loadKubeConfig(env.apiServer.kubeconfigPath), repo, options, signal: abort.signal });
    const machine = machineInfo();
    const result = { options, applications: options.appSets * options.appsPerSet, ...figures };
    printTable(result, `${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.cpuModel}`);
    if (options.write) progress(`results written to ${writeBenchResults('system', result)}`);
  } finally {
    abort.abort();
    await env.stop(process.env.SYSTEM_BENCH_KEEP_RUN === '1'); // keep the logs for a post-mortem
  }
}

function printTable(r: Awaited<ReturnType<typeof measure>> & { applications: number }, machine: string): void {
  const rows: Array<[string, string]> = [
    ['machine (shared by every process of the run)', machine],
    ['Applications', String(r.applications)],
    ['writes in flight (controller total = ceiling)', String(r.writesInFlight)],
    ['converge, 1 replica ÷ ceiling', `${r.converge.ratioOneReplica} (${r.converge.oneReplicaSeconds} s ÷ ${r.converge.ceilingSeconds} s)`],
    ['converge, 2 replicas ÷ ceiling', `${r.converge.ratioTwoReplicas} (${r.converge.twoReplicasSeconds} s ÷ ${r.converge.ceilingSeconds} s)`],
    ...(['ceiling', 'oneReplica', 'twoReplicas'] as const).map((phase): [string, string] => {
      const cpu = r.converge.cpuSeconds[phase];
      return [`converge CPU s, ${phase}: apiserver / etcd / replicas / bench`, `${cpu.apiServer} / ${cpu.etcd} / ${cpu.replicas} / ${cpu.benchmark}`];
    }),
    ['update wave, 2 replicas ÷ ceiling', `${r.updateWave.ratioTwoReplicas} (${r.updateWave.twoReplicasSeconds} s ÷ ${r.updateWave.ceilingSeconds} s)`],
    ['idle CPU per replica (cores)', r.idle.replicaCores.join(', ')],
    ['idle kube-apiserver CPU (cores)', String(r.idle.apiServerCores)],
    ['idle API requests/min (argoproj + events / all)', `${r.idle.requestsPerMinuteArgoprojAndEvents} / ${r.idle.requestsPerMinuteAll}`],
    ['memory per replica, MiB (1 replica; 2 replicas)', `${r.memoryMiB.oneReplicaAfterConverge.join(', ')}; ${r.memoryMiB.twoReplicasAfterConverge.join(', ')}`],
    ['webhook push -> Application p50 / p99 (ms)', `${r.webhook.p50Ms} / ${r.webhook.p99Ms}`],
    ['unhandled errors in controller logs', String(r.unhandledErrorsInLogs)],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  process.stdout.write(rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n') + '\n');
}

await main();
