import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadKubeConfig } from '../../../src/kube/kubeconfig.js';
import { createKubeTransport } from '../../../src/kube/transport/transport.js';
import { sharedEnvironment } from '../../env/shared-environment.js';

interface SelfSubjectReview {
  status: { userInfo: { username: string; groups?: string[] } };
}

/** Who the API server says the kubeconfig at `path` is. */
async function whoAmI(path: string): Promise<SelfSubjectReview['status']['userInfo']> {
  const transport = createKubeTransport(loadKubeConfig(path));
  const review = await transport.request<SelfSubjectReview>({
    method: 'POST',
    path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
  });
  return review.status.userInfo;
}

describe('the kubeconfig loader against the real kube-apiserver', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'kubeconfig-int-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('authenticates with a client certificate named by paths relative to the kubeconfig', async () => {
    const user = await whoAmI(sharedEnvironment().certKubeconfigPath);
    assert.equal(user.username, 'cert-admin'); // the token kubeconfig's user is "admin"
    assert.ok(user.groups?.includes('system:masters'), JSON.stringify(user));
    const namespaces = await createKubeTransport(loadKubeConfig(sharedEnvironment().certKubeconfigPath)).request<{ items: unknown[] }>({
      method: 'GET',
      path: '/api/v1/namespaces',
    });
    assert.ok(namespaces.items.length > 0);
  });

  it('impersonates the user named by "as"', async () => {
    const admin = JSON.parse(readFileSync(sharedEnvironment().kubeconfigPath, 'utf8')) as { users: Array<{ user: Record<string, unknown> }> };
    for (const u of admin.users) Object.assign(u.user, { as: 'system:serviceaccount:probe:someone', 'as-groups': ['probe-group'] });
    const path = join(scratch, 'impersonating.kubeconfig');
    writeFileSync(path, JSON.stringify(admin));
    const user = await whoAmI(path);
    assert.equal(user.username, 'system:serviceaccount:probe:someone');
    assert.ok(user.groups?.includes('probe-group'), JSON.stringify(user));
  });

  it('is refused with 401 when the token is wrong: the server checks what the loader sends', async () => {
    const admin = JSON.parse(readFileSync(sharedEnvironment().kubeconfigPath, 'utf8')) as { users: Array<{ user: Record<string, unknown> }> };
    for (const u of admin.users) u.user.token = 'not-the-token';
    const path = join(scratch, 'wrong-token.kubeconfig');
    writeFileSync(path, JSON.stringify(admin));
    await assert.rejects(whoAmI(path), (error: { status?: number }) => error.status === 401);
  });
});
