import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DiskBudget, folderBytes } from '../../src/git/disk-budget.js';
import { GitError } from '../../src/git/git-error.js';
import { KeyedMutex } from '../../src/git/keyed-mutex.js';
import { commitForRevision, parseLsRemote } from '../../src/git/remote-refs.js';
import { withRetries } from '../../src/git/retry.js';
import { parseLsTree, resolveSymlinkTarget, TreeListing } from '../../src/git/tree-listing.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
const D = 'd'.repeat(40);

describe('revision resolution from ls-remote', () => {
  const refs = parseLsRemote(`${A}\tHEAD\n${A}\trefs/heads/main\n${B}\trefs/heads/v1\n${C}\trefs/tags/v1\n${D}\trefs/tags/v1^{}\n${B}\trefs/tags/light\n`);
  const cases: [string, string | undefined][] = [
    ['HEAD', A],
    ['main', A],
    ['v1', B],
    ['light', B],
    ['refs/tags/v1', D],
    ['refs/heads/main', A],
    ['nope', undefined],
  ];
  for (const [rev, sha] of cases) {
    it(`${rev} → ${sha?.slice(0, 1) ?? 'none'}`, () => assert.equal(commitForRevision(refs, rev), sha));
  }
  it('an annotated tag resolves to its commit, not the tag object', () => {
    const tagOnly = parseLsRemote(`${C}\trefs/tags/rel\n${D}\trefs/tags/rel^{}\n`);
    assert.equal(commitForRevision(tagOnly, 'rel'), D);
  });
});

describe('ls-tree parsing and symlink targets', () => {
  const out = `040000 tree ${A}\tapps\x00100644 blob ${B}\tapps/a.yaml\x00120000 blob ${C}\tapps/link\x00160000 commit ${D}\tsub\x00`;
  it('separates directories, files and submodules', () => {
    const listing = new TreeListing(parseLsTree(out));
    assert.deepEqual(listing.directories, ['apps']);
    assert.deepEqual(listing.files, ['apps/a.yaml', 'apps/link']);
    assert.equal(listing.entry('apps/a.yaml')?.objectId, B);
    assert.equal(listing.entry('apps/link')?.mode, '120000');
  });
  it('handles paths with spaces and tabs', () => {
    assert.equal(parseLsTree(`100644 blob ${B}\tdir/a b\tc\0`)[0]?.path, 'dir/a b\tc');
  });
  const links: [string, string, string | undefined][] = [
    ['a/link', 'b.yaml', 'a/b.yaml'],
    ['a/link', '../c/d', 'c/d'],
    ['a/link', '../../etc/passwd', undefined],
    ['link', '..', undefined],
    ['a/link', '/etc/passwd', undefined],
    ['a/b/link', '../../x', 'x'],
  ];
  for (const [link, target, expected] of links) {
    it(`${link} → ${target} is ${expected ?? 'outside'}`, () => assert.equal(resolveSymlinkTarget(link, target), expected));
  }
});

describe('KeyedMutex', () => {
  it('serialises one key and lets other keys run alongside', async () => {
    const mutex = new KeyedMutex();
    const events: string[] = [];
    const slow = (tag: string, ms: number) => async () => {
      events.push(`start ${tag}`);
      await new Promise((r) => setTimeout(r, ms));
      events.push(`end ${tag}`);
    };
    await Promise.all([mutex.run('r', slow('r1', 20)), mutex.run('r', slow('r2', 1)), mutex.run('other', slow('o', 1))]);
    assert.ok(events.indexOf('end r1') < events.indexOf('start r2'), events.join(', '));
    assert.ok(events.indexOf('start o') < events.indexOf('end r1'), events.join(', '));
    assert.equal(mutex.isBusy('r'), false);
  });
  it('releases the lock when the work fails', async () => {
    const mutex = new KeyedMutex();
    await assert.rejects(mutex.run('r', () => Promise.reject(new Error('boom'))));
    assert.equal(await mutex.run('r', () => Promise.resolve(7)), 7);
  });
});

describe('withRetries', () => {
  const policy = { attempts: 3, initialDelayMs: 1, maxDelayMs: 4 };
  const signal = new AbortController().signal;
  it('retries transient failures and succeeds', async () => {
    let calls = 0;
    const value = await withRetries(policy, signal, () =>
      ++calls < 3 ? Promise.reject(new GitError('unreachable', { repoURL: 'r' }, 'down')) : Promise.resolve('ok'),
    );
    assert.deepEqual([value, calls], ['ok', 3]);
  });
  it('gives up after the last attempt', async () => {
    let calls = 0;
    await assert.rejects(
      withRetries(policy, signal, () => (calls++, Promise.reject(new GitError('timeout', { repoURL: 'r' }, 'slow')))),
      /slow/,
    );
    assert.equal(calls, 3);
  });
  it('never retries bad credentials', async () => {
    let calls = 0;
    await assert.rejects(withRetries(policy, signal, () => (calls++, Promise.reject(new GitError('auth', { repoURL: 'r' }, 'denied')))));
    assert.equal(calls, 1);
  });
});

describe('DiskBudget', () => {
  it('evicts least recently used copies until the total fits, skipping busy ones and the newest', async () => {
    const root = mkdtempSync(join(tmpdir(), 'disk-budget-'));
    const budget = new DiskBudget(2500);
    for (const name of ['a', 'b', 'c', 'd']) {
      mkdirSync(join(root, name));
      writeFileSync(join(root, name, 'pack'), Buffer.alloc(1000));
      budget.touch(join(root, name));
      await budget.measure(join(root, name));
    }
    budget.touch(join(root, 'a')); // a is now the most recent
    const evicted = await budget.enforce((dir) => !dir.endsWith('b'));
    assert.deepEqual(
      evicted.map((d) => d.slice(-1)),
      ['c', 'd'],
    );
    assert.equal(existsSync(join(root, 'b')), true);
    assert.equal(existsSync(join(root, 'c')), false);
    assert.equal(budget.totalBytes, 2000);
    assert.equal(await folderBytes(join(root, 'a')), 1000);
  });
});
