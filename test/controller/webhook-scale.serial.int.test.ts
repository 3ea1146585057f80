// Scale proof of the webhook route: 1,000 ApplicationSets read ten real repositories over HTTP; a
// signed push to one repository must reconcile exactly its ApplicationSets, and the Git cache must
// fetch the new commit once for all of them. Serial: it is heavy, and it counts every reconcile.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { pino } from 'pino';
import { readControllerConfig } from '../../src/config/controller-config.js';
import { startController, type RunningController } from '../../src/app/start-replica.js';
import type { GitRepo } from '../../src/environment/local/git-fixtures.js';
import { createControllerNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig, sharedEnvironment, sharedGitFixtures } from '../env/shared-environment.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { metricSamples, sumBy } from './metric-samples.js';

const G = { group: 'argoproj.io', version: 'v1alpha1' };
const SECRET = 'webhook-scale-secret';
const REPOS = 10;
const PER_REPO = 100;
const CREATE_BATCH = 100;
const PUSHED = 3;

const appsetName = (repo: number, dir: number): string => `r${repo}-a${dir}`;

describe('Git webhooks at scale: 1,000 ApplicationSets on ten repositories', { timeout: 1_200_000 }, () => {
  const kc = adminKubeConfig();
  const custom = kc.makeApiClient(CustomObjectsApi);
  let ns: TestNamespace;
  let repos: GitRepo[];
  let controller: RunningController;
  const setupSeconds = { created: 0, firstWave: 0 };

  const applications = async (): Promise<string[]> =>
    ((await custom.listNamespacedCustomObject({ ...G, namespace: ns.name, plural: 'applications' })) as { items: Array<{ metadata: { name: string } }> }).items
      .map((a) => a.metadata.name)
      .sort();
  const metrics = (): Promise<string> => controller.metricsRegistry.metrics();
  const reconcilesPerAppSet = async (): Promise<Map<string, number>> =>
    sumBy(await metrics(), 'argocd_appset_reconcile_count', 'name', (l) => l.namespace === ns.name);
  const gitRequests = async (): Promise<Map<string, number>> => {
    const counts = new Map<string, number>();
    for (const s of metricSamples(await metrics(), 'argocd_git_request_total')) counts.set(`${s.labels.request_type} ${s.labels.repo}`, s.value);
    return counts;
  };
  /** Waits until no reconcile has run for `quietMs`, so counts taken afterwards are settled. */
  const settled = async (quietMs: number, timeoutMs: number): Promise<Map<string, number>> => {
    let last = await reconcilesPerAppSet();
    let stableSince = Date.now();
    return waitFor(
      async () => {
        const now = await reconcilesPerAppSet();
        if (!sameCounts(now, last)) [last, stableSince] = [now, Date.now()];
        return Date.now() - stableSince >= quietMs && now;
      },
      { what: `no reconcile for ${quietMs} ms`, timeoutMs, intervalMs: 250 },
    );
  };

  before(async () => {
    const started = performance.now();
    ns = await createControllerNamespace(kc, 'hookscale');
    const info = sharedEnvironment();
    // No app folder yet: each ApplicationSet's first reconcile generates nothing (cheap: one status
    // write), and the push that adds the folders to one repository shows what it woke.
    const files = { 'README.md': 'apps arrive later\n' };
    const fixtures = sharedGitFixtures();
    repos = await Promise.all(Array.from({ length: REPOS }, (_, i) => fixtures.createRepo(`${ns.name}-scale-${i}`, files)));
    const core = kc.makeApiClient(CoreV1Api);
    const creds = { url: info.gitHttpBaseUrl, username: info.gitUsername, password: info.gitPassword };
    await core.createNamespacedSecret({
      namespace: ns.name,
      body: { metadata: { name: 'creds', labels: { 'argocd.argoproj.io/secret-type': 'repo-creds' } }, stringData: creds },
    });
    await core.createNamespacedSecret({ namespace: ns.name, body: { metadata: { name: 'hooks' }, stringData: { 'webhook.github.secret': SECRET } } });
    // Created before the controller starts, so its first list sees them all and creation does not
    // compete with reconciles for the API server.
    const all = repos.flatMap((repo, i) => Array.from({ length: PER_REPO }, (_, j) => appSet(repo, i, j)));
    for (let start = 0; start < all.length; start += CREATE_BATCH) {
      await Promise.all(
        all
          .slice(start, start + CREATE_BATCH)
          .map((body) => custom.createNamespacedCustomObject({ ...G, namespace: ns.name, plural: 'applicationsets', body })),
      );
    }
    setupSeconds.created = (performance.now() - started) / 1000;
    const config = readControllerConfig(
      {
        namespace: ns.name,
        'webhook-secret': 'hooks',
        'listen-address': '127.0.0.1:0',
        'git-cache-dir': mkdtempSync(join(tmpdir(), 'hookscale-git-')),
        'resync-period': '1h',
        'concurrent-reconciliations': '50',
      },
      {},
    );
    controller = await startController(config, kc, pino({ level: 'silent' }));
    await controller.ready;
    // Generous: on a 2-core machine shared with other work the first wave ran at 2-3 reconciles a second.
    await waitFor(async () => (await reconcilesPerAppSet()).size === REPOS * PER_REPO, {
      what: 'every ApplicationSet reconciled once',
      timeoutMs: 720_000,
      intervalMs: 2_000,
    });
    setupSeconds.firstWave = (performance.now() - started) / 1000 - setupSeconds.created;
  });
  after(async () => {
    await controller?.stop(10_000);
    if (!ns) return;
    const namespace = ns.name;
    await ns.delete();
    // The clean-up of 1,000 ApplicationSets and their Applications loads the API server and etcd for many
    // seconds; the next serial test measures latency, so wait until the namespace controller has deleted the
    // ApplicationSets and marked every Application. (The namespace itself stays: nothing here removes Argo
    // CD's resources finalizer from the Applications.)
    const remaining = async (plural: string): Promise<Array<{ metadata: { deletionTimestamp?: string } }>> =>
      ((await custom.listNamespacedCustomObject({ ...G, namespace, plural })) as { items: Array<{ metadata: { deletionTimestamp?: string } }> }).items;
    await waitFor(
      async () =>
        (await remaining('applicationsets')).length === 0 && (await remaining('applications')).every((app) => app.metadata.deletionTimestamp !== undefined),
      {
        what: 'the namespace controller to delete the ApplicationSets and mark the Applications',
        timeoutMs: 300_000,
        intervalMs: 1_000,
      },
    );
  });

  it('reconciles only the pushed repository’s ApplicationSets, and fetches the new commit once for all of them', async (t) => {
    const before = await settled(3_000, 120_000);
    const gitBefore = await gitRequests();
    const pushed = repos[PUSHED];
    assert.ok(pushed);
    assert.deepEqual(await applications(), [], 'no folder, no Application yet');
    await pushed.commit(Object.fromEntries(Array.from({ length: PER_REPO }, (_, j) => [`apps/a${j}/app.yaml`, `n: ${j}\n`])), 'add the apps');
    const pushedAt = performance.now();
    const response = await signedPush(controller.port, pushed);
    assert.equal(response.status, 202);
    assert.deepEqual(await response.json(), { enqueued: PER_REPO });

    const expected = new Set(Array.from({ length: PER_REPO }, (_, j) => appsetName(PUSHED, j)));
    await waitFor(
      async () => {
        const now = await reconcilesPerAppSet();
        return [...expected].every((name) => (now.get(name) ?? 0) > (before.get(name) ?? 0));
      },
      { what: 'every ApplicationSet of the pushed repository reconciled', timeoutMs: 120_000, intervalMs: 250 },
    );
    const wokenSeconds = (performance.now() - pushedAt) / 1000;
    const afterPush = await settled(3_000, 60_000);
    const reconciled = [...afterPush].filter(([name, count]) => count > (before.get(name) ?? 0)).map(([name]) => name);
    assert.deepEqual(new Set(reconciled), expected, 'exactly the pushed repository’s ApplicationSets were reconciled');

    assert.deepEqual(await applications(), [...expected].sort(), 'each woken ApplicationSet created its Application, no other did');

    const gitAfter = await gitRequests();
    const delta = (type: string, repo: GitRepo): number => (gitAfter.get(`${type} ${repo.httpUrl}`) ?? 0) - (gitBefore.get(`${type} ${repo.httpUrl}`) ?? 0);
    assert.equal(delta('fetch', pushed), 1, 'one fetch of the new commit for all woken ApplicationSets');
    for (const other of repos.filter((r) => r !== pushed))
      assert.deepEqual([delta('ls-remote', other), delta('fetch', other)], [0, 0], `${other.name} was not touched`);
    t.diagnostic(
      `setup: ${setupSeconds.created.toFixed(0)} s to create 10 repositories and 1,000 ApplicationSets, ${setupSeconds.firstWave.toFixed(0)} s for the first reconcile of all`,
    );
    t.diagnostic(
      `push woke ${reconciled.length} ApplicationSets, all reconciled within ${wokenSeconds.toFixed(1)} s: ${delta('fetch', pushed)} fetch, ${delta('ls-remote', pushed)} ls-remote`,
    );

    const text = await metrics();
    assert.deepEqual(metricSamples(text, 'appset_webhook_requests_total'), [{ labels: { provider: 'github', result: 'accepted' }, value: 1 }]);
    assert.equal(metricSamples(text, 'appset_webhook_enqueued_applicationsets_sum')[0]?.value, PER_REPO);
  });
});

function sameCounts(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  return a.size === b.size && [...a].every(([key, value]) => b.get(key) === value);
}

/** A small ApplicationSet: one git-directories generator over one folder, polled only hourly. */
function appSet(repo: GitRepo, repoIndex: number, dir: number): object {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name: appsetName(repoIndex, dir) },
    spec: {
      goTemplate: true,
      generators: [{ git: { repoURL: repo.httpUrl, revision: 'HEAD', requeueAfterSeconds: 3600, directories: [{ path: `apps/a${dir}` }] } }],
      template: {
        metadata: { name: `r${repoIndex}-{{.path.basename}}` },
        spec: {
          project: 'default',
          source: { repoURL: repo.httpUrl, path: '{{.path.path}}', targetRevision: 'HEAD' },
          destination: { server: 'https://kubernetes.default.svc', namespace: 'apps' },
        },
      },
    },
  };
}

/** A GitHub push of `main` to `repo`, signed with the webhook secret. */
async function signedPush(port: number, repo: GitRepo): Promise<Response> {
  const body = JSON.stringify({
    ref: 'refs/heads/main',
    repository: { html_url: repo.httpUrl.replace(/\.git$/, ''), clone_url: repo.httpUrl, default_branch: 'main' },
  });
  const signature = createHmac('sha256', SECRET).update(body).digest('hex');
  return fetch(`http://127.0.0.1:${port}/api/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${signature}` },
    body,
  });
}
