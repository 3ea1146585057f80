// Chaos suite: two controller replicas (real child processes sharing BullMQ on Redis) converge 1,000
// Applications on a private environment while faults hit them: a replica is SIGKILLed, Redis restarts,
// kube-apiserver restarts, and etcd is compacted past every watch. Each fault lands in the middle of
// an update wave; afterwards the cluster must equal the render, with every Application's first UID.
// The replicas reach the API server through a proxy of the test's, which can cut them off from it.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { testKubeConfig } from '../env/test-kube-config.js';
import { TestEnvironment } from '../../src/environment/local/environment.js';
import { kubeconfig } from '../../src/environment/local/kube-apiserver.js';
import { GitFixtures, type GitRepo } from '../../src/environment/local/git-fixtures.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { createAppSets, prepareNamespace, setRevision } from '../system/cluster-setup.js';
import { ConvergenceWatch } from '../system/convergence.js';
import { ReplicaProcess, unhandledErrors } from '../system/controller-process.js';
import { PausableProxy } from '../controller/pausable-proxy.js';
import { createWorkloadRepo, renderExpected, workloadManifests, type AppSetManifest } from '../system/workload.js';

const SHAPE = { appSets: 10, appsPerSet: 100 };
const TOTAL = SHAPE.appSets * SHAPE.appsPerSet;
const NAMESPACE = 'chaos';
const CONVERGE_MS = 180_000;
/** Faults strike once this many Applications of a wave are done: mid-wave, not before or after it. */
const STRIKE_AFTER = 50;

/** The informers (by path) for which the replica logged, at or after `sinceMs`, that their watch got 410 Gone and they list again. */
function relistsSince(replica: ReplicaProcess, sinceMs: number): string[] {
  return replica
    .logLines()
    .filter((line) => line['msg'] === 'resourceVersion expired; listing again' && Number(line['time']) >= sinceMs)
    .map((line) => String(line['informer']));
}

describe('chaos: two replicas converge 1,000 Applications through crashes and restarts', { timeout: 1_200_000 }, () => {
  let env: TestEnvironment;
  let repo: GitRepo;
  let watch: ConvergenceWatch;
  /** Between the replicas and the API server: pausing it with `requests` cuts them off (a network partition). */
  let proxy: PausableProxy;
  let replicaKubeconfigPath: string;
  const replicas: ReplicaProcess[] = [];
  const abort = new AbortController();
  const recoveries: Record<string, number> = {};

  const manifestsAt = (revision: string): AppSetManifest[] => workloadManifests(SHAPE, NAMESPACE, repo.httpUrl, revision);
  const expectRevision = async (revision: string): Promise<void> => watch.expect(await renderExpected(manifestsAt(revision), repo.httpUrl, repo.barePath));
  const startReplica = (i: number): Promise<ReplicaProcess> =>
    ReplicaProcess.start({
      name: `chaos-replica-${i}`,
      kubeconfigPath: replicaKubeconfigPath,
      namespace: NAMESPACE,
      redisUrl: env.redis.url,
      logDir: env.run.logDir,
      gitCacheDir: mkdtempSync(join(env.run.root, `git-cache-${i}-`)),
      // The resync is the safety net after Redis loses its queue; short, so recovery stays bounded here.
      args: ['--concurrent-reconciliations=4', '--resync-period=15s'],
    });

  const waitForStrike = (name: string): Promise<true> =>
    waitFor(() => watch.matched >= STRIKE_AFTER, { what: `${STRIKE_AFTER} Applications of the wave before ${name}`, timeoutMs: CONVERGE_MS, intervalMs: 20 });
  /** Waits for convergence after a fault that struck at `struck` (performance.now()) with `doneAtFault` of the wave done, and records the recovery time. */
  const recovered = async (name: string, doneAtFault: number, struck: number): Promise<void> => {
    const converged = await watch.converged(CONVERGE_MS, `convergence after ${name}`);
    recoveries[name] = Math.round((converged - struck) / 100) / 10;
    console.log(`chaos: ${name}: struck with ${doneAtFault}/${TOTAL} done; converged ${recoveries[name]} s after the fault`);
    assert.ok(doneAtFault < TOTAL, `${name} struck after the wave had already converged`);
  };
  /** Starts the wave, strikes mid-wave, and returns seconds from the fault to full convergence. */
  const faultDuringWave = async (name: string, startWave: () => Promise<void>, fault: () => Promise<void>): Promise<void> => {
    await startWave();
    await waitForStrike(name);
    const doneAtFault = watch.matched;
    const struck = performance.now();
    await fault();
    await recovered(name, doneAtFault, struck);
  };
  const wave = (revision: string) => async (): Promise<void> => {
    await expectRevision(revision);
    await setRevision(kc(), manifestsAt(revision), revision);
  };
  const kc = () => testKubeConfig(env.apiServer.kubeconfigPath);
  // On a loaded machine the API server can take longer than one ready() wait (90 s) to come back.
  const restartApiServer = async (): Promise<void> => {
    await env.apiServer.process.restart();
    await waitFor(() => env.apiServer.ready().then(() => true), { what: 'kube-apiserver back after its restart', timeoutMs: 300_000 });
  };

  before(async () => {
    env = await TestEnvironment.start();
    const api = new URL(env.apiServer.url);
    proxy = await PausableProxy.start({ host: api.hostname, port: Number(api.port) });
    replicaKubeconfigPath = join(env.run.root, 'replicas.kubeconfig');
    writeFileSync(replicaKubeconfigPath, JSON.stringify(kubeconfig(`https://${api.hostname}:${proxy.port}`, env.apiServer.caPem, env.apiServer.adminToken)), {
      mode: 0o600,
    });
    const info = env.info();
    repo = await createWorkloadRepo(new GitFixtures(info.gitRoot, info.gitHttpBaseUrl), 'chaos', SHAPE);
    await prepareNamespace(kc(), NAMESPACE, info);
    watch = new ConvergenceWatch(kc(), NAMESPACE, abort.signal);
    await watch.ready();
    for (let i = 0; i < 2; i++) replicas.push(await startReplica(i));
  });
  after(async () => {
    await Promise.all(replicas.map((r) => r.process.stop('SIGTERM', 15_000)));
    await proxy?.close();
    abort.abort();
    await env.stop();
    console.log(`chaos: recovery seconds ${JSON.stringify(recoveries)}`);
  });

  it('SIGKILL of one replica mid-creation: the other finishes, the killed jobs run again', async () => {
    await faultDuringWave(
      'SIGKILL replica',
      async () => {
        await expectRevision('v1');
        await createAppSets(kc(), manifestsAt('v1'));
      },
      async () => {
        await replicas[0]?.process.kill();
      },
    );
    // The crashed pod comes back, as a Deployment would bring it back.
    await replicas[0]?.start();
  });

  it('Redis restart mid-wave (the queue is lost: no persistence): the resync re-adds every key', async () => {
    await faultDuringWave('Redis restart', wave('v2'), async () => {
      await env.redis.process.restart();
      await env.redis.ready();
    });
  });

  it('kube-apiserver restart mid-wave: watches resume, writes are retried', async () => {
    await faultDuringWave('kube-apiserver restart', wave('v3'), async () => {
      await restartApiServer();
    });
  });

  it('etcd compacted past every watch mid-wave: watches get 410 Gone and relist', async () => {
    const name = 'etcd compaction';
    const manifests = manifestsAt('v4');
    const [early, late] = [manifests.slice(0, SHAPE.appSets / 2), manifests.slice(SHAPE.appSets / 2)];
    // Timed by the test watch's count alone, this fault could land after the whole wave: that watch can still be
    // reconnecting after the previous case's API server restart and then relists, so its count jumps from under
    // 50 to 1,000 at once; and the API server goes on accepting writes for seconds after SIGTERM. So the wave
    // goes out in two halves, the second only once the replicas are cut off from the API server: it cannot be
    // done before the fault, whatever the timing.
    await expectRevision('v4');
    await setRevision(kc(), early, 'v4');
    // An open watch stream at a pre-compaction revision, so seeing new data later takes a 410 and a relist.
    await waitFor(() => watch.matched >= STRIKE_AFTER && watch.health().watching, {
      what: `${STRIKE_AFTER} Applications of the wave before ${name}, with the test watch connected`,
      timeoutMs: CONVERGE_MS,
      intervalMs: 20,
    });
    proxy.pause({ requests: true });
    const struck = performance.now();
    const gonesBefore = watch.health().gones;
    await setRevision(kc(), late, 'v4');
    const doneAtFault = await watch.matchedOnServer();
    // With the API server down, advance etcd's revision and compact at it: every watch then resumes from
    // a revision older than the compaction, so it must get 410 Gone (compacting at the current revision
    // alone left a caught-up watch valid, and the fault did nothing). The replicas are let through again
    // once the server is down: they see their connections close and the server away, as without the proxy.
    await env.apiServer.process.stop();
    const stoppedMs = Date.now();
    proxy.resume();
    await env.etcd.compact({ advance: true });
    await env.apiServer.process.start();
    await waitFor(() => env.apiServer.ready().then(() => true), { what: 'kube-apiserver back after the compaction', timeoutMs: 300_000 });
    await recovered(name, doneAtFault, struck);
    // The wave's second half exists only on the restarted server, which the test watch reaches only through a 410.
    assert.ok(watch.health().gones > gonesBefore, 'the fault really expired a watch (410 Gone seen by the test watch)');
    // The replicas' watches resume from before the compaction too, so they get 410 and relist. Awaited: an
    // informer can still be in its backoff (at most 30 s) when the wave has converged.
    const relists = await waitFor(
      () => {
        const seen = replicas.map((replica) => relistsSince(replica, stoppedMs));
        return seen.some((paths) => paths.length > 0) && seen;
      },
      { what: 'a replica to log 410 Gone and a relist after the compaction', timeoutMs: 60_000, intervalMs: 500 },
    );
    console.log(`chaos: ${name}: informers relisted after 410 Gone: ${JSON.stringify(relists)}`);
  });

  it('afterwards: the cluster equals the render, nothing was deleted or recreated, no unhandled error', async () => {
    await expectRevision('v4');
    await watch.converged(CONVERGE_MS, 'the final state');
    assert.deepEqual(watch.extras(), []);
    assert.deepEqual(watch.recreated(), { changedUid: [], deleted: [] });
    for (const replica of replicas) {
      assert.ok(replica.process.running, `${replica.process.name} is still running`);
      assert.deepEqual(unhandledErrors(replica.logLines()), [], `${replica.process.name} logged no unhandled error`);
    }
  });
});
