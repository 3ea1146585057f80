import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Secret } from '@kubernetes/client-node';
import { GitError } from '../../src/git/git-error.js';
import { credentialsFor, explainOutOfScope } from '../../src/git/scoped-credentials.js';

function secret(name: string, project: string | undefined, data: Record<string, string>, type = 'repository'): V1Secret {
  return {
    metadata: { name, namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': type } },
    data: Object.fromEntries(Object.entries({ ...data, ...(project ? { project } : {}) }).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  };
}

describe('scoped credentials', () => {
  const where = { repoURL: 'https://git.example/team/app.git', revision: 'main' };
  const other = secret('other-creds', 'other', { url: where.repoURL, username: 'o', password: 'other-pw' });
  const own = secret('own-creds', 'own', { url: 'https://git.example/team', username: 'u', password: 'own-pw' }, 'repo-creds');
  const tenant = { usesSecret: (s: V1Secret) => Buffer.from(s.data?.project ?? '', 'base64').toString() === 'own' };
  const authFailure = new GitError('auth', where, 'authentication failed');

  it("picks the best matching Secret among those the caller may use, never another project's", () => {
    assert.equal(credentialsFor(where, tenant, [other, own])?.source.secret, 'argocd/own-creds');
    assert.equal(credentialsFor(where, {}, [other, own])?.source.secret, 'argocd/other-creds', 'the platform may use every Secret');
    assert.equal(credentialsFor(where, tenant, [other]), undefined);
  });

  it('refuses an SSH key for a URL that is not an SSH URL', () => {
    const ssh = secret('ssh-creds', undefined, { url: where.repoURL, sshPrivateKey: '-----BEGIN KEY-----' });
    assert.throws(() => credentialsFor(where, {}, [ssh]), /Secret argocd\/ssh-creds holds an SSH private key/);
  });

  it('names a withheld Secret on an auth failure, and nothing else', () => {
    const explained = explainOutOfScope(authFailure, where, tenant, undefined, [other, own]);
    assert.ok(explained instanceof GitError && explained.kind === 'auth');
    assert.match(explained.message, /authentication failed; Secret argocd\/other-creds matches this repository but is not scoped/);
    assert.doesNotMatch(explained.message, /other-pw/, 'never the content');
    assert.equal(explainOutOfScope(authFailure, where, {}, undefined, [other]), authFailure, 'the platform is withheld nothing');
    const used = credentialsFor(where, tenant, [own]);
    assert.equal(explainOutOfScope(authFailure, where, tenant, used, [own]), authFailure, 'the Secret used is not withheld');
    const unreachable = new GitError('unreachable', where, 'no route');
    assert.equal(explainOutOfScope(unreachable, where, tenant, undefined, [other]), unreachable, 'only auth failures');
  });
});
