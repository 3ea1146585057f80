// Chaos suite for the queue's Redis behind Sentinels: two controller replicas (child processes) find the
// queue through three real Sentinels watching a master and one replica (no persistence, asynchronous
// replication), and converge 500 Applications while the master fails mid-wave: once SIGKILLed, once frozen
// with SIGSTOP past the Sentinels' down-after time and thawed after the failover. Each time the cluster must
// end equal to the render with every Application's first UID, no key may run in both replicas at once, and
// the replicas must end up talking only to the new master; how long the queue stood still is printed.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { testKubeConfig } from '../env/test-kube-config.js';
import { TestEnvironment } from '../../src/environment/local/environment.js';
import { GitFixtures, type GitRepo } from '../../src/environment/local/git-fixtures.js';
import { query, replicationInfo, SENTINEL_MASTER_NAME, SentinelGroup, type SentinelRoles } from '../../src/environment/local/redis-sentinel.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { createAppSets, prepareNamespace, setRevision } from '../system/cluster-setup.js';
import { ConvergenceWatch } from '../system/convergence.js';
import { ReplicaProcess, unhandledErrors } from '../system/controller-process.js';
import { createWorkloadRepo, renderExpected, workloadManifests, type AppSetManifest } from '../system/workload.js';
import { findOverlaps } from '../queue/worker-records.js';
import { queueRunsOf } from './queue-runs.js';

// 20 keys for 4 workers in all: a backlog waits in Redis when the master fails.
const SHAPE = { appSets: 20, appsPerSet: 25 };
const TOTAL = SHAPE.appSets * SHAPE.appsPerSet;
const NAMESPACE = 'failover';
const CONVERGE_MS = 180_000;
const STRIKE_AFTER = 50;
const RESYNC_S = 15;

/** What one failover measured, in seconds from the fault. */
interface FailoverTimes {
  /** The Sentinels announced the new master (`+switch-master`). */
  switched: number;
  /** The first queue run started after the switch, in either replica. */
  resumed: number;
  /** Every Application equal to the render again. */
  converged: number;
}

describe('chaos: the queue behind Redis Sentinels fails over under two replicas', { timeout: 1_200_000 }, () => {
  let env: TestEnvironment;
  let group: SentinelGroup;
  let repo: GitRepo;
  let watch: ConvergenceWatch;
  let switches: Redis;
  /** `+switch-master` messages as the test saw them: performance.now() and the new master's port. */
  const switched: Array<{ at: number; port: number }> = [];
  const replicas: ReplicaProcess[] = [];
  const abort = new AbortController();
  const measured: Record<string, FailoverTimes> = {};

  const manifestsAt = (revision: string): AppSetManifest[] => workloadManifests(SHAPE, NAMESPACE, repo.httpUrl, revision);
  const expectRevision = async (revision: string): Promise<void> => watch.expect(await renderExpected(manifestsAt(revision), repo.httpUrl, repo.barePath));
  const kc = () => testKubeConfig(env.apiServer.kubeconfigPath);
  const startReplica = (i: number): Promise<ReplicaProcess> =>
    ReplicaProcess.start({
      name: `failover-replica-${i}`,
      kubeconfigPath: env.apiServer.kubeconfigPath,
      namespace: NAMESPACE,
      logDir: env.run.logDir,
      gitCacheDir: mkdtempSync(join(env.run.root, `git-cache-${i}-`)),
      args: [
        `--redis-sentinels=${group.addresses}`,
        `--redis-sentinel-master=${SENTINEL_MASTER_NAME}`,
        '--concurrent-reconciliations=2',
        `--resync-period=${RESYNC_S}s`,
        // trace: every queue run's start and end, for the overlap check.
        '--log-level=trace',
      ],
    });
  /** Epoch ms of the first queue run that started at or after `sinceEpochMs`, in any replica. */
  const firstRunSince = (sinceEpochMs: number): number | undefined => {
    const starts = replicas
      .flatMap((r) => queueRunsOf(r.logLines()))
      .map((run) => run.start)
      .filter((start) => start >= sinceEpochMs);
    return starts.length > 0 ? Math.min(...starts) : undefined;
  };

  /**
   * Starts a wave, strikes the master with `fault` once it is mid-wave, and measures the failover. `fault`
   * gets the roles before it and returns once it has done its part (the Sentinels may still be switching).
   */
  const failoverDuringWave = async (
    name: string,
    revision: string,
    fault: (roles: SentinelRoles) => Promise<void> | void,
    afterSwitch: (roles: SentinelRoles) => void = () => undefined,
  ): Promise<SentinelRoles> => {
    const before = await group.settled();
    await expectRevision(revision);
    await setRevision(kc(), manifestsAt(revision), revision);
    await waitFor(() => watch.matched >= STRIKE_AFTER, {
      what: `${STRIKE_AFTER} Applications of the wave before ${name}`,
      timeoutMs: CONVERGE_MS,
      intervalMs: 20,
    });
    const doneAtFault = watch.matched;
    const switchesBefore = switched.length;
    const struck = performance.now();
    const struckEpoch = Date.now();
    await fault(before);
    const sw = await waitFor(() => switched[switchesBefore], { what: `the Sentinels to switch the master after ${name}`, timeoutMs: 60_000, intervalMs: 20 });
    assert.equal(sw.port, before.replica.port, 'the replica was promoted');
    afterSwitch(before);
    const switchEpoch = struckEpoch + (sw.at - struck);
    const converged = await watch.converged(CONVERGE_MS, `convergence after ${name}`);
    const resumedEpoch = await waitFor(() => firstRunSince(switchEpoch), {
      what: `a queue run after ${name}`,
      timeoutMs: (RESYNC_S + 30) * 1000,
      intervalMs: 200,
    });
    const seconds = (ms: number): number => Math.round(ms / 100) / 10;
    measured[name] = { switched: seconds(sw.at - struck), resumed: seconds(resumedEpoch - struckEpoch), converged: seconds(converged - struck) };
    console.log(`chaos: ${name}: struck with ${doneAtFault}/${TOTAL} done; ${JSON.stringify(measured[name])} s after the fault`);
    assert.ok(doneAtFault < TOTAL, `${name} struck after the wave had already converged`);
    return { master: before.replica, replica: before.master };
  };

  /** Connections to `port` other than the Sentinels' and replication's: what the replicas still hold there. */
  const appClientsOn = async (port: number): Promise<string[]> => {
    const list = String(await query(port, ['CLIENT', 'LIST', 'TYPE', 'normal']));
    return list
      .split('\n')
      .filter((line) => line.trim() !== '')
      .filter((line) => !/ name=sentinel-/.test(line) && !/ cmd=client\|list/.test(line) && !/ cmd=client /.test(line));
  };

  before(async () => {
    env = await TestEnvironment.start();
    group = await SentinelGroup.start(env.run);
    switches = new Redis({ host: '127.0.0.1', port: group.sentinels[0]?.port ?? 0 });
    switches.on('message', (_channel: string, message: string) => switched.push({ at: performance.now(), port: Number(message.split(' ')[4]) }));
    await switches.subscribe('+switch-master');
    const info = env.info();
    repo = await createWorkloadRepo(new GitFixtures(info.gitRoot, info.gitHttpBaseUrl), 'failover', SHAPE);
    await prepareNamespace(kc(), NAMESPACE, info);
    watch = new ConvergenceWatch(kc(), NAMESPACE, abort.signal);
    await watch.ready();
    for (let i = 0; i < 2; i++) replicas.push(await startReplica(i));
    await expectRevision('v1');
    await createAppSets(kc(), manifestsAt('v1'));
    await watch.converged(CONVERGE_MS, 'the first convergence, before any fault');
  });
  after(async () => {
    await Promise.all(replicas.map((r) => r.process.stop('SIGTERM', 15_000)));
    switches?.disconnect();
    abort.abort();
    await group?.stop();
    await env?.stop();
    console.log(`chaos: Redis failover seconds ${JSON.stringify(measured)}`);
  });

  it('a wave without a fault, for comparison', async () => {
    await expectRevision('v1b');
    const started = performance.now();
    await setRevision(kc(), manifestsAt('v1b'), 'v1b');
    const converged = await watch.converged(CONVERGE_MS, 'the wave without a fault');
    measured['no fault'] = { switched: 0, resumed: 0, converged: Math.round((converged - started) / 100) / 10 };
    console.log(`chaos: a wave without a fault converged in ${measured['no fault'].converged} s`);
  });

  it('SIGKILL of the master mid-wave: the Sentinels promote the replica and the replicas carry on on it', async () => {
    const roles = await failoverDuringWave('SIGKILL master', 'v2', async ({ master }) => {
      await master.process.kill();
    });
    // The dead node comes back (as a pod would), empty, and the Sentinels make it the new master's replica.
    await roles.replica.process.start();
    const settled = await group.settled();
    assert.equal(settled.master, roles.master);
    assert.deepEqual(await appClientsOn(roles.replica.port), [], 'no replica connected to the node that came back');
  });

  it('SIGSTOP of the master past down-after, SIGCONT after the failover: the old master is demoted and gets no work back', async () => {
    // Thawed mid-wave as soon as the Sentinels switched: it still believes it is master, with the queue as it
    // was when it froze, until a Sentinel turns it into the new master's replica.
    const roles = await failoverDuringWave(
      'SIGSTOP master',
      'v3',
      ({ master }) => master.process.signal('SIGSTOP'),
      ({ master }) => master.process.signal('SIGCONT'),
    );
    const thawed = roles.replica;
    const settled = await group.settled();
    assert.equal(settled.master, roles.master, 'the promoted replica stays master');
    assert.equal((await replicationInfo(thawed.port))['role'], 'slave', 'the old master was demoted');
    assert.deepEqual(await appClientsOn(thawed.port), [], 'no replica still holds a connection to the demoted master');
    // A wave after the thaw goes through the new master only.
    const offsetBefore = Number((await replicationInfo(roles.master.port))['master_repl_offset']);
    await expectRevision('v4');
    await setRevision(kc(), manifestsAt('v4'), 'v4');
    await watch.converged(CONVERGE_MS, 'the wave after the thaw');
    assert.ok(Number((await replicationInfo(roles.master.port))['master_repl_offset']) > offsetBefore, 'the new master took the writes of the next wave');
    assert.deepEqual(await appClientsOn(thawed.port), [], 'still no connection to the demoted master after a wave');
  });

  it('afterwards: the cluster equals the render, nothing was recreated, no key ran twice at once, no unhandled error', async () => {
    await watch.converged(CONVERGE_MS, 'the final state');
    assert.deepEqual(watch.extras(), []);
    assert.deepEqual(watch.recreated(), { changedUid: [], deleted: [] });
    const runs = replicas.flatMap((r) => queueRunsOf(r.logLines()));
    assert.ok(runs.length >= SHAPE.appSets * 4, `the replicas logged their queue runs (${runs.length})`);
    assert.deepEqual(findOverlaps(runs), [], 'no key ran in two places at once');
    for (const replica of replicas) {
      assert.ok(replica.process.running, `${replica.process.name} is still running`);
      // A client that gave up (ioredis status `end`) fails every later command with this, until a restart.
      const closed = replica.logLines().filter((line) => JSON.stringify(line['err'] ?? '').includes('Connection is closed'));
      assert.equal(closed.length, 0, `${replica.process.name}: no Redis client gave up after a failover (${closed.length} "Connection is closed" lines)`);
      assert.deepEqual(unhandledErrors(replica.logLines()), [], `${replica.process.name} logged no unhandled error`);
    }
  });
});
