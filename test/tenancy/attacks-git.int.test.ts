import { randomBytes } from 'node:crypto';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SHARED_CREDENTIALS_LABEL } from '../../src/model/secrets.js';
import { git, type GitRepo } from '../../src/environment/local/git-fixtures.js';
import { adminKubeConfig, sharedEnvironment, sharedGitFixtures } from '../env/shared-environment.js';
import { AttackCluster, IN_CLUSTER, tenantSpec } from './attack-harness.js';

// The attack suite, part 2: hostile tenant ApplicationSets whose generators read real Git (the test
// environment's HTTP server with basic auth, and file:// repositories, which this controller allows
// for local development with --allow-local-repos). Credentials of another project, path traversal,
// symlink escape, oversized and deeply nested files: each refused with a condition and a Warning Event
// naming the rule, and nothing written.

const unique = (name: string): string => `${name}-${randomBytes(3).toString('hex')}`;
const gitFiles = (repoURL: string, path: string) => [{ git: { repoURL, revision: 'main', files: [{ path }] } }];
const gitDirs = (repoURL: string, path: string) => [{ git: { repoURL, revision: 'main', directories: [{ path }] } }];

/** Commits a symlink `path` → `target` to the repository (fixtures' commit() writes regular files only). */
async function commitSymlink(repo: GitRepo, path: string, target: string): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'symlink-'));
  await git(work, ['clone', '-q', repo.barePath, 'w']);
  const dir = join(work, 'w');
  await git(dir, ['checkout', '-q', 'main']);
  symlinkSync(target, join(dir, path));
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-q', '-m', 'symlink']);
  await git(dir, ['push', '-q', 'origin', 'HEAD:refs/heads/main']);
}

describe('attack suite: tenant generators reading Git cannot escape (real Git)', () => {
  const cluster = new AttackCluster(adminKubeConfig());
  let platform = '';
  let tenant = '';
  const repos: Record<string, GitRepo> = {};

  const secret = (name: string, url: string, extra: Record<string, string> = {}, labels: Record<string, string> = {}) =>
    cluster.core.createNamespacedSecret({
      namespace: platform,
      body: {
        metadata: { name, labels: { 'argocd.argoproj.io/secret-type': 'repository', ...labels } },
        stringData: { url, username: sharedEnvironment().gitUsername, password: sharedEnvironment().gitPassword, ...extra },
      },
    });

  before(async () => {
    platform = await cluster.namespace('atkgit-platform');
    tenant = await cluster.namespace('atkgit-tenant');
    const fixtures = sharedGitFixtures();
    for (const name of ['other-project', 'platform-only', 'own-project', 'shared'])
      repos[name] = await fixtures.createRepo(unique(`atk-${name}`), { 'apps/one/x.yaml': 'a: 1' });
    const hostile = await fixtures.createRepo(unique('atk-hostile'), {
      'apps/one/x.yaml': 'a: 1',
      'big/config.json': JSON.stringify({ blob: 'x'.repeat(3 * 2 ** 20) }),
      'deep/config.json': '{"a":'.repeat(5000) + '1' + '}'.repeat(5000),
      'cfg/.keep': '',
    });
    await commitSymlink(hostile, 'cfg/config.json', '../../../../../../etc/hostname');
    repos.hostile = hostile;
    await cluster.project(platform, 'gitteam', { sourceNamespaces: [tenant], sourceRepos: ['*'], destinations: [{ server: IN_CLUSTER, namespace: '*' }] });
    await secret('other-project-creds', repos['other-project']?.httpUrl ?? '', { project: 'someone-else' });
    await secret('platform-creds', repos['platform-only']?.httpUrl ?? '');
    await secret('own-creds', repos['own-project']?.httpUrl ?? '', { project: 'gitteam' });
    await secret('shared-creds', repos.shared?.httpUrl ?? '', {}, { [SHARED_CREDENTIALS_LABEL]: 'true' });
    await cluster.controller({ namespace: platform, 'applicationset-namespaces': [tenant], 'allow-local-repos': true });
  });
  after(() => cluster.cleanUp());

  const spec = (name: string, generators: unknown[]) =>
    tenantSpec(name, {
      project: 'gitteam',
      generators,
      metadata: { name: `${name}-{{path.basename}}` },
      destination: { server: IN_CLUSTER, namespace: 'team-{{path.basename}}' },
    });
  const refused = (title: string, name: string, generators: () => unknown[], rule: RegExp): void => {
    it(title, async () => {
      await cluster.applicationSet(tenant, name, spec(name, generators()));
      await cluster.assertRefused({ namespace: tenant, name, rule }, 90_000);
    });
  };

  it("reads with its own project's Secret and a shared one (positive controls)", async () => {
    await cluster.applicationSet(tenant, 'own', spec('own', gitDirs(repos['own-project']?.httpUrl ?? '', 'apps/*')));
    await cluster.applicationSet(tenant, 'shared', spec('shared', gitDirs(repos.shared?.httpUrl ?? '', 'apps/*')));
    await cluster.assertApplications(tenant, ['own-one', 'shared-one'], 90_000);
  });

  refused(
    "never uses another project's credentials",
    'other-creds',
    () => gitDirs(repos['other-project']?.httpUrl ?? '', 'apps/*'),
    /Secret atkgit-platform-\w+\/other-project-creds matches this repository but is not scoped to this ApplicationSet's AppProject/,
  );
  refused(
    "never uses the platform's unshared credentials",
    'platform-creds',
    () => gitDirs(repos['platform-only']?.httpUrl ?? '', 'apps/*'),
    /Secret atkgit-platform-\w+\/platform-creds matches this repository but is not scoped/,
  );
  refused('path traversal in a directories pattern', 'traversal-dirs', () => gitDirs(repos.hostile?.fileUrl ?? '', '../*'), /contains a "\.\." segment/);
  refused('absolute path in a files pattern', 'absolute-files', () => gitFiles(repos.hostile?.fileUrl ?? '', '/etc/passwd'), /it is absolute/);
  refused(
    'symlink escaping the repository',
    'symlink',
    () => gitFiles(repos.hostile?.fileUrl ?? '', 'cfg/config.json'),
    /symlink points outside the repository/,
  );
  refused('oversized parameter file', 'oversized', () => gitFiles(repos.hostile?.fileUrl ?? '', 'big/config.json'), /over the 2097152-byte limit/);
  refused('deeply nested parameter file', 'deep', () => gitFiles(repos.hostile?.fileUrl ?? '', 'deep/config.json'), /more than 100 levels deep/);
});
