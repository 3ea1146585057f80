import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GIT_REPO_INDEX } from '../../src/controller/routing/caches.js';
import { routePush } from '../../src/controller/routing/webhook-routing.js';
import { webhookSecretsFrom } from '../../src/server/webhook/providers.js';
import { Store } from '../../src/kube/informer/store.js';
import type { KubeObject } from '../../src/kube/informer/index.js';
import { gitTargets } from '../../src/model/git-targets.js';
import { repoIdentity } from '../../src/model/git-url.js';

const repoUrl = (r: number): string => `https://git.example/org/repo-${r}.git`;

function store(): Store<KubeObject> {
  const index = (appset: KubeObject): string[] => gitTargets((appset as { spec?: unknown }).spec).map((t) => repoIdentity(t.repoURL) ?? '');
  const s = new Store<KubeObject>({ [GIT_REPO_INDEX]: index });
  for (let i = 0; i < 1000; i++) {
    const repo = repoUrl(i % 10);
    const git = { repoURL: repo, revision: i % 2 === 0 ? 'HEAD' : 'main', directories: [{ path: '*' }] };
    // Every fourth ApplicationSet nests its git generator in a matrix.
    const generators = i % 4 === 3 ? [{ matrix: { generators: [{ git }, { list: { elements: [] } }] } }] : [{ git }];
    s.upsert({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'ApplicationSet',
      metadata: { name: `as-${i}`, namespace: i % 100 === 0 ? 'elsewhere' : 'apps' },
      spec: { generators },
    });
  }
  return s;
}

describe('routing a push to ApplicationSets', () => {
  it("enqueues only the pushed repository's ApplicationSets out of 1,000 on ten repositories", () => {
    const enqueued: string[] = [];
    const push = { provider: 'github' as const, repoURLs: ['https://git.example/org/repo-3'], revisions: ['main'], touchesDefaultBranch: true };
    const count = routePush(
      push,
      store(),
      (key) => enqueued.push(key),
      (ns) => ns === 'apps',
    );
    assert.equal(count, 100);
    assert.equal(enqueued.length, 100);
    assert.ok(
      enqueued.every((key) => Number(key.split('-')[1]) % 10 === 3),
      'every key reads repo-3',
    );
    assert.ok(
      enqueued.some((key) => Number(key.split('-')[1]) % 4 === 3),
      'nested git generators count',
    );
  });

  it('leaves out generators on another revision and namespaces the controller does not serve', () => {
    const enqueued: string[] = [];
    const featurePush = { provider: 'github' as const, repoURLs: [repoUrl(0)], revisions: ['feature'], touchesDefaultBranch: false };
    assert.equal(
      routePush(
        featurePush,
        store(),
        (key) => enqueued.push(key),
        () => true,
      ),
      0,
    );
    const mainPush = { ...featurePush, revisions: ['main'], touchesDefaultBranch: true };
    const onlyApps = routePush(
      mainPush,
      store(),
      (key) => enqueued.push(key),
      (ns) => ns === 'apps',
    );
    assert.equal(onlyApps, 90, 'every hundredth ApplicationSet lives in a namespace the controller does not serve');
  });

  it('reads provider secrets from data or stringData', () => {
    const secret = {
      metadata: { name: 'hooks' },
      data: { 'webhook.github.secret': Buffer.from('gh').toString('base64') },
      stringData: { 'webhook.gitlab.secret': 'gl' },
    } as KubeObject;
    assert.deepEqual(webhookSecretsFrom(secret), { github: 'gh', gitlab: 'gl' });
    assert.deepEqual(webhookSecretsFrom(undefined), {});
  });
});
