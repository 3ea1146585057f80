import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildParts, buildScriptPath, reported } from '../../src/environment/local/binaries.js';
import { waitFor } from '../../src/environment/local/wait-for.js';

/** Runs the build script for `parts` against `cache`; resolves with its exit code and output (killed after `timeoutMs`). */
function runScript(parts: string[], cache: string, timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', [buildScriptPath(), ...parts], { env: { ...process.env, APPSET_BIN_CACHE: cache }, timeout: timeoutMs }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

describe('build-binaries.sh and its lock', () => {
  const cache = mkdtempSync(join(tmpdir(), 'bin-cache-'));
  const lock = join(cache, '.lock');
  let holder: ChildProcess | undefined;
  // Another build (Argo CD's takes most of an hour on a cold machine) holds the cache's lock throughout.
  before(async () => {
    holder = spawn('flock', [lock, 'sleep', '300'], { stdio: 'ignore' });
    await waitFor(() => existsSync(lock) && spawnSync('flock', ['-n', lock, 'true']).status === 1, {
      timeoutMs: 10_000,
      what: 'the other build to take the lock',
    });
  });
  after(() => {
    holder?.kill('SIGKILL');
    rmSync(cache, { recursive: true, force: true });
  });

  it('does not wait for another build when every part asked for is built already', async () => {
    // The folder names come from the real cache (versions and Go's); here they only hold the marker.
    const real = await buildParts(['etcd', 'kube']);
    for (const key of ['ETCD_BIN', 'KUBE_APISERVER_BIN']) {
      const folder = join(cache, basename(dirname(reported(real, key))));
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, '.complete'), '');
    }
    const result = await runScript(['etcd', 'kube'], cache, 30_000);
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /waiting for it/);
    assert.match(result.stdout, new RegExp(`^ETCD_BIN=${cache}/etcd-[^/]+/etcd$`, 'm'));
    assert.match(result.stdout, new RegExp(`^KUBE_APISERVER_BIN=${cache}/kubernetes-[^/]+/kube-apiserver$`, 'm'));
  });

  it('waits for the lock when a part asked for is not built', async () => {
    // Helm is not in this cache: the script must queue behind the holder rather than build beside it.
    const result = await runScript(['etcd', 'helm'], cache, 5_000);
    assert.notEqual(result.code, 0, 'the script finished while another build held the lock');
    assert.match(result.stderr, /another build holds .*\.lock; waiting for it/);
    assert.deepEqual(
      readdirSync(cache).filter((name) => name.startsWith('helm')),
      [],
      'a helm build started',
    );
  });
});
