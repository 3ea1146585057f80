import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createGeneratorRegistry } from '../../src/generators/registry.js';
import { GitResultMemo } from '../../src/generators/git-memo.js';
import { GitError } from '../../src/git/git-error.js';
import type { RepoCache } from '../../src/git/repo-cache.js';
import type { GitReader } from '../../src/git/git-reader.js';
import { sharedEnvironment, sharedGitFixtures } from '../env/shared-environment.js';
import { freshCache, noSignal, repoSecret, uniqueName } from '../git/repo-cache-helpers.js';
import { testContext } from './test-context.js';

/** A registry whose git generator keeps its results in `memo`. */
function registryWith(memo = new GitResultMemo()) {
  return { memo, registry: createGeneratorRegistry({ gitMemo: memo }) };
}

/** What the cache did with Git (tree listings, file reads, fetches) while `action` ran. */
async function gitWork<T>(cache: RepoCache, action: () => Promise<T>): Promise<{ result: T; lsTree: number; blobReads: number; fetch: number }> {
  const before = { ...cache.stats };
  const result = await action();
  return { result, lsTree: cache.stats.lsTree - before.lsTree, blobReads: cache.stats.blobReads - before.blobReads, fetch: cache.stats.fetch - before.fetch };
}

const names = (paramSets: readonly Record<string, unknown>[]): string[] => paramSets.map((p) => String((p.path as { basename: string }).basename ?? '')).sort();

describe('git generator results from memory', () => {
  it('an unchanged commit lists no tree and reads no file, and gives the same param sets', async () => {
    const repo = await sharedGitFixtures().createRepo(uniqueName('memo-same'), { 'apps/a/config.json': '{"env": "a"}', 'apps/b/config.json': '{"env": "b"}' });
    const cache = freshCache();
    const { memo, registry } = registryWith();
    const ctx = { ...testContext(), git: cache };
    const dirs = { git: { repoURL: repo.fileUrl, revision: 'main', directories: [{ path: 'apps/*' }] } };
    const files = { git: { repoURL: repo.fileUrl, revision: 'main', files: [{ path: 'apps/*/config.json' }] } };
    const first = await gitWork(cache, async () => [await registry.generateEntry(dirs, ctx, 'd'), await registry.generateEntry(files, ctx, 'f')]);
    assert.ok(first.lsTree === 1 && first.blobReads === 2, `first run listed once and read both files: ${JSON.stringify(first)}`);
    const again = await gitWork(cache, async () => [await registry.generateEntry(dirs, ctx, 'd'), await registry.generateEntry(files, ctx, 'f')]);
    assert.deepEqual({ lsTree: again.lsTree, blobReads: again.blobReads, fetch: again.fetch }, { lsTree: 0, blobReads: 0, fetch: 0 });
    assert.deepEqual(again.result, first.result);
    assert.equal(memo.stats.hits, 2);
  });

  it('a changed commit is never answered from memory: a new folder shows at once', async () => {
    const repo = await sharedGitFixtures().createRepo(uniqueName('memo-commit'), { 'apps/a/k.yaml': 'x' });
    const cache = freshCache();
    const { registry } = registryWith();
    const ctx = { ...testContext(), git: cache };
    const spec = { git: { repoURL: repo.fileUrl, revision: 'main', directories: [{ path: 'apps/*' }] } };
    assert.deepEqual(names(await registry.generateEntry(spec, ctx, 'e')), ['a']);
    await repo.commit({ 'apps/b/k.yaml': 'y' });
    assert.deepEqual(names(await registry.generateEntry(spec, ctx, 'e')), ['a', 'b']);
  });

  it('a changed file is never answered from memory, in the generator nor in the file reads below it', async () => {
    const repo = await sharedGitFixtures().createRepo(uniqueName('memo-file'), { 'apps/a/config.json': '{"env": "one"}' });
    const cache = freshCache();
    const { registry } = registryWith();
    const ctx = { ...testContext(), git: cache };
    const spec = { git: { repoURL: repo.fileUrl, revision: 'main', files: [{ path: 'apps/*/config.json' }] } };
    const before = await registry.generateEntry(spec, ctx, 'e');
    const oldCommit = await repo.revParse('main');
    const newCommit = await repo.commit({ 'apps/a/config.json': '{"env": "two"}' });
    const after = await registry.generateEntry(spec, ctx, 'e');
    assert.deepEqual([before[0]?.env, after[0]?.env], ['one', 'two']);
    // The file memo below the generator answers by content, never by path: both versions stay readable.
    const read = async (commit: string) => (await cache.readFile(repo.fileUrl, commit, 'apps/a/config.json', noSignal)).toString();
    assert.deepEqual([await read(oldCommit), await read(newCommit)], ['{"env": "one"}', '{"env": "two"}']);
  });

  it('a memo filled by one tenant serves no tenant whose credentials cannot resolve the revision', async () => {
    const env = sharedEnvironment();
    const repo = await sharedGitFixtures().createRepo(uniqueName('memo-tenant'), { 'apps/secret-team/k.yaml': 'x' });
    const secret = repoSecret('repository', repo.httpUrl, env.gitUsername, env.gitPassword);
    secret.metadata = { ...secret.metadata, labels: { ...secret.metadata?.labels, project: 'team-a' } };
    const cache = freshCache({ repositorySecrets: () => [secret] });
    const { memo, registry } = registryWith();
    const scoped = (project: string): GitReader => cache.forAccess({ usesSecret: (s) => s.metadata?.labels?.project === project });
    const spec = { git: { repoURL: repo.httpUrl, revision: 'main', directories: [{ path: 'apps/*' }] } };
    assert.deepEqual(names(await registry.generateEntry(spec, { ...testContext(), git: scoped('team-a') }, 'a')), ['secret-team']);
    const hitsBefore = memo.stats.hits;
    await assert.rejects(
      registry.generateEntry(spec, { ...testContext(), git: scoped('team-b') }, 'b'),
      (e: unknown) => e instanceof GitError && e.kind === 'auth',
    );
    assert.equal(memo.stats.hits, hitsBefore, 'the memo was not even consulted');
    // A full commit SHA as the revision is resolved (and authenticated) like a branch.
    const sha = await repo.revParse('main');
    await assert.rejects(
      registry.generateEntry({ git: { ...spec.git, revision: sha } }, { ...testContext(), git: scoped('team-b') }, 'b'),
      (e: unknown) => e instanceof GitError && e.kind === 'auth',
    );
    assert.equal(memo.stats.hits, hitsBefore);
  });

  it('values are templated for each ApplicationSet, never kept: two templates over one result differ', async () => {
    const repo = await sharedGitFixtures().createRepo(uniqueName('memo-values'), { 'apps/a/k.yaml': 'x' });
    const cache = freshCache();
    const { memo, registry } = registryWith();
    const spec = (value: string) => ({ git: { repoURL: repo.fileUrl, revision: 'main', directories: [{ path: 'apps/*' }], values: { v: value } } });
    const one = await registry.generateEntry(spec('one-{{path.basename}}'), { ...testContext(), git: cache }, 'e');
    const two = await registry.generateEntry(spec('two-{{path.basename}}'), { ...testContext(), git: cache }, 'e');
    assert.deepEqual([one[0]?.values, two[0]?.values], [{ v: 'one-a' }, { v: 'two-a' }]);
    assert.equal(memo.stats.hits, 1, 'the listing-derived part was shared');
  });
});
