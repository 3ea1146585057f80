import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createGeneratorRegistry, runGenerators } from '../../src/generators/registry.js';
import { GitError } from '../../src/git/git-error.js';
import { sharedEnvironment, sharedGitFixtures } from '../env/shared-environment.js';
import { freshCache, repoSecret, uniqueName } from '../git/repo-cache-helpers.js';
import { testContext } from './test-context.js';

const registry = createGeneratorRegistry();

describe('git generators on real repositories', () => {
  it('directories and files over HTTP with credentials, with pathParamPrefix, in a matrix driven by a list', async () => {
    const env = sharedEnvironment();
    const repo = await sharedGitFixtures().createRepo(uniqueName('gen-http'), {
      'apps/guestbook/kustomization.yaml': 'resources: []',
      'apps/Billing_API/values.yaml': 'replicas: 2',
      'apps/legacy/README': 'old',
      'config/prod/cluster.json': '{"cluster": {"name": "prod", "server": "https://prod"}}',
      'config/staging/cluster.yaml': '- cluster: {name: staging-a}\n- cluster: {name: staging-b}\n',
    });
    const git = freshCache({ repositorySecrets: () => [repoSecret('repository', repo.httpUrl, env.gitUsername, env.gitPassword)] });
    const ctx = { ...testContext(), git };
    const result = await runGenerators(
      registry,
      [
        { git: { repoURL: repo.httpUrl, revision: 'main', directories: [{ path: 'apps/*' }, { path: 'apps/legacy', exclude: true }], pathParamPrefix: 'app' } },
        { git: { repoURL: repo.httpUrl, revision: 'main', files: [{ path: 'config/**/cluster.*' }], requeueAfterSeconds: 60 } },
        {
          matrix: {
            generators: [
              { list: { elements: [{ dir: 'config/prod' }] } },
              { git: { repoURL: repo.httpUrl, revision: 'main', files: [{ path: '{{dir}}/*.json' }] } },
            ],
          },
        },
      ],
      ctx,
    );
    assert.deepEqual(
      result.paramSets.map((p) => JSON.stringify(p)),
      [
        { app: { path: { path: 'apps/Billing_API', basename: 'Billing_API', basenameNormalized: 'billing-api', segments: ['apps', 'Billing_API'] } } },
        { app: { path: { path: 'apps/guestbook', basename: 'guestbook', basenameNormalized: 'guestbook', segments: ['apps', 'guestbook'] } } },
        {
          cluster: { name: 'prod', server: 'https://prod' },
          path: {
            path: 'config/prod',
            basename: 'prod',
            basenameNormalized: 'prod',
            segments: ['config', 'prod'],
            filename: 'cluster.json',
            filenameNormalized: 'cluster.json',
          },
        },
        {
          cluster: { name: 'staging-a' },
          path: {
            path: 'config/staging',
            basename: 'staging',
            basenameNormalized: 'staging',
            segments: ['config', 'staging'],
            filename: 'cluster.yaml',
            filenameNormalized: 'cluster.yaml',
          },
        },
        {
          cluster: { name: 'staging-b' },
          path: {
            path: 'config/staging',
            basename: 'staging',
            basenameNormalized: 'staging',
            segments: ['config', 'staging'],
            filename: 'cluster.yaml',
            filenameNormalized: 'cluster.yaml',
          },
        },
        {
          dir: 'config/prod',
          cluster: { name: 'prod', server: 'https://prod' },
          path: {
            path: 'config/prod',
            basename: 'prod',
            basenameNormalized: 'prod',
            segments: ['config', 'prod'],
            filename: 'cluster.json',
            filenameNormalized: 'cluster.json',
          },
        },
      ].map((p) => JSON.stringify(p)),
    );
    assert.equal(result.requeueAfterMs, 60_000);
    assert.equal(git.stats.fetch, 1, 'one fetch for three generators on one repository');
    assert.equal((await git.copiesOnDisk()).length, 1);
  });

  it('malformed and non-UTF-8 files fail the whole generation, naming repository, revision and path', async () => {
    const fixtures = sharedGitFixtures();
    const cases: [string, Record<string, string>, string][] = [
      ['bad.json', { 'c/bad.json': '{"a": [1, 2' }, 'malformed'],
      ['bad.yaml', { 'c/bad.yaml': 'a: b: c' }, 'malformed'],
      ['latin1.yaml', { 'c/latin1.yaml': Buffer.from([0x6e, 0x3a, 0x20, 0xe9, 0x0a]).toString('latin1') }, 'not-utf8'],
    ];
    for (const [file, files, kind] of cases) {
      const repo = await fixtures.createRepo(uniqueName('gen-bad'), { 'c/good.yaml': 'ok: true', ...files });
      if (kind === 'not-utf8') {
        // writeFileSync in the fixture writes UTF-8; rewrite the blob with raw latin-1 bytes.
        writeFileSync(`${repo['workPath']}/c/latin1.yaml`, Buffer.from([0x6e, 0x3a, 0x20, 0xe9, 0x0a]));
        await repo.commit({}, 'latin-1 bytes');
      }
      const ctx = { ...testContext(), git: freshCache() };
      await assert.rejects(runGenerators(registry, [{ git: { repoURL: repo.fileUrl, revision: 'main', files: [{ path: 'c/*' }] } }], ctx), (e: unknown) => {
        assert.ok(e instanceof GitError && e.kind === kind, `${file}: ${String(e)}`);
        assert.ok(e.message.includes(repo.fileUrl) && e.message.includes('revision "main') && e.message.includes(`path "c/${file}"`), e.message);
        return true;
      });
    }
  });

  it('an unknown revision and a wrong password fail the generator instead of producing nothing', async () => {
    const env = sharedEnvironment();
    const repo = await sharedGitFixtures().createRepo(uniqueName('gen-fail'), { 'apps/a/x': '1' });
    const spec = (revision: string) => [{ git: { repoURL: repo.httpUrl, revision, directories: [{ path: 'apps/*' }] } }];
    const good = { ...testContext(), git: freshCache({ repositorySecrets: () => [repoSecret('repository', repo.httpUrl, env.gitUsername, env.gitPassword)] }) };
    assert.equal((await runGenerators(registry, spec('main'), good)).paramSets.length, 1);
    await assert.rejects(runGenerators(registry, spec('does-not-exist'), good), (e: unknown) => e instanceof GitError && e.kind === 'unknown-revision');
    const bad = { ...testContext(), git: freshCache({ repositorySecrets: () => [repoSecret('repository', repo.httpUrl, env.gitUsername, 'wrong')] }) };
    await assert.rejects(
      runGenerators(registry, spec('main'), bad),
      (e: unknown) => e instanceof GitError && e.kind === 'auth' && !e.message.includes(env.gitPassword),
    );
  });
});
