import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const bin = fileURLToPath(new URL('../../../bin/appset.js', import.meta.url));

describe('appset local (the README main command)', () => {
  it('starts the local cluster, generates the example Applications with two replicas, and cleans up', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [bin, 'local', '--exit-when-ready'], { timeout: 240_000, maxBuffer: 16 * 1024 * 1024 });
    const listed = [...stdout.matchAll(/^ {2}(\S+\/\S+)$/gm)].map((m) => m[1]);
    assert.equal(listed.length, 12, stdout);
    for (const name of ['argocd/addon-cert-manager', 'argocd/guestbook-prod', 'team-a/team-a-worker-staging']) assert.ok(listed.includes(name), `${name} missing`);
    assert.match(stdout, /^kubeconfig: {2}\S+admin\.kubeconfig$/m);
    assert.match(stdout, /^metrics: {5}http:\/\/127\.0\.0\.1:\d+\/metrics$/m);
    assert.match(stdout, /stopped and cleaned up/);
  });
});
