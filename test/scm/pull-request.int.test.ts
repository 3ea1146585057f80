import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api } from '@kubernetes/client-node';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { startReplicas, namespaceObjects, type Replicas } from '../controller/replicas.js';
import { createControllerNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig } from '../env/shared-environment.js';
import { GiteaApi } from './gitea-api.js';

// The pull request generator end to end against a real Gitea: Gitea holds the pull requests and sends the
// webhooks itself (its own payloads and signatures). The generators poll hourly, so every change the test
// sees within seconds came through a webhook. Two replicas share the queue; Gitea calls the first.

const SECRET = 'pr-hook-secret';
const IN_CLUSTER = 'https://kubernetes.default.svc';

describe('pullRequest generator against Gitea (webhooks from Gitea itself)', () => {
  const kc = adminKubeConfig();
  const gitea = new GiteaApi();
  const org = `pr-${randomBytes(3).toString('hex')}`;
  const repo = 'shop';
  let ns: TestNamespace;
  let replicas: Replicas;
  let objects: ReturnType<typeof namespaceObjects>;
  let preview = 0;

  /** An ApplicationSet over the repository's pull requests labelled `preview`, in one template style. */
  const appset = (name: string, goTemplate: boolean): Record<string, unknown> => {
    const p = (param: string): string => (goTemplate ? `{{ .${param} }}` : `{{${param}}}`);
    return {
      ...(goTemplate ? { goTemplate: true, goTemplateOptions: ['missingkey=error'] } : {}),
      // No resources finalizer: nothing here plays Argo CD's application controller, which would remove it, and a
      // pull request that comes back must find its old Application gone, not stuck in deletion.
      syncPolicy: { preserveResourcesOnDeletion: true },
      generators: [
        {
          pullRequest: {
            gitea: { owner: org, repo, api: gitea.url, tokenRef: { secretName: 'gitea-token', key: 'token' }, labels: ['preview'] },
            filters: [{ targetBranchMatch: '^main$' }],
            requeueAfterSeconds: 3600,
          },
        },
      ],
      template: {
        metadata: {
          name: `${name}-${p('branch_slug')}-${p('number')}`,
          annotations: {
            head: p('head_sha'),
            short: p('head_short_sha'),
            short7: p('head_short_sha_7'),
            title: p('title'),
            target: p('target_branch'),
            author: p('author'),
            ...(goTemplate ? { labels: '{{ join "," .labels }}' } : {}),
          },
        },
        spec: {
          project: 'default',
          source: { repoURL: `${gitea.url}/${org}/${repo}.git`, path: 'deploy', targetRevision: p('head_sha') },
          destination: { server: IN_CLUSTER, namespace: `preview-${p('number')}` },
        },
      },
    };
  };

  const annotations = async (name: string): Promise<Record<string, string>> => {
    const app = (await objects.custom.getNamespacedCustomObject({ ...objects.G, plural: 'applications', name })) as {
      metadata: { annotations?: Record<string, string> };
    };
    return app.metadata.annotations ?? {};
  };
  const names = (prefix: string): Promise<string> => objects.liveNames(prefix);
  const until = (what: string, probe: () => Promise<boolean>): Promise<true> =>
    waitFor(async () => (await probe()) || undefined, { what, timeoutMs: 30_000, intervalMs: 100 });

  before(async () => {
    ns = await createControllerNamespace(kc, 'pr-gitea');
    objects = namespaceObjects(kc, ns.name);
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespacedSecret({
      namespace: ns.name,
      body: { metadata: { name: 'gitea-token', labels: { 'argocd.argoproj.io/secret-type': 'scm-creds' } }, stringData: { token: gitea.token } },
    });
    await core.createNamespacedSecret({ namespace: ns.name, body: { metadata: { name: 'hooks' }, stringData: { 'webhook.gitea.secret': SECRET } } });
    await gitea.createOrg(org);
    await gitea.createRepo(org, repo);
    preview = await gitea.createLabel(org, repo, 'preview');
    replicas = await startReplicas(kc, ns.name, 2, { 'webhook-secret': 'hooks', 'resync-period': '1h' });
    await gitea.addRepoHook(org, repo, `http://127.0.0.1:${replicas.list[0]?.port ?? 0}/api/webhook`, SECRET, [
      'pull_request',
      'pull_request_sync',
      'pull_request_label',
      'push',
    ]);
    // A pull request that stays open all along, so closing the other one is an ordinary deletion (1 of 2).
    await gitea.createBranch(org, repo, 'keeper');
    await gitea.commitFile(org, repo, 'keeper', 'deploy/keeper.yaml', 'k: 1\n');
    await gitea.openPull(org, repo, 'keeper', 'Keep me', [preview]);
    await objects.createAppSet('gopr', appset('gopr', true));
    await objects.createAppSet('fastpr', appset('fastpr', false));
    await until(
      'the Applications of the first pull request',
      async () => (await names('gopr-')) === 'gopr-keeper-1' && (await names('fastpr-')) === 'fastpr-keeper-1',
    );
  });
  after(async () => {
    await replicas?.stop();
    await ns?.delete();
  });

  it('opening a pull request creates its Application, with Argo CD’s parameters in both template styles', async () => {
    await gitea.createBranch(org, repo, 'feature/Cart_Totals');
    const head = await gitea.commitFile(org, repo, 'feature/Cart_Totals', 'deploy/cart.yaml', 'cart: 1\n');
    const pull = await gitea.openPull(org, repo, 'feature/Cart_Totals', 'Cart totals', [preview]);
    assert.equal(pull.number, 2);
    await until(
      'the Applications of pull request 2',
      async () => (await names('gopr-')).includes('gopr-feature-cart-totals-2') && (await names('fastpr-')).includes('fastpr-feature-cart-totals-2'),
    );
    for (const name of ['gopr-feature-cart-totals-2', 'fastpr-feature-cart-totals-2']) {
      const seen = await annotations(name);
      assert.equal(seen.head, head);
      assert.equal(seen.short, head.slice(0, 8));
      assert.equal(seen.short7, head.slice(0, 7));
      assert.equal(seen.title, 'Cart totals');
      assert.equal(seen.target, 'main');
      assert.equal(seen.author, 'gitea-admin');
    }
    assert.equal((await annotations('gopr-feature-cart-totals-2')).labels, 'preview');
  });

  it('pushing to the pull request’s branch moves head_sha in its Application', async () => {
    const before = (await annotations('gopr-feature-cart-totals-2')).head;
    const head = await gitea.commitFile(org, repo, 'feature/Cart_Totals', 'deploy/more.yaml', 'more: 1\n');
    assert.notEqual(head, before);
    await until('head_sha to follow the push', async () => (await annotations('gopr-feature-cart-totals-2')).head === head);
    assert.equal((await annotations('fastpr-feature-cart-totals-2')).head, head);
  });

  it('removing the label removes the Application; labelling it again brings it back', async () => {
    await gitea.setLabels(org, repo, 2, []);
    await until('the unlabelled pull request to drop out', async () => (await names('gopr-')) === 'gopr-keeper-1');
    await gitea.setLabels(org, repo, 2, [preview]);
    await until('the labelled pull request to come back', async () => (await names('gopr-')) === 'gopr-feature-cart-totals-2,gopr-keeper-1');
  });

  it('closing removes it, reopening restores it, merging removes it for good', async () => {
    await gitea.setPullState(org, repo, 2, 'closed');
    await until('the closed pull request to drop out', async () => (await names('gopr-')) === 'gopr-keeper-1');
    await gitea.setPullState(org, repo, 2, 'open');
    await until('the reopened pull request to come back', async () => (await names('gopr-')).includes('gopr-feature-cart-totals-2'));
    await gitea.mergePull(org, repo, 2);
    await until(
      'the merged pull request to drop out',
      async () => (await names('gopr-')) === 'gopr-keeper-1' && (await names('fastpr-')) === 'fastpr-keeper-1',
    );
    const condition = await objects.condition('gopr', 'ErrorOccurred');
    assert.equal(condition?.status, 'False', condition?.message);
  });

  it('a pull request into another branch is left out by the targetBranchMatch filter', async () => {
    await gitea.createBranch(org, repo, 'release');
    await gitea.createBranch(org, repo, 'hotfix');
    await gitea.commitFile(org, repo, 'hotfix', 'deploy/fix.yaml', 'fix: 1\n');
    await gitea.openPull(org, repo, 'hotfix', 'Hotfix', [preview], 'release');
    // A later pull request into main proves the controller saw the hotfix one and filtered it.
    await gitea.createBranch(org, repo, 'late');
    await gitea.commitFile(org, repo, 'late', 'deploy/late.yaml', 'late: 1\n');
    await gitea.openPull(org, repo, 'late', 'Late', [preview]);
    await until('the pull request into main', async () => (await names('gopr-')).includes('gopr-late-4'));
    assert.doesNotMatch(await names('gopr-'), /hotfix/);
  });

  it('a provider error (a revoked token: 401) is reported and deletes nothing', async () => {
    const core = kc.makeApiClient(CoreV1Api);
    const before = await names('gopr-');
    await core.replaceNamespacedSecret({
      namespace: ns.name,
      name: 'gitea-token',
      body: { metadata: { name: 'gitea-token', labels: { 'argocd.argoproj.io/secret-type': 'scm-creds' } }, stringData: { token: 'revoked' } },
    });
    // The Secrets cache must hold the revoked token before the webhook wakes the generators.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await gitea.commitFile(org, repo, 'late', 'deploy/later.yaml', 'later: 1\n');
    const message = await waitFor(
      async () => {
        const condition = await objects.condition('gopr', 'ErrorOccurred');
        return condition?.status === 'True' ? condition.message : undefined;
      },
      { what: 'the 401 to be reported', timeoutMs: 30_000 },
    );
    assert.match(message, /answered 401/);
    assert.ok(
      (await objects.events('gopr')).some((e) => e.type === 'Warning' && /answered 401/.test(e.message ?? '')),
      'a Warning Event names it',
    );
    assert.equal(await names('gopr-'), before, 'no Application was deleted because the listing failed');
  });
});
