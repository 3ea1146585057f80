import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { cacheCommands } from '../../src/git/cache-commands.js';

const run = promisify(execFile);
const ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };

/** `git args…` in `cwd`: what it printed on both streams (a failure rejects). */
async function git(cwd: string, args: readonly string[]): Promise<string> {
  const { stdout, stderr } = await run('git', [...args], { cwd, env: ENV });
  return stdout + stderr;
}

/** A work repository with one commit on `main`, and a commit-less file's tree id. */
async function sourceRepo(root: string): Promise<{ dir: string; commit: string; tree: string }> {
  const dir = join(root, 'source');
  await run('git', ['init', '-q', '-b', 'main', dir], { env: ENV });
  writeFileSync(join(dir, 'a.yaml'), 'a: 1\n');
  await git(dir, ['add', 'a.yaml']);
  await git(dir, ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'one']);
  return { dir, commit: (await git(dir, ['rev-parse', 'HEAD'])).trim(), tree: (await git(dir, ['rev-parse', 'HEAD^{tree}'])).trim() };
}

// simple-git waits 50 ms more after a command that printed nothing; these are the cache's commands that can
// succeed silently in their quiet spellings, so each must print something when it succeeds.
describe('the repository cache git commands print when they succeed', () => {
  it('init, fetch (refs moved) and the commit checks each print something; the checks still fail, with a message, for what is not a commit here', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cache-commands-'));
    const source = await sourceRepo(root);
    const copy = join(root, 'copy.git');

    assert.match(await git(root, cacheCommands.initBare(copy)), /Initialized empty Git repository/);
    await assert.rejects(git(copy, cacheCommands.commitType(source.commit)), /Not a valid object name/);
    assert.match(await git(copy, cacheCommands.fetchAll(`file://${source.dir}`)), /\[new branch\]\s+main\s+-> main/);
    assert.equal((await git(copy, cacheCommands.commitType(source.commit))).trim(), 'commit');
    await assert.rejects(git(copy, cacheCommands.commitType(source.tree)), /.+/);
    assert.equal((await git(copy, cacheCommands.commitOf(source.commit.slice(0, 10)))).trim(), source.commit);
    assert.equal((await git(copy, cacheCommands.commitOf('main'))).trim(), source.commit);
    await assert.rejects(git(copy, cacheCommands.commitOf('0123456789ab')), /Needed a single revision/);
  });
});
