import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { pino } from 'pino';
import { readControllerConfig } from '../../src/config/controller-config.js';
import { startController, type RunningController } from '../../src/app/start-replica.js';
import { createControllerNamespace, type TestNamespace } from '../env/namespaces.js';
import type { GitRepo } from '../../src/environment/local/git-fixtures.js';
import { startRedis, type RedisServer } from '../../src/environment/local/redis.js';
import { createRunDir } from '../../src/environment/local/run-dir.js';
import { adminKubeConfig, sharedEnvironment, sharedGitFixtures } from '../env/shared-environment.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { hookedAppSet, signedPush } from './webhook-fixtures.js';

const G = { group: 'argoproj.io', version: 'v1alpha1' };
const SECRET = 'webhook-replicas-secret';
const REDIS_PASSWORD = randomBytes(12).toString('hex');
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

// Two replicas on one password-protected Redis (the password given apart from the URL, as the chart
// does). The replica that receives pushes takes no work, so every reconcile a push causes runs on the
// other one, which keeps the repository's refs for an hour: only the push counter in Redis can tell it
// that its refs are out of date.
describe('Git webhooks across replicas: a push received by one replica is seen by the one that reconciles', () => {
  const kc = adminKubeConfig();
  const custom = kc.makeApiClient(CustomObjectsApi);
  const run = createRunDir();
  let redis: RedisServer;
  let ns: TestNamespace;
  let repo: GitRepo;
  let receiver: RunningController;
  let worker: RunningController;

  const apps = async (): Promise<string[]> =>
    ((await custom.listNamespacedCustomObject({ ...G, namespace: ns.name, plural: 'applications' })) as { items: Array<{ metadata: { name: string } }> }).items
      .map((a) => a.metadata.name)
      .sort();
  const lsRemotes = async (controller: RunningController): Promise<number> =>
    [...(await controller.metricsRegistry.metrics()).matchAll(/^argocd_git_request_total\{[^}]*request_type="ls-remote"[^}]*\} (\d+)$/gm)].reduce(
      (sum, m) => sum + Number(m[1]),
      0,
    );
  const push = (): Promise<Response> => signedPush(receiver.port, repo.httpUrl, 'refs/heads/main', SECRET);

  before(async () => {
    redis = await startRedis(run, 'redis-server', ['--requirepass', REDIS_PASSWORD]);
    ns = await createControllerNamespace(kc, 'hook-replicas');
    const info = sharedEnvironment();
    repo = await sharedGitFixtures().createRepo(`hook-replicas-${ns.name}`, { 'apps/alpha/app.yaml': 'a: 1\n' });
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespacedSecret({
      namespace: ns.name,
      body: {
        metadata: { name: 'repo', labels: { 'argocd.argoproj.io/secret-type': 'repository' } },
        stringData: { url: repo.httpUrl, username: info.gitUsername, password: info.gitPassword },
      },
    });
    await core.createNamespacedSecret({ namespace: ns.name, body: { metadata: { name: 'hooks' }, stringData: { 'webhook.github.secret': SECRET } } });
    const config = readControllerConfig(
      {
        namespace: ns.name,
        'webhook-secret': 'hooks',
        'listen-address': '127.0.0.1:0',
        'git-cache-dir': mkdtempSync(join(tmpdir(), 'hook-replicas-git-')),
        'resync-period': '1h',
        'redis-url': redis.url,
        'git-refs-max-age': '1h',
      },
      { APPSET_REDIS_PASSWORD: REDIS_PASSWORD },
    );
    const queueName = `hook-replicas-${randomBytes(4).toString('hex')}`;
    receiver = await startController(config, kc, pino({ level: 'silent' }), { queueName, takeWork: false });
    worker = await startController(config, kc, pino({ level: 'silent' }), { queueName });
    await Promise.all([receiver.ready, worker.ready]);
    await custom.createNamespacedCustomObject({ ...G, namespace: ns.name, plural: 'applicationsets', body: hookedAppSet(repo.httpUrl) });
    // Reconciling at all proves the shared state works with the password given apart from the URL.
    await waitFor(async () => (await apps()).includes('hooked-alpha'), { what: 'the first Application', timeoutMs: 30_000 });
  });
  after(async () => {
    await Promise.all([receiver?.stop(5_000), worker?.stop(5_000)]);
    await ns?.delete();
    await redis?.process.stop();
    rmSync(run.root, { recursive: true, force: true });
  });

  it('keeps the refs between reconciles without a push', async () => {
    const before = await lsRemotes(worker);
    await repo.commit({ 'apps/unseen/app.yaml': 'u: 1\n' }, 'not pushed');
    await custom.patchNamespacedCustomObject(
      { ...G, namespace: ns.name, plural: 'applicationsets', name: 'hooked', body: { spec: { template: { metadata: { labels: { wave: '2' } } } } } },
      mergePatch,
    );
    await waitFor(
      async () => {
        const app = (await custom.getNamespacedCustomObject({ ...G, namespace: ns.name, plural: 'applications', name: 'hooked-alpha' })) as {
          metadata: { labels?: Record<string, string> };
        };
        return app.metadata.labels?.wave === '2';
      },
      { what: 'the template change to reach the Application', timeoutMs: 20_000 },
    );
    assert.equal(await lsRemotes(worker), before, 'the reconcile of the template change read no refs');
    assert.equal((await apps()).includes('hooked-unseen'), false, 'a commit nobody pushed waits for the refs to age');
  });

  it('updates the Applications after a push to the other replica', async () => {
    await repo.commit({ 'apps/beta/app.yaml': 'b: 1\n' }, 'add beta');
    const response = await push();
    assert.equal(response.status, 202);
    assert.deepEqual(await response.json(), { enqueued: 1 });
    await waitFor(async () => (await apps()).includes('hooked-beta'), { what: 'the pushed Application', timeoutMs: 20_000, intervalMs: 50 });
    assert.equal(await lsRemotes(receiver), 0, 'the receiving replica reconciled nothing');
  });
});
