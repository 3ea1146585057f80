import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api } from '@kubernetes/client-node';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { startReplicas, namespaceObjects, type Replicas } from '../controller/replicas.js';
import { createControllerNamespace, type TestNamespace } from '../env/namespaces.js';
import { adminKubeConfig } from '../env/shared-environment.js';
import { GiteaApi } from './gitea-api.js';

// The SCM provider generator end to end against a real Gitea organisation: repositories and branches are
// discovered through Gitea's API and narrowed by Argo CD's filters; Gitea's own push webhooks (from an
// organisation hook) wake the generator, which otherwise polls hourly.

const SECRET = 'scm-hook-secret';
const IN_CLUSTER = 'https://kubernetes.default.svc';

describe('scmProvider generator against a Gitea organisation (webhooks from Gitea itself)', () => {
  const kc = adminKubeConfig();
  const gitea = new GiteaApi();
  const org = `scm-${randomBytes(3).toString('hex')}`;
  let ns: TestNamespace;
  let replicas: Replicas;
  let objects: ReturnType<typeof namespaceObjects>;
  const heads = new Map<string, string>();

  /** An ApplicationSet over the organisation with these filters (goTemplate). */
  const appset = (name: string, extra: Record<string, unknown>): Record<string, unknown> => ({
    goTemplate: true,
    goTemplateOptions: ['missingkey=error'],
    generators: [
      {
        scmProvider: {
          gitea: { owner: org, api: gitea.url, tokenRef: { secretName: 'gitea-token', key: 'token' }, ...(extra.allBranches ? { allBranches: true } : {}) },
          cloneProtocol: 'https',
          filters: extra.filters,
          requeueAfterSeconds: 3600,
        },
      },
    ],
    template: {
      metadata: {
        name: `${name}-{{ .repository }}-{{ .branchNormalized }}`,
        annotations: { sha: '{{ .sha }}', short: '{{ .short_sha }}', short7: '{{ .short_sha_7 }}', url: '{{ .url }}', org: '{{ .organization }}' },
      },
      spec: {
        project: 'default',
        source: { repoURL: '{{ .url }}', path: 'deploy', targetRevision: '{{ .sha }}' },
        destination: { server: IN_CLUSTER, namespace: '{{ .repository }}' },
      },
    },
  });
  const names = (prefix: string): Promise<string> => objects.liveNames(prefix);
  const until = (what: string, probe: () => Promise<boolean>): Promise<true> =>
    waitFor(async () => (await probe()) || undefined, { what, timeoutMs: 30_000, intervalMs: 100 });
  const repoWith = async (name: string, files: Record<string, string>): Promise<void> => {
    await gitea.createRepo(org, name);
    for (const [path, content] of Object.entries(files)) heads.set(name, await gitea.commitFile(org, name, 'main', path, content));
  };

  before(async () => {
    ns = await createControllerNamespace(kc, 'scm-gitea');
    objects = namespaceObjects(kc, ns.name);
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespacedSecret({
      namespace: ns.name,
      body: { metadata: { name: 'gitea-token', labels: { 'argocd.argoproj.io/secret-type': 'scm-creds' } }, stringData: { token: gitea.token } },
    });
    await core.createNamespacedSecret({ namespace: ns.name, body: { metadata: { name: 'hooks' }, stringData: { 'webhook.gitea.secret': SECRET } } });
    await gitea.createOrg(org);
    await repoWith('svc-a', { 'deploy/a.yaml': 'a: 1\n' });
    await repoWith('svc-b', { 'src/b.go': 'package b\n' });
    await repoWith('lib-c', { 'deploy/c.yaml': 'c: 1\n' });
    replicas = await startReplicas(kc, ns.name, 2, { 'webhook-secret': 'hooks', 'resync-period': '1h' });
    await gitea.addOrgHook(org, `http://127.0.0.1:${replicas.list[0]?.port ?? 0}/api/webhook`, SECRET, ['push', 'repository', 'create']);
    await objects.createAppSet('svc', appset('svc', { filters: [{ repositoryMatch: '^svc-', pathsExist: ['deploy/'] }] }));
    await objects.createAppSet('rel', appset('rel', { allBranches: true, filters: [{ branchMatch: '^release-' }] }));
    await until('the deployable service', async () => (await names('svc-')) === 'svc-svc-a-main');
  });
  after(async () => {
    await replicas?.stop();
    await ns?.delete();
  });

  it('lists the repositories the filters keep, with Argo CD’s parameters', async () => {
    const app = (await objects.custom.getNamespacedCustomObject({ ...objects.G, plural: 'applications', name: 'svc-svc-a-main' })) as {
      metadata: { annotations: Record<string, string> };
      spec: { source: { repoURL: string } };
    };
    const sha = heads.get('svc-a') ?? '';
    assert.equal(app.metadata.annotations.sha, sha);
    assert.equal(app.metadata.annotations.short, sha.slice(0, 8));
    assert.equal(app.metadata.annotations.short7, sha.slice(0, 7));
    assert.equal(app.metadata.annotations.org, org);
    assert.match(app.spec.source.repoURL, new RegExp(`/${org}/svc-a`));
    assert.equal(await names('rel-'), '', 'no release branch exists yet');
  });

  it('a push that adds the path the filter asks for brings the repository in', async () => {
    heads.set('svc-b', await gitea.commitFile(org, 'svc-b', 'main', 'deploy/b.yaml', 'b: 1\n'));
    await until('svc-b once it has deploy/', async () => (await names('svc-')) === 'svc-svc-a-main,svc-svc-b-main');
  });

  it('a new repository of the organisation appears once it is pushed to', async () => {
    await repoWith('svc-d', { 'deploy/d.yaml': 'd: 1\n' });
    await until('the new repository', async () => (await names('svc-')).includes('svc-svc-d-main'));
  });

  it('allBranches with branchMatch lists each matching branch of every repository', async () => {
    await gitea.createBranch(org, 'lib-c', 'release-1');
    const head = await gitea.commitFile(org, 'lib-c', 'release-1', 'deploy/r.yaml', 'r: 1\n');
    // Creating the branch is itself an event, so the Application may first appear at the commit the branch started from.
    await until('the release branch at its pushed commit', async () => {
      if ((await names('rel-')) !== 'rel-lib-c-release-1') return false;
      const app = (await objects.custom.getNamespacedCustomObject({ ...objects.G, plural: 'applications', name: 'rel-lib-c-release-1' })) as {
        metadata: { annotations: Record<string, string> };
      };
      return app.metadata.annotations.sha === head;
    });
    assert.equal(await names('rel-'), 'rel-lib-c-release-1', 'only the release branch matches branchMatch');
  });

  it('a push to a listed branch moves sha in its Application', async () => {
    const head = await gitea.commitFile(org, 'svc-a', 'main', 'deploy/a2.yaml', 'a: 2\n');
    await until('sha to follow the push', async () => {
      const app = (await objects.custom.getNamespacedCustomObject({ ...objects.G, plural: 'applications', name: 'svc-svc-a-main' })) as {
        metadata: { annotations: Record<string, string> };
      };
      return app.metadata.annotations.sha === head;
    });
  });
});
