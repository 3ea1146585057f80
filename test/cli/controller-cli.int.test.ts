import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTestNamespace, type TestNamespace } from '../env/namespaces.js';
import { freePort } from '../../src/environment/local/free-port.js';
import { adminKubeConfig, sharedEnvironment } from '../env/shared-environment.js';
import { waitFor } from '../../src/environment/local/wait-for.js';

const bin = fileURLToPath(new URL('../../../bin/appset.js', import.meta.url));

describe('appset controller as a process', () => {
  let ns: TestNamespace;
  before(async () => (ns = await createTestNamespace(adminKubeConfig(), 'cli')));
  after(() => ns.delete());

  it('becomes ready, serves metrics, and drains and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [bin, 'controller', '--namespace', ns.name, '--listen-address', `127.0.0.1:${port}`, '--log-level', 'warn'], {
      env: { ...process.env, KUBECONFIG: sharedEnvironment().kubeconfigPath },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, {
        what: `/readyz (output so far: ${output})`,
        timeoutMs: 30_000,
      });
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      assert.match(metrics, /^# HELP argocd_appset_reconcile /m);
      child.kill('SIGTERM');
      assert.equal(await exited, 0, output);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
