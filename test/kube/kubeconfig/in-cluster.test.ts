import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadKubeConfig } from '../../../src/kube/kubeconfig.js';
import { tempDir } from './temp-files.js';

describe('in-cluster kubeconfig', () => {
  it('uses the service account token, CA and namespace when no kubeconfig file exists', async (t) => {
    const { dir, write } = tempDir(t);
    write('sa/token', 'token-1\n');
    write('sa/ca.crt', 'SA-CA');
    write('sa/namespace', 'argocd');
    const kc = loadKubeConfig(undefined, {
      env: { HOME: dir, KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' },
      serviceAccountDir: join(dir, 'sa'),
    });
    assert.equal(kc.server, 'https://10.96.0.1:443');
    assert.equal(kc.namespace, 'argocd');
    assert.deepEqual(await kc.connection(), { headers: { Authorization: 'Bearer token-1' }, tls: { ca: 'SA-CA', rejectUnauthorized: true } });
    write('sa/token', 'token-2'); // the kubelet rotates bound tokens in place
    assert.equal((await kc.connection()).headers.Authorization, 'Bearer token-2');
  });

  it('brackets an IPv6 host', (t) => {
    const { dir, write } = tempDir(t);
    write('sa/token', 't');
    const kc = loadKubeConfig(undefined, {
      env: { HOME: dir, KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' },
      serviceAccountDir: join(dir, 'sa'),
    });
    assert.equal(kc.server, 'https://[fd00::1]:443');
  });

  it('fails clearly without KUBERNETES_SERVICE_HOST/PORT, or when the token is gone', async (t) => {
    const { dir, write } = tempDir(t);
    write('sa/token', 't');
    const serviceAccountDir = join(dir, 'sa');
    assert.throws(
      () => loadKubeConfig(undefined, { env: { HOME: dir }, serviceAccountDir }),
      /KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set/,
    );
    write('sa/ca.crt', 'CA');
    const kc = loadKubeConfig(undefined, { env: { HOME: dir, KUBERNETES_SERVICE_HOST: 'h', KUBERNETES_SERVICE_PORT: '443' }, serviceAccountDir });
    write('sa/token', '');
    await assert.rejects(kc.connection(), /service account token .* is empty/);
  });
});
