// The system benchmark's phases for Argo CD's own ApplicationSet controller: the same workload, API
// server and measurements as this controller's phases (bench/system-phases.ts), with Argo CD run by
// bench/system-argocd.ts.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { peakRssMiB, rssMiB } from '../test/system/proc-stats.js';
import { createAppSets } from '../test/system/cluster-setup.js';
import { ArgoCdInstall, prepareArgoCdNamespace, type ArgoCdBinaries, type ArgoCdConfig } from '../test/system/argocd-process.js';
import { controllerUpdate, countRequests, cpuMeter, statusesReported, warmUp, workloadNamespace, type BenchContext } from './system-phases.js';
import { roundTo as round } from './statistics.js';
import { coldArgoCdBinaries } from './page-cache.js';

/** Redis databases 1-15 go round the Argo CD phases (the controller's queue uses database 0). */
let nextRedisDb = 0;

/** How an Argo CD phase runs. */
export interface ArgoCdPhaseOptions {
  readonly config: ArgoCdConfig;
  readonly namespace: string;
  /** Warm the controller up before the clock starts, as this controller's phases are (see warmUp). */
  readonly warm: boolean;
  /** The GitHub webhook secret in argocd-secret (a random one if not given). */
  readonly webhookSecret?: string;
}

/**
 * Seconds from creating every ApplicationSet to every Application being equal to the render, with Argo CD's
 * controller (and its repo-server) started in `namespace` as its control-plane namespace; the requests,
 * CPU and memory of the converge.
 */
export async function argoCdCreate(ctx: BenchContext, binaries: ArgoCdBinaries, options: ArgoCdPhaseOptions) {
  const space = await workloadNamespace(ctx, options.namespace, 'v1');
  await prepareArgoCdNamespace(ctx.kc, space.name, options.webhookSecret ?? randomBytes(16).toString('hex'));
  await coldArgoCdBinaries(binaries);
  const install = await ArgoCdInstall.start({
    name: `${options.namespace}-argocd`,
    binaries,
    config: options.config,
    kubeconfigPath: ctx.env.apiServer.kubeconfigPath,
    namespace: space.name,
    redisUrl: ctx.env.redis.url,
    redisDb: (nextRedisDb++ % 15) + 1,
    concurrentReconciliations: ctx.options.totalReconciles,
    logDir: ctx.env.run.logDir,
    workDir: join(ctx.env.run.root, `argocd-${options.namespace}`),
  });
  if (options.warm) await warmUp(ctx, space);
  const [controllerPid, repoServerPid] = install.pids;
  const cpu = cpuMeter(ctx, [controllerPid]);
  const repoServerCpu = cpuMeter(ctx, [repoServerPid]);
  const { result: elapsedMs, ...requests } = await countRequests(ctx, async () => {
    const start = performance.now();
    await createAppSets(ctx.kc, space.manifests);
    const elapsed = (await space.watch.converged(ctx.options.convergeTimeoutSeconds * 1000, `Argo CD (${options.config})`)) - start;
    await statusesReported(ctx, space.name);
    return elapsed;
  });
  return {
    space,
    install,
    seconds: round(elapsedMs / 1000),
    ...requests,
    cpu: cpu(),
    repoServerCpuSeconds: repoServerCpu().replicas,
    rssMiB: { controller: rssMiB(controllerPid), repoServer: rssMiB(repoServerPid) },
  };
}

/** The update wave over an Argo CD phase's namespace: seconds, requests, CPU, and memory afterwards (peak since start). */
export async function argoCdUpdate(ctx: BenchContext, run: Awaited<ReturnType<typeof argoCdCreate>>) {
  const [controllerPid, repoServerPid] = run.install.pids;
  const repoServerCpu = cpuMeter(ctx, [repoServerPid]);
  const update = await controllerUpdate(ctx, run, [controllerPid]);
  return {
    ...update,
    repoServerCpuSeconds: repoServerCpu().replicas,
    rssMiB: { controller: rssMiB(controllerPid), repoServer: rssMiB(repoServerPid) },
    peakRssMiB: { controller: peakRssMiB(controllerPid), repoServer: peakRssMiB(repoServerPid) },
  };
}
