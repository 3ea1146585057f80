// RollingSync end to end: two controller replicas (child processes sharing the queue on the real Redis) carry out
// Argo CD progressive syncs on the real API server, while the test plays Argo CD's application controller
// (test/rollout/argo-application-controller.ts) by writing each Application's sync, health and operation state.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RolloutMessage } from '../../src/controller/rollout/application-status.js';
import { ROLLING_SYNC_REASON } from '../../src/controller/rollout/sync-operation.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { namespaceObjects } from '../controller/replicas.js';
import { createControllerNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig, sharedEnvironment } from '../env/shared-environment.js';
import { ReplicaProcess } from '../system/controller-process.js';
import { ArgoApplicationController } from './argo-application-controller.js';

type RolloutEntry = { application: string; status: string; step: string; message: string };
type AppSetStatus = { applicationStatus?: RolloutEntry[]; conditions?: Array<{ type: string; status: string; message: string }> };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A list ApplicationSet whose elements carry an `env` label, with automated sync and a three-step RollingSync. */
function rollingAppSet(elements: Array<{ name: string; env: string }>) {
  return {
    generators: [{ list: { elements } }],
    strategy: {
      type: 'RollingSync',
      rollingSync: {
        steps: [
          { matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }] },
          { matchExpressions: [{ key: 'env', operator: 'In', values: ['qa'] }], maxUpdate: 1 },
          { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }], maxUpdate: '50%' },
        ],
      },
    },
    template: {
      metadata: { name: '{{name}}', labels: { env: '{{env}}' } },
      spec: {
        project: 'default',
        source: { repoURL: 'https://git.example/apps.git', path: '{{env}}' },
        destination: { server: 'https://kubernetes.default.svc', namespace: '{{name}}' },
        syncPolicy: { automated: { prune: true } },
      },
    },
  };
}

describe('RollingSync end to end: two replicas, real API server and Redis, the test as Argo CD application controller', { timeout: 600_000 }, () => {
  const kc = adminKubeConfig();
  let ns: TestNamespace;
  let objects: ReturnType<typeof namespaceObjects>;
  let argo: ArgoApplicationController;
  const replicas: ReplicaProcess[] = [];

  const status = async (name: string): Promise<AppSetStatus> => ((await objects.appset(name)) as { status?: AppSetStatus }).status ?? {};
  const rolloutCondition = async (name: string) => (await status(name)).conditions?.find((c) => c.type === 'RolloutProgressing');
  const reconciles = async (name: string): Promise<number> => {
    let total = 0;
    for (const replica of replicas.filter((r) => r.process.running)) {
      for (const line of (await replica.metrics()).split('\n')) {
        const match = /^argocd_appset_reconcile_count\{([^}]*)\} (\S+)$/.exec(line);
        if (match?.[1]?.includes(`name="${name}"`)) total += Number(match[2]);
      }
    }
    return total;
  };

  before(async () => {
    ns = await createControllerNamespace(kc, 'rollout');
    objects = namespaceObjects(kc, ns.name);
    const env = sharedEnvironment();
    // A Redis database of its own: the replicas' queue is named as in production and must not meet other tests' replicas.
    const redis = new URL(env.redisUrl);
    redis.pathname = '/9';
    const logDir = mkdtempSync(join(tmpdir(), 'rollout-logs-'));
    for (let i = 0; i < 2; i++) {
      replicas.push(
        await ReplicaProcess.start({
          name: `rollout-replica-${i}`,
          kubeconfigPath: env.kubeconfigPath,
          namespace: ns.name,
          redisUrl: redis.toString(),
          logDir,
          gitCacheDir: mkdtempSync(join(tmpdir(), `rollout-git-${i}-`)),
          args: ['--enable-progressive-syncs'],
        }),
      );
    }
    argo = new ArgoApplicationController(kc, ns.name);
    argo.start();
  });
  after(async () => {
    await argo.stop();
    await Promise.all(replicas.map((replica) => replica.process.stop('SIGTERM', 10_000)));
    await ns.delete();
  });

  it('rolls out three steps in order within maxUpdate, each sync started as Argo CD starts it, through a replica killed mid-rollout', async () => {
    const elements = [
      { name: 'dev-1', env: 'dev' },
      { name: 'dev-2', env: 'dev' },
      { name: 'qa-1', env: 'qa' },
      { name: 'qa-2', env: 'qa' },
      { name: 'prod-1', env: 'prod' },
      { name: 'prod-2', env: 'prod' },
    ];
    await objects.createAppSet('rollout', rollingAppSet(elements));

    // Mid-rollout: once the second step's first sync is under way, one replica dies as a crashed pod does.
    await waitFor(() => argo.syncs.some((s) => s.name.startsWith('qa-')), { what: 'the second step under way', timeoutMs: 120_000 });
    await replicas[0]?.process.kill();
    const steps = await waitFor(
      async () => {
        const entries = (await status('rollout')).applicationStatus ?? [];
        return entries.length === 6 && entries.every((e) => e.status === 'Healthy') ? entries : undefined;
      },
      { what: 'every Application Healthy in applicationStatus', timeoutMs: 180_000, intervalMs: 250 },
    );
    await replicas[0]?.start();

    // Every Application synced exactly once (no step lost, none repeated), step after step.
    const order = argo.syncs.map((s) => s.name);
    assert.deepEqual([...order].sort(), elements.map((e) => e.name).sort(), `each Application synced once: ${order.join(', ')}`);
    assert.deepEqual(
      order.map((name) => name.replace(/-\d$/, '')),
      ['dev', 'dev', 'qa', 'qa', 'prod', 'prod'],
    );
    const finished = (name: string) => argo.syncs.find((s) => s.name === name)?.finishedAt ?? Infinity;
    const started = (name: string) => argo.syncs.find((s) => s.name === name)?.startedAt ?? -Infinity;
    const [firstQa, secondQa] = order.filter((n) => n.startsWith('qa-')) as [string, string];
    const [firstProd, secondProd] = order.filter((n) => n.startsWith('prod-')) as [string, string];
    assert.ok(started(firstQa) > Math.max(finished('dev-1'), finished('dev-2')), 'step 2 starts once step 1 is healthy');
    assert.ok(started(secondQa) > finished(firstQa), 'maxUpdate 1: one qa Application at a time');
    assert.ok(started(firstProd) > finished(secondQa), 'step 3 starts once step 2 is healthy');
    assert.ok(started(secondProd) > finished(firstProd), 'maxUpdate 50% of 2: one at a time');

    for (const sync of argo.syncs) {
      assert.deepEqual(
        sync.operation,
        {
          sync: { prune: true },
          initiatedBy: { username: 'applicationset-controller', automated: true },
          info: [{ name: 'Reason', value: ROLLING_SYNC_REASON }],
          retry: { limit: 5 },
        },
        `${sync.name}: Argo CD's operation`,
      );
    }
    for (const [name, app] of await objects.apps()) {
      assert.equal((app.spec as { syncPolicy?: { automated?: unknown } }).syncPolicy?.automated, undefined, `${name} carries no automated sync`);
    }
    assert.deepEqual(
      steps.map((e) => [e.application, e.step, e.message]),
      [
        ['dev-1', '1', RolloutMessage.becameHealthy],
        ['dev-2', '1', RolloutMessage.becameHealthy],
        ['prod-1', '3', RolloutMessage.becameHealthy],
        ['prod-2', '3', RolloutMessage.becameHealthy],
        ['qa-1', '2', RolloutMessage.becameHealthy],
        ['qa-2', '2', RolloutMessage.becameHealthy],
      ],
    );
    const done = await waitFor(async () => ((await rolloutCondition('rollout'))?.status === 'False' ? rolloutCondition('rollout') : undefined), {
      what: 'the rollout reported complete',
    });
    assert.equal(done?.message, 'ApplicationSet Rollout has completed');
  });

  it('a step whose Application never turns healthy: the rollout waits, says so in applicationStatus, and writes nothing further', async () => {
    argo.neverHealthy.add('s-qa-1');
    await objects.createAppSet(
      'stuck',
      rollingAppSet([
        { name: 's-dev-1', env: 'dev' },
        { name: 's-qa-1', env: 'qa' },
        { name: 's-qa-2', env: 'qa' },
        { name: 's-prod-1', env: 'prod' },
      ]),
    );
    await waitFor(() => argo.syncs.find((s) => s.name === 's-qa-1')?.finishedAt, { what: 's-qa-1 synced (and Degraded)', timeoutMs: 120_000 });
    const entries = await waitFor(
      async () => {
        const list = (await status('stuck')).applicationStatus ?? [];
        const qa = list.find((e) => e.application === 's-qa-1');
        return qa?.status === 'Progressing' && list.find((e) => e.application === 's-dev-1')?.status === 'Healthy' ? list : undefined;
      },
      { what: 'the stuck rollout settled', timeoutMs: 60_000 },
    );
    assert.deepEqual(
      entries.map((e) => [e.application, e.status, e.step]),
      [
        ['s-dev-1', 'Healthy', '1'],
        ['s-prod-1', 'Waiting', '3'],
        ['s-qa-1', 'Progressing', '2'],
        ['s-qa-2', 'Waiting', '2'],
      ],
    );
    assert.ok(
      ([RolloutMessage.becameProgressing, RolloutMessage.syncSucceeded] as string[]).includes(entries.find((e) => e.application === 's-qa-1')?.message ?? ''),
    );
    assert.equal((await rolloutCondition('stuck'))?.message, 'ApplicationSet is performing rollout of step 2');

    // Settled. Now Argo CD's controller retries the Degraded Application's operation (each new start wakes the
    // ApplicationSet, as Argo CD's own predicate does) and nothing else may move.
    await sleep(2_000);
    const appsetVersion = (await objects.appset('stuck')).metadata.resourceVersion;
    const appVersions = new Map([...(await objects.apps('s-'))].map(([name, app]) => [name, (app.metadata as { resourceVersion?: string }).resourceVersion]));
    const eventsBefore = (await objects.events('stuck')).length;
    const reconcilesBefore = await reconciles('stuck');
    for (let retry = 1; retry <= 3; retry++) {
      await argo.setStatus('s-qa-1', { operationState: { phase: 'Succeeded', startedAt: new Date(Date.now() + retry * 1000).toISOString() } });
      await sleep(700);
    }
    await waitFor(async () => (await reconciles('stuck')) >= reconcilesBefore + 2, {
      what: 'the retried operation woke the ApplicationSet',
      timeoutMs: 30_000,
    });
    await sleep(1_000);
    assert.equal((await objects.appset('stuck')).metadata.resourceVersion, appsetVersion, 'no status write');
    for (const [name, app] of await objects.apps('s-')) {
      if (name === 's-qa-1') continue; // the test itself wrote its status
      assert.equal((app.metadata as { resourceVersion?: string }).resourceVersion, appVersions.get(name), `${name} untouched`);
    }
    assert.equal((await objects.events('stuck')).length, eventsBefore, 'no Event');
    assert.deepEqual(
      argo.syncs.filter((s) => s.name.startsWith('s-')).map((s) => s.name),
      ['s-dev-1', 's-qa-1'],
      'no sync beyond the stuck step',
    );
  });
});
