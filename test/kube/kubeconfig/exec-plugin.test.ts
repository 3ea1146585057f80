import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { loadKubeConfig } from '../../../src/kube/kubeconfig.js';
import { kubeconfig, tempDir } from './temp-files.js';

const SERVER = 'https://api.example:6443';
const V1 = 'client.authentication.k8s.io/v1';

/**
 * A credential plugin as a node script: it appends its KUBERNETES_EXEC_INFO and arguments to `log` (one
 * JSON line a run) and prints the status given in the PLUGIN_STATUS environment variable.
 */
const PLUGIN = `#!${process.execPath}
const fs = require('node:fs');
fs.appendFileSync(process.env.PLUGIN_LOG, JSON.stringify({ info: JSON.parse(process.env.KUBERNETES_EXEC_INFO), args: process.argv.slice(2), greeting: process.env.GREETING }) + '\\n');
if (process.env.PLUGIN_FAIL) { process.stderr.write('\\nlogin required: run sso login\\nmore detail\\n'); process.exit(3); }
process.stdout.write(JSON.stringify({ apiVersion: process.env.PLUGIN_API, kind: 'ExecCredential', status: JSON.parse(process.env.PLUGIN_STATUS) }));
`;

function runs(log: string): Array<{ info: { apiVersion: string; kind: string; spec: Record<string, unknown> }; args: string[]; greeting?: string }> {
  try {
    return readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ReturnType<typeof runs>[number]);
  } catch {
    return [];
  }
}

function setup(t: Parameters<typeof tempDir>[0], status: object, extra: { apiVersion?: string; fail?: boolean; provideClusterInfo?: boolean } = {}) {
  const { dir, write } = tempDir(t);
  write('bin/plugin.cjs', PLUGIN, 0o755);
  const log = `${dir}/runs.log`;
  const apiVersion = extra.apiVersion ?? V1;
  const env = [
    { name: 'PLUGIN_LOG', value: log },
    { name: 'PLUGIN_API', value: apiVersion },
    { name: 'PLUGIN_STATUS', value: JSON.stringify(status) },
    { name: 'GREETING', value: 'hello' },
    ...(extra.fail ? [{ name: 'PLUGIN_FAIL', value: '1' }] : []),
  ];
  const exec = {
    apiVersion,
    command: './bin/plugin.cjs',
    args: ['--cluster', 'prod'],
    env,
    interactiveMode: 'Never',
    provideClusterInfo: extra.provideClusterInfo ?? false,
  };
  const file = write('config', kubeconfig({ server: SERVER, 'insecure-skip-tls-verify': true }, { exec }));
  return { kc: loadKubeConfig(file), log };
}

describe('exec credential plugins', () => {
  it('runs the plugin (relative to the kubeconfig) with args, env and KUBERNETES_EXEC_INFO, and sends its token', async (t) => {
    const { kc, log } = setup(t, { token: 'from-plugin' });
    assert.equal((await kc.connection()).headers.Authorization, 'Bearer from-plugin');
    const run = runs(log)[0];
    assert.ok(run, 'the plugin ran');
    assert.deepEqual(run.args, ['--cluster', 'prod']);
    assert.equal(run.greeting, 'hello');
    assert.deepEqual(run.info, { apiVersion: V1, kind: 'ExecCredential', spec: { interactive: false } });
  });

  it('speaks v1beta1 too, and gives the cluster when provideClusterInfo is set', async (t) => {
    const { kc, log } = setup(t, { token: 'beta' }, { apiVersion: 'client.authentication.k8s.io/v1beta1', provideClusterInfo: true });
    assert.equal((await kc.connection()).headers.Authorization, 'Bearer beta');
    assert.deepEqual(runs(log)[0]?.info.spec, { interactive: false, cluster: { server: SERVER, 'insecure-skip-tls-verify': true } });
  });

  it('uses a client certificate the plugin returns', async (t) => {
    const { kc } = setup(t, { clientCertificateData: 'CERT-PEM', clientKeyData: 'KEY-PEM' });
    const { tls, headers } = await kc.connection();
    assert.deepEqual([tls.cert, tls.key, headers.Authorization], ['CERT-PEM', 'KEY-PEM', undefined]);
  });

  it('keeps a credential until its expirationTimestamp, then runs the plugin again', async (t) => {
    const { kc: lasting, log: lastingLog } = setup(t, { token: 'long', expirationTimestamp: new Date(Date.now() + 3_600_000).toISOString() });
    await lasting.connection();
    await lasting.connection();
    assert.equal(runs(lastingLog).length, 1, 'an unexpired credential is reused');
    const { kc: expiring, log: expiringLog } = setup(t, { token: 'short', expirationTimestamp: new Date(Date.now() + 1_500).toISOString() });
    await expiring.connection();
    await expiring.connection();
    assert.equal(runs(expiringLog).length, 1);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    await expiring.connection();
    assert.equal(runs(expiringLog).length, 2, 'an expired credential is fetched again');
  });

  it('runs the plugin once for concurrent resolutions', async (t) => {
    const { kc, log } = setup(t, { token: 'x', expirationTimestamp: new Date(Date.now() + 3_600_000).toISOString() });
    await Promise.all([kc.connection(), kc.connection(), kc.connection()]);
    assert.equal(runs(log).length, 1);
  });

  it('a failing plugin is an error naming the command and the first line of its stderr', async (t) => {
    const { kc } = setup(t, {}, { fail: true });
    await assert.rejects(kc.connection(), /exec plugin ".*\/bin\/plugin\.cjs" failed \(exit code 3\): login required: run sso login$/);
  });

  it('a plugin that cannot be found names the command and the install hint', async (t) => {
    const { write } = tempDir(t);
    const exec = { apiVersion: V1, command: 'no-such-plugin-xyz', installHint: 'install it with: brew install xyz', interactiveMode: 'Never' };
    const kc = loadKubeConfig(write('config', kubeconfig({ server: SERVER }, { exec })));
    await assert.rejects(kc.connection(), /exec plugin "no-such-plugin-xyz" could not run: ENOENT\ninstall it with: brew install xyz/);
  });

  it('rejects a credential without token or certificate, or of the wrong apiVersion', async (t) => {
    await assert.rejects(setup(t, {}).kc.connection(), /gave neither status.token nor both/);
    const { write } = tempDir(t);
    write('p.sh', `#!/bin/sh\necho '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"t"}}'\n`, 0o755);
    const kc = loadKubeConfig(write('config', kubeconfig({ server: SERVER }, { exec: { apiVersion: V1, command: './p.sh' } })));
    await assert.rejects(kc.connection(), /printed client.authentication.k8s.io\/v1beta1 ExecCredential, expected client.authentication.k8s.io\/v1/);
  });

  it('refuses interactiveMode Always: a controller has no terminal', (t) => {
    const { write } = tempDir(t);
    const exec = { apiVersion: V1, command: 'x', interactiveMode: 'Always' };
    assert.throws(() => loadKubeConfig(write('config', kubeconfig({ server: SERVER }, { exec }))), /interactiveMode Always/);
  });
});
