import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createServer, type Socket } from 'node:net';
import { GitError } from '../../src/git/git-error.js';
import { createLocalPushEpochs } from '../../src/git/push-epochs.js';
import { sharedGitFixtures } from '../env/shared-environment.js';
import { git } from '../../src/environment/local/git-fixtures.js';
import { freshCache, noSignal, uniqueName } from './repo-cache-helpers.js';

const isKind =
  (kind: string) =>
  (e: unknown): boolean =>
    e instanceof GitError && e.kind === kind;

describe('RepoCache over file://', () => {
  it('resolves HEAD, branches, lightweight and annotated tags, full and short SHAs', async () => {
    const repo = await sharedGitFixtures().createRepo(uniqueName('revs'), { 'a/x.yaml': 'v: 1' });
    const first = await repo.revParse('HEAD');
    await repo.tag('light');
    const second = await repo.commit({ 'a/x.yaml': 'v: 2' });
    await git(repo.barePath, ['tag', '-a', '-m', 'annotated', 'ann', first]);
    await repo.commit({ 'b/y.yaml': 'v: 3' }, 'on dev', 'dev');
    const dev = await repo.revParse('dev');
    const cache = freshCache();
    const cases: [string, string][] = [
      ['HEAD', second],
      ['', second],
      ['main', second],
      ['dev', dev],
      ['light', first],
      ['ann', first],
      [first, first],
      [first.slice(0, 10), first],
    ];
    for (const [rev, sha] of cases) assert.equal(await cache.resolveRevision(repo.fileUrl, rev, noSignal), sha, `revision ${rev}`);
  });

  it('lists directories and files and reads a file at a commit, without a working tree', async () => {
    const repo = await sharedGitFixtures().createRepo(uniqueName('list'), { 'apps/a/k.yaml': 'a: 1', 'apps/b/c/d.json': '{}', 'top.txt': 'hello' });
    const cache = freshCache();
    const commit = await cache.resolveRevision(repo.fileUrl, 'main', noSignal);
    assert.deepEqual([...(await cache.listDirectories(repo.fileUrl, commit, noSignal))].sort(), ['apps', 'apps/a', 'apps/b', 'apps/b/c']);
    assert.deepEqual([...(await cache.listFiles(repo.fileUrl, commit, noSignal))].sort(), ['apps/a/k.yaml', 'apps/b/c/d.json', 'top.txt']);
    assert.equal((await cache.readFile(repo.fileUrl, commit, 'top.txt', noSignal)).toString(), 'hello');
    const [copy] = await cache.copiesOnDisk();
    const bare = execFileSync('git', ['rev-parse', '--is-bare-repository'], { cwd: `${cache['options'].root}/repos/${copy ?? ''}` })
      .toString()
      .trim();
    assert.equal(bare, 'true');
  });

  it('fetches only when the resolved commit changed, and shares one copy per URL', async () => {
    const repo = await sharedGitFixtures().createRepo(uniqueName('steady'), { 'a/x': '1' });
    const cache = freshCache();
    const c1 = await cache.resolveRevision(repo.fileUrl, 'main', noSignal);
    await cache.listDirectories(repo.fileUrl, c1, noSignal);
    assert.deepEqual({ fetch: cache.stats.fetch, init: cache.stats.init, lsTree: cache.stats.lsTree }, { fetch: 1, init: 1, lsTree: 1 });
    for (let i = 0; i < 3; i++) {
      assert.equal(await cache.resolveRevision(repo.fileUrl, 'main', noSignal), c1);
      await cache.listDirectories(repo.fileUrl, c1, noSignal);
    }
    assert.deepEqual(
      { fetch: cache.stats.fetch, init: cache.stats.init, lsTree: cache.stats.lsTree, lsRemote: cache.stats.lsRemote },
      { fetch: 1, init: 1, lsTree: 1, lsRemote: 4 },
    );
    const c2 = await repo.commit({ 'b/y': '2' });
    assert.equal(await cache.resolveRevision(repo.fileUrl, 'main', noSignal), c2);
    assert.equal(cache.stats.fetch, 2);
    assert.deepEqual(await cache.listDirectories(repo.fileUrl, c2, noSignal), ['a', 'b']);
    assert.equal((await cache.copiesOnDisk()).length, 1);
  });

  it('reuses recent refs within their age, and resolves a new commit once a push is counted or the caller asks for fresher refs', async () => {
    const repo = await sharedGitFixtures().createRepo(uniqueName('recent'), { 'a/x': '1' });
    const pushEpochs = createLocalPushEpochs();
    const cache = freshCache({ refsMaxAgeMs: 60_000, pushEpochs });
    const c1 = await cache.resolveRevision(repo.fileUrl, 'main', noSignal);
    const c2 = await repo.commit({ 'b/y': '2' });
    assert.equal(await cache.resolveRevision(repo.fileUrl, 'main', noSignal), c1, 'the refs of a minute ago are reused');
    assert.equal(cache.stats.lsRemote, 1);
    assert.equal(
      await cache.resolveRevision(repo.fileUrl, 'main', noSignal, { maxRefsAgeMs: 0 }),
      c2,
      'a caller asking for the remote as it is now gets the new commit',
    );
    const c3 = await repo.commit({ 'c/z': '3' });
    assert.equal(await cache.resolveRevision(repo.fileUrl, 'main', noSignal), c2);
    await pushEpochs.advance([repo.fileUrl]);
    assert.equal(await cache.resolveRevision(repo.fileUrl, 'main', noSignal), c3, 'a counted push ends the reuse');
    assert.equal(cache.stats.lsRemote, 3);
  });

  it('many concurrent resolutions of a new repository clone it once (per-repository lock)', async () => {
    const repo = await sharedGitFixtures().createRepo(uniqueName('lock'), { 'a/x': '1' });
    const cache = freshCache();
    const commits = await Promise.all(Array.from({ length: 8 }, () => cache.resolveRevision(repo.fileUrl, 'main', noSignal)));
    assert.equal(new Set(commits).size, 1);
    assert.deepEqual({ init: cache.stats.init, fetch: cache.stats.fetch }, { init: 1, fetch: 1 });
  });

  it('an unknown revision is an error naming repository and revision', async () => {
    const repo = await sharedGitFixtures().createRepo(uniqueName('unknown'), { 'a/x': '1' });
    const cache = freshCache();
    for (const rev of ['no-such-branch', 'f'.repeat(40), 'abcdef1']) {
      await assert.rejects(
        cache.resolveRevision(repo.fileUrl, rev, noSignal),
        (e: unknown) => isKind('unknown-revision')(e) && (e as Error).message.includes(`revision "${rev}"`) && (e as Error).message.includes(repo.fileUrl),
      );
    }
  });

  it('a missing repository is an error naming it', async () => {
    const cache = freshCache();
    const url = 'file:///nonexistent/repo.git';
    await assert.rejects(cache.resolveRevision(url, 'main', noSignal), (e: unknown) => isKind('not-found')(e) && (e as Error).message.includes(url));
  });

  it('refuses symlinks that leave the repository and follows those that stay inside', async () => {
    const repo = await sharedGitFixtures().createRepo(uniqueName('links'), { 'real/config.yaml': 'inside: true' });
    const work = repo['workPath'];
    execFileSync('ln', ['-s', '../../../../../etc/passwd', `${work}/real/escape.yaml`]);
    execFileSync('ln', ['-s', '/etc/passwd', `${work}/real/absolute.yaml`]);
    execFileSync('ln', ['-s', 'config.yaml', `${work}/real/alias.yaml`]);
    const commit = await repo.commit({}, 'symlinks');
    const cache = freshCache();
    await cache.resolveRevision(repo.fileUrl, 'main', noSignal);
    assert.equal((await cache.readFile(repo.fileUrl, commit, 'real/alias.yaml', noSignal)).toString(), 'inside: true');
    for (const path of ['real/escape.yaml', 'real/absolute.yaml']) {
      await assert.rejects(
        cache.readFile(repo.fileUrl, commit, path, noSignal),
        (e: unknown) => isKind('symlink-escape')(e) && (e as Error).message.includes(`path "${path}"`),
      );
    }
  });

  it('refuses files over the size limit, paths escaping the repository, and hostile input before running git', async () => {
    const repo = await sharedGitFixtures().createRepo(uniqueName('limits'), { 'big.yaml': 'x'.repeat(5000), 'small.yaml': 'ok' });
    const cache = freshCache({ maxFileBytes: 4096 });
    const commit = await cache.resolveRevision(repo.fileUrl, 'main', noSignal);
    await assert.rejects(
      cache.readFile(repo.fileUrl, commit, 'big.yaml', noSignal),
      (e: unknown) => isKind('too-large')(e) && /5000 bytes/.test((e as Error).message),
    );
    assert.equal((await cache.readFile(repo.fileUrl, commit, 'small.yaml', noSignal)).toString(), 'ok');
    const before = { ...cache.stats };
    await assert.rejects(cache.readFile(repo.fileUrl, commit, '../outside', noSignal), isKind('invalid-input'));
    await assert.rejects(cache.readFile(repo.fileUrl, commit, '-big.yaml', noSignal), isKind('invalid-input'));
    await assert.rejects(cache.resolveRevision('--upload-pack=touch /tmp/pwned', 'main', noSignal), isKind('invalid-input'));
    await assert.rejects(cache.resolveRevision(repo.fileUrl, '--output=/tmp/pwned', noSignal), isKind('invalid-input'));
    await assert.rejects(cache.listFiles(repo.fileUrl, 'main', noSignal), isKind('invalid-input'));
    assert.deepEqual(cache.stats, before, 'no git process ran for refused input');
  });

  it('evicts the least recently used copy when over the disk budget, and re-fetches it when used again', async () => {
    const fixtures = sharedGitFixtures();
    const repos = await Promise.all([1, 2, 3].map((i) => fixtures.createRepo(uniqueName(`lru${i}`), { 'data.bin': 'x'.repeat(20_000 + i) })));
    const cache = freshCache({ maxDiskBytes: 1 });
    for (const repo of repos) await cache.resolveRevision(repo.fileUrl, 'main', noSignal);
    assert.equal((await cache.copiesOnDisk()).length, 1, 'only the most recent copy stays');
    assert.equal(cache.stats.evicted, 2);
    const fetchesBefore = cache.stats.fetch;
    const first = repos[0];
    assert.ok(first);
    const commit = await cache.resolveRevision(first.fileUrl, 'main', noSignal);
    assert.equal(cache.stats.fetch, fetchesBefore + 1);
    assert.deepEqual(await cache.listFiles(first.fileUrl, commit, noSignal), ['data.bin']);
  });

  it('creates a broken local copy again (HEAD kept, objects gone; HEAD garbled) instead of failing until removed by hand', async () => {
    const repo = await sharedGitFixtures().createRepo(uniqueName('broken-copy'), { 'apps/a/x.yaml': 'a: 1' });
    const earlier = freshCache();
    const commit = await earlier.resolveRevision(repo.fileUrl, 'main', noSignal);
    const root = earlier['options'].root;
    const dir = earlier['repoDir'](repo.fileUrl);
    rmSync(join(dir, 'objects'), { recursive: true, force: true });
    const later = freshCache({ root });
    assert.equal(await later.resolveRevision(repo.fileUrl, 'main', noSignal), commit);
    assert.deepEqual(await later.listDirectories(repo.fileUrl, commit, noSignal), ['apps', 'apps/a']);
    assert.equal(later.stats.init, 1, 'the copy was created again');
    writeFileSync(join(dir, 'HEAD'), 'not a ref\n');
    const third = freshCache({ root });
    assert.equal(await third.resolveRevision(repo.fileUrl, 'main', noSignal), commit);
    assert.equal(third.stats.init, 1);
    const healthy = freshCache({ root });
    await healthy.resolveRevision(repo.fileUrl, 'main', noSignal);
    assert.equal(healthy.stats.init, 0, 'a healthy copy is kept');
  });

  it('copies left by an earlier process count against the budget and are evicted first', async () => {
    const fixtures = sharedGitFixtures();
    const [old, fresh] = await Promise.all([
      fixtures.createRepo(uniqueName('adopt-old'), { a: '1' }),
      fixtures.createRepo(uniqueName('adopt-new'), { b: '2' }),
    ]);
    const earlier = freshCache();
    await earlier.resolveRevision(old.fileUrl, 'main', noSignal);
    const root = earlier['options'].root;
    const later = freshCache({ root, maxDiskBytes: 1 });
    await later.resolveRevision(fresh.fileUrl, 'main', noSignal);
    assert.equal(later.stats.evicted, 1);
    assert.equal((await later.copiesOnDisk()).length, 1);
  });
});

describe('RepoCache timeouts and cancellation', () => {
  /** A TCP server that accepts connections and never answers: git hangs on it. */
  async function silentServer(): Promise<{ url: string; close: () => void }> {
    const sockets = new Set<Socket>();
    const server = createServer((s) => void sockets.add(s));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    return { url: `http://127.0.0.1:${port}/hang.git`, close: () => (sockets.forEach((s) => s.destroy()), server.close()) };
  }

  it('a hanging server times out with a clear error, after retries', async () => {
    const hang = await silentServer();
    try {
      const cache = freshCache({ networkTimeoutMs: 300 });
      await assert.rejects(
        cache.resolveRevision(hang.url, 'main', noSignal),
        (e: unknown) => isKind('timeout')(e) && /timed out after 300 ms/.test((e as Error).message),
      );
      assert.equal(cache.stats.lsRemote, 2, 'retried once');
    } finally {
      hang.close();
    }
  });

  it('an AbortSignal cancels a running git call', async () => {
    const hang = await silentServer();
    try {
      const cache = freshCache();
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const started = Date.now();
      await assert.rejects(cache.resolveRevision(hang.url, 'main', controller.signal), isKind('aborted'));
      assert.ok(Date.now() - started < 10_000);
    } finally {
      hang.close();
    }
  });

  it('an unreachable server is an error after retries, never an empty result', async () => {
    const cache = freshCache();
    await assert.rejects(
      cache.resolveRevision('http://127.0.0.1:9/nothing.git', 'main', noSignal),
      (e: unknown) => isKind('unreachable')(e) && (e as Error).message.includes('http://127.0.0.1:9/nothing.git'),
    );
    assert.equal(cache.stats.lsRemote, 2);
  });
});
