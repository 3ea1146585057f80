// The Git cache under a webhook's burst: many ApplicationSets of one repository resolving at once,
// over the environment's real smart-HTTP server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GitError } from '../../src/git/git-error.js';
import { createLocalPushEpochs, type PushEpochs } from '../../src/git/push-epochs.js';
import type { NetworkRequestType } from '../../src/git/remote-git.js';
import { sharedEnvironment, sharedGitFixtures } from '../env/shared-environment.js';
import { freshCache, noSignal, repoSecret, uniqueName } from './repo-cache-helpers.js';

describe('RepoCache shared by a burst of resolutions', () => {
  const info = sharedEnvironment();
  const secrets = [repoSecret('repo-creds', info.gitHttpBaseUrl, info.gitUsername, info.gitPassword)];

  it('fetches a pushed commit once and runs one or two ls-remotes for forty concurrent callers', async () => {
    const repo = await sharedGitFixtures().createRepo(uniqueName('burst'), { 'apps/a/x.yaml': '1' });
    const requests: Array<{ repoURL: string; type: NetworkRequestType }> = [];
    const cache = freshCache({ repositorySecrets: () => secrets, onNetworkRequest: (r) => requests.push(r) });
    await cache.resolveRevision(repo.httpUrl, 'HEAD', noSignal);
    const pushed = await repo.commit({ 'apps/b/x.yaml': '2' });
    const before = { ...cache.stats };
    requests.length = 0;
    const commits = await Promise.all(Array.from({ length: 40 }, () => cache.resolveRevision(repo.httpUrl, 'HEAD', noSignal)));
    assert.deepEqual(new Set(commits), new Set([pushed]), 'every caller sees the pushed commit');
    assert.equal(cache.stats.fetch - before.fetch, 1, 'one fetch for all callers');
    const lsRemotes = cache.stats.lsRemote - before.lsRemote;
    assert.ok(lsRemotes >= 1 && lsRemotes <= 2, `ls-remote ran ${lsRemotes} times for 40 concurrent callers`);
    assert.deepEqual(
      requests.map((r) => r.type).sort(),
      [...Array<NetworkRequestType>(lsRemotes).fill('ls-remote'), 'fetch'].sort(),
      'the hook sees every git process that reached the remote',
    );
    assert.ok(requests.every((r) => r.repoURL === repo.httpUrl));
  });

  it('a caller whose shared ls-remote was cancelled by another caller’s signal still gets its answer', async () => {
    const repo = await sharedGitFixtures().createRepo(uniqueName('cancel'), { 'a/x': '1' });
    const cache = freshCache({ repositorySecrets: () => secrets });
    const cancelled = new AbortController();
    cancelled.abort();
    const [leader, follower] = await Promise.allSettled([
      cache.resolveRevision(repo.httpUrl, 'main', cancelled.signal),
      cache.resolveRevision(repo.httpUrl, 'main', noSignal),
    ]);
    assert.equal(leader.status, 'rejected');
    assert.ok(leader.status === 'rejected' && leader.reason instanceof GitError && leader.reason.kind === 'aborted');
    assert.equal(follower.status, 'fulfilled');
  });

  it('does not share an ls-remote between callers with different credentials', async () => {
    const repo = await sharedGitFixtures().createRepo(uniqueName('creds'), { 'a/x': '1' });
    let calls = 0;
    const wrong = [repoSecret('repository', repo.httpUrl, info.gitUsername, 'not-the-password')];
    // The Secret list changes between the two calls: the second caller must not ride on the first's answer.
    const cache = freshCache({ repositorySecrets: () => (calls++ === 0 ? secrets : wrong) });
    const [good, bad] = await Promise.allSettled([
      cache.resolveRevision(repo.httpUrl, 'main', noSignal),
      cache.resolveRevision(repo.httpUrl, 'main', noSignal),
    ]);
    assert.equal(good.status, 'fulfilled');
    assert.equal(bad.status, 'rejected', 'wrong credentials fail even while a good ls-remote runs');
  });
});

describe('RepoCache fetching beside the ls-remote that follows a push', () => {
  const info = sharedEnvironment();
  const secrets = [repoSecret('repo-creds', info.gitHttpBaseUrl, info.gitUsername, info.gitPassword)];
  /** A cache that reuses refs for a minute between pushes counted in `pushEpochs`. */
  const reusing = (pushEpochs: PushEpochs, options: Parameters<typeof freshCache>[0] = {}) =>
    freshCache({ repositorySecrets: () => secrets, pushEpochs, refsMaxAgeMs: 60_000, ...options });

  it('resolves a pushed commit with one ls-remote and one fetch', async () => {
    const repo = await sharedGitFixtures().createRepo(uniqueName('beside'), { 'apps/a/x.yaml': '1' });
    const epochs = createLocalPushEpochs();
    const requests: NetworkRequestType[] = [];
    const cache = reusing(epochs, { onNetworkRequest: (r) => requests.push(r.type) });
    await cache.resolveRevision(repo.httpUrl, 'HEAD', noSignal);
    const pushed = await repo.commit({ 'apps/b/x.yaml': '2' });
    await epochs.advance([repo.httpUrl]);
    requests.length = 0;
    const commits = await Promise.all(Array.from({ length: 10 }, () => cache.resolveRevision(repo.httpUrl, 'HEAD', noSignal)));
    assert.deepEqual(new Set(commits), new Set([pushed]));
    assert.deepEqual(requests.sort(), ['fetch', 'ls-remote'], 'the fetch beside the ls-remote is the only one');
    assert.deepEqual(await cache.listDirectories(repo.httpUrl, pushed, noSignal), ['apps', 'apps/a', 'apps/b']);
  });

  it('fetches beside the ls-remote only after a push: a push elsewhere in the repository is fetched too, a refs refresh for age is not', async () => {
    const repo = await sharedGitFixtures().createRepo(uniqueName('beside-other'), { 'a/x': '1' });
    const epochs = createLocalPushEpochs();
    const cache = reusing(epochs);
    const head = await cache.resolveRevision(repo.httpUrl, 'HEAD', noSignal);
    const other = await repo.commit({ 'b/x': '2' }, 'elsewhere', 'feature');
    const before = { ...cache.stats };
    // The counter did not move: refs only grow old, and the commit HEAD names is local, so nothing is fetched.
    assert.equal(await cache.resolveRevision(repo.httpUrl, 'HEAD', noSignal, { maxRefsAgeMs: 0 }), head);
    assert.deepEqual([cache.stats.lsRemote - before.lsRemote, cache.stats.fetch - before.fetch], [1, 0]);
    await epochs.advance([repo.httpUrl]);
    assert.equal(await cache.resolveRevision(repo.httpUrl, 'HEAD', noSignal), head, 'HEAD did not move');
    assert.deepEqual([cache.stats.lsRemote - before.lsRemote, cache.stats.fetch - before.fetch], [2, 1], 'the push was fetched beside the ls-remote');
    assert.deepEqual(await cache.listDirectories(repo.httpUrl, other, noSignal), ['a', 'b'], 'the pushed branch came with it');
  });

  it('without push counters there is no push to follow, and nothing is fetched beside', async () => {
    const repo = await sharedGitFixtures().createRepo(uniqueName('beside-none'), { 'a/x': '1' });
    const cache = freshCache({ repositorySecrets: () => secrets });
    const head = await cache.resolveRevision(repo.httpUrl, 'HEAD', noSignal);
    await repo.commit({ 'b/x': '2' }, 'elsewhere', 'feature');
    const before = { ...cache.stats };
    assert.equal(await cache.resolveRevision(repo.httpUrl, 'HEAD', noSignal), head);
    assert.deepEqual([cache.stats.lsRemote - before.lsRemote, cache.stats.fetch - before.fetch], [1, 0]);
  });

  it('a caller without access after a push brings nothing into the shared copy', async () => {
    const repo = await sharedGitFixtures().createRepo(uniqueName('beside-denied'), { 'a/x': '1' });
    const epochs = createLocalPushEpochs();
    const wrong = [repoSecret('repository', repo.httpUrl, info.gitUsername, 'not-the-password')];
    let allowed = true;
    const cache = reusing(epochs, { repositorySecrets: () => (allowed ? secrets : wrong) });
    await cache.resolveRevision(repo.httpUrl, 'HEAD', noSignal);
    const pushed = await repo.commit({ 'b/x': '2' });
    await epochs.advance([repo.httpUrl]);
    allowed = false;
    await assert.rejects(cache.resolveRevision(repo.httpUrl, 'HEAD', noSignal), (e: unknown) => e instanceof GitError && e.kind === 'auth');
    await assert.rejects(cache.listDirectories(repo.httpUrl, pushed, noSignal), 'the pushed commit is not in the copy');
  });
});
