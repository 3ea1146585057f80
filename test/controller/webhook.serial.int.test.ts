import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { pino } from 'pino';
import { readControllerConfig } from '../../src/config/controller-config.js';
import { startController, type RunningController } from '../../src/app/start-replica.js';
import { createControllerNamespace, type TestNamespace } from '../env/namespaces.js';
import type { GitRepo } from '../../src/environment/local/git-fixtures.js';
import { adminKubeConfig, sharedEnvironment, sharedGitFixtures } from '../env/shared-environment.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { hookedAppSet, signedPush } from './webhook-fixtures.js';

const G = { group: 'argoproj.io', version: 'v1alpha1' };
const SECRET = 'webhook-e2e-secret';

describe('Git webhooks end to end: a signed push refreshes only the affected ApplicationSets', () => {
  const kc = adminKubeConfig();
  const custom = kc.makeApiClient(CustomObjectsApi);
  let ns: TestNamespace;
  let repo: GitRepo;
  let controller: RunningController;

  const apps = async (): Promise<string[]> =>
    ((await custom.listNamespacedCustomObject({ ...G, namespace: ns.name, plural: 'applications' })) as { items: Array<{ metadata: { name: string } }> }).items
      .map((a) => a.metadata.name)
      .sort();
  const reconciles = async (): Promise<number> => {
    const text = await controller.metricsRegistry.metrics();
    return [...text.matchAll(/^argocd_appset_reconcile_count\{[^}]*\} (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
  };
  const push = (ref: string, secret = SECRET): Promise<Response> => signedPush(controller.port, repo.httpUrl, ref, secret);

  before(async () => {
    ns = await createControllerNamespace(kc, 'hooks');
    const info = sharedEnvironment();
    repo = await sharedGitFixtures().createRepo(`hooks-${ns.name}`, { 'apps/alpha/app.yaml': 'a: 1\n' });
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
        'git-cache-dir': mkdtempSync(join(tmpdir(), 'hooks-git-')),
        'resync-period': '1h',
      },
      {},
    );
    controller = await startController(config, kc, pino({ level: 'silent' }));
    await controller.ready;
    // An hour between polls: only the webhook can explain a quick update.
    await custom.createNamespacedCustomObject({ ...G, namespace: ns.name, plural: 'applicationsets', body: hookedAppSet(repo.httpUrl) });
    await waitFor(async () => (await apps()).includes('hooked-alpha'), { what: 'the first Application', timeoutMs: 20_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
  });
  after(async () => {
    await controller.stop(5_000);
    await ns.delete();
  });

  it('refuses a push with a bad signature with 401 and reconciles nothing', async () => {
    const before = await reconciles();
    const response = await push('refs/heads/main', 'not-the-secret');
    assert.equal(response.status, 401);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(await reconciles(), before);
  });

  it('ignores a push to another branch', async () => {
    const before = await reconciles();
    const response = await push('refs/heads/feature');
    assert.equal(response.status, 202);
    assert.deepEqual(await response.json(), { enqueued: 0 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(await reconciles(), before);
  });

  it('updates the Applications within two seconds of a signed push', async () => {
    await repo.commit({ 'apps/beta/app.yaml': 'b: 1\n' }, 'add beta');
    const started = performance.now();
    const response = await push('refs/heads/main');
    assert.equal(response.status, 202);
    assert.deepEqual(await response.json(), { enqueued: 1 });
    await waitFor(async () => (await apps()).includes('hooked-beta'), { what: 'the new Application', timeoutMs: 10_000, intervalMs: 50 });
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 2_000, `push to Application took ${Math.round(elapsed)} ms`);
  });
});
