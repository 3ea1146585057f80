import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { git } from '../../src/environment/local/git-fixtures.js';
import { cacheCommands } from '../../src/git/cache-commands.js';

const run = promisify(execFile);

/** Runs one of the cache's commands in `cwd` and returns what it printed on both streams (a failure rejects). */
async function printed(cwd: string, args: readonly string[]): Promise<string> {
  const env = { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
  const { stdout, stderr } = await run('git', [...args], { cwd, env });
  return stdout + stderr;
}

/** A work repository with one commit on `main`: its folder, the commit, and the commit's root tree. */
async function sourceRepo(root: string): Promise<{ dir: string; commit: string; tree: string }> {
  const dir = join(root, 'source');
  await git(root, ['init', '-q', dir]);
  writeFileSync(join(dir, 'a.yaml'), 'a: 1\n');
  await git(dir, ['add', 'a.yaml']);
  await git(dir, ['commit', '-q', '-m', 'one']);
  return { dir, commit: await git(dir, ['rev-parse', 'HEAD']), tree: await git(dir, ['rev-parse', 'HEAD^{tree}']) };
}

// simple-git waits 50 ms more after a command that printed nothing; these are the cache's commands that can
// succeed silently in their quiet spellings, so each must print something when it succeeds.
describe('the repository cache git commands print when they succeed', () => {
  it('init, fetch (refs moved) and the commit checks each print something; the checks still fail, with a message, for what is not a commit here', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cache-commands-'));
    try {
      const source = await sourceRepo(root);
      const copy = join(root, 'copy.git');

      assert.match(await printed(root, cacheCommands.initBare(copy)), /Initialized empty Git repository/);
      await assert.rejects(printed(copy, cacheCommands.commitType(source.commit)), /Not a valid object name/);
      assert.match(await printed(copy, cacheCommands.fetchAll(`file://${source.dir}`)), /\[new branch\]\s+main\s+-> main/);
      assert.equal((await printed(copy, cacheCommands.commitType(source.commit))).trim(), 'commit');
      await assert.rejects(printed(copy, cacheCommands.commitType(source.tree)), /.+/);
      assert.equal((await printed(copy, cacheCommands.commitOf(source.commit.slice(0, 10)))).trim(), source.commit);
      assert.equal((await printed(copy, cacheCommands.commitOf('main'))).trim(), source.commit);
      await assert.rejects(printed(copy, cacheCommands.commitOf('0123456789ab')), /Needed a single revision/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
