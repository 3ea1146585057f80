import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { findOnPath } from '../../src/environment/prerequisites.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** A PATH holding every program the commands need except redis-server, and no apt-get to install it with. */
function pathWithoutRedis(): string {
  const bin = mkdtempSync(join(tmpdir(), 'fresh-bin-'));
  for (const program of ['git', 'go', 'flock', 'openssl', 'ssh', 'ssh-keygen', 'gcc', 'bash']) {
    const found = findOnPath(program, `${process.env.PATH ?? ''}:/usr/local/go/bin`);
    assert.ok(found, `${program} is needed to set this test up`);
    symlinkSync(found, join(bin, program));
  }
  return bin;
}

/** Runs `args` with node, that PATH and an empty build cache; returns the exit code, output and the cache. */
async function runWithoutRedis(args: string[]): Promise<{ code: number; output: string; cache: string }> {
  const cache = mkdtempSync(join(tmpdir(), 'fresh-cache-'));
  const env = { HOME: process.env.HOME ?? tmpdir(), PATH: pathWithoutRedis(), APPSET_BIN_CACHE: cache, CI: 'true' };
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: repoRoot, env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: typeof error?.code === 'number' ? error.code : error ? -1 : 0, output: `${stdout}${stderr}`, cache });
    });
  });
}

/** Asserts the one message: redis-server named with why, the exact install command, no stack, nothing built. */
function assertRefusedBeforeAnyBuild(result: { code: number; output: string; cache: string }, command: string): void {
  assert.notEqual(result.code, 0, result.output);
  assert.match(result.output, /missing programs, so nothing was built or started:\n {2}redis-server {2}holds the work queue/);
  assert.match(result.output, /^ {2}(sudo )?apt-get update && (sudo )?apt-get install -y redis-server$/m);
  assert.match(result.output, new RegExp(`then run ${command} again\\.`));
  assert.doesNotMatch(result.output, /^\s+at /m, 'an expected failure printed a stack trace');
  assert.doesNotMatch(result.output, /build-binaries|building/);
  assert.deepEqual(existsSync(result.cache) ? readdirSync(result.cache) : [], [], 'a build started');
}

describe('a fresh machine without redis-server', () => {
  it('the test command stops before any build with one message and a non-zero exit', async () => {
    const result = await runWithoutRedis([join(repoRoot, 'dist', 'test', 'run.js'), 'local.serial.int']);
    assertRefusedBeforeAnyBuild(result, 'npm test');
    assert.match(result.output, /^npm test: missing programs/m);
  });

  it('appset local stops before any build with one message and a non-zero exit', async () => {
    const result = await runWithoutRedis([join(repoRoot, 'bin', 'appset.js'), 'local', '--exit-when-ready']);
    assertRefusedBeforeAnyBuild(result, 'appset local');
    assert.match(result.output, /^appset local: missing programs/m);
  });
});
