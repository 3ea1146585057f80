import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Secret } from '@kubernetes/client-node';
import { findCredentials } from '../../src/git/credentials.js';
import { normalizeGitUrl } from '../../src/model/git-url.js';

function secret(name: string, type: string, data: Record<string, string>): V1Secret {
  return {
    metadata: { name, namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': type } },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  };
}

describe('findCredentials', () => {
  const secrets = [
    secret('org-wide', 'repo-creds', { url: 'https://git.example/org', username: 'org', password: 'org-pw' }),
    secret('team', 'repo-creds', { url: 'https://git.example/org/team', username: 'team', password: 'team-pw' }),
    secret('exact', 'repository', { url: 'https://git.example/org/team/app.git', username: 'app', password: 'app-pw' }),
    secret('token', 'repository', { url: 'https://tokens.example/r', bearerToken: 'tok' }),
    secret('ssh', 'repository', { url: 'git@ssh.example:r.git', sshPrivateKey: '-----BEGIN KEY-----' }),
    secret('cluster', 'cluster', { url: 'https://git.example/org/x', password: 'no' }),
  ];
  const cases: [string, string | undefined, string | undefined][] = [
    ['https://git.example/org/team/app.git', 'argocd/exact', 'app'],
    ['https://GIT.example/org/team/app/', 'argocd/exact', 'app'],
    ['https://git.example/org/team/other.git', 'argocd/team', 'team'],
    ['https://git.example/org/other.git', 'argocd/org-wide', 'org'],
    ['https://git.example/org/x', 'argocd/org-wide', 'org'],
    ['https://elsewhere.example/r.git', undefined, undefined],
  ];
  for (const [url, source, username] of cases) {
    it(`${url} → ${source ?? 'none'}`, () => {
      const found = findCredentials(url, secrets);
      assert.equal(found?.source.secret, source);
      assert.equal(found?.credentials.kind === 'basic' ? found.credentials.username : undefined, username);
    });
  }
  it('reads a bearer token and an SSH key', () => {
    assert.deepEqual(findCredentials('https://tokens.example/r', secrets)?.credentials, { kind: 'bearer', token: 'tok' });
    assert.equal(findCredentials('git@ssh.example:r.git', secrets)?.credentials.kind, 'ssh');
  });
  it('a token without a username gets a placeholder username', () => {
    const found = findCredentials('https://t.example/r', [secret('t', 'repository', { url: 'https://t.example/r', password: 'ghp_x' })]);
    assert.deepEqual(found?.credentials, { kind: 'basic', username: 'x-access-token', password: 'ghp_x' });
  });
  it('reads stringData too', () => {
    const s: V1Secret = {
      metadata: { name: 's', labels: { 'argocd.argoproj.io/secret-type': 'repository' } },
      stringData: { url: 'https://s.example/r', username: 'u', password: 'p' },
    };
    assert.deepEqual(findCredentials('https://s.example/r', [s])?.credentials, { kind: 'basic', username: 'u', password: 'p' });
  });
  it('compares URLs with the one normaliser (case, trailing / and .git, scp style)', () => {
    assert.equal(normalizeGitUrl('HTTPS://Host/Org/Repo.git/'), 'https://host/org/repo');
    assert.equal(findCredentials('ssh://git@SSH.example/r', secrets)?.source.secret, 'argocd/ssh');
    assert.equal(findCredentials('not a url', [secret('bad', 'repo-creds', { url: 'also not a url', password: 'x' })]), undefined);
  });
});
