import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Secret } from '@kubernetes/client-node';
import { findCredentials } from '../../src/git/credentials.js';
import { checkResolvedAddresses, repositoryHost } from '../../src/git/repo-access.js';
import { GitError } from '../../src/git/git-error.js';
import { SHARED_CREDENTIALS_LABEL } from '../../src/model/secrets.js';
import { secretUsableByProject, tenantRepoAccess } from '../../src/tenancy/credential-scope.js';

function secret(name: string, data: Record<string, string>, labels: Record<string, string> = {}): V1Secret {
  return {
    metadata: { name, namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': 'repository', ...labels } },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  };
}

const URL = 'https://git.example/shared/repo.git';
const ownProject = secret('team-a', { url: URL, project: 'team-a', password: 'a' });
const otherProject = secret('team-b', { url: URL, project: 'team-b', password: 'b' });
const otherProjectMarkedShared = secret('team-b-shared', { url: URL, project: 'team-b', password: 'b2' }, { [SHARED_CREDENTIALS_LABEL]: 'true' });
const platformOnly = secret('platform', { url: URL, password: 'p' });
const shared = secret('shared', { url: URL, password: 's' }, { [SHARED_CREDENTIALS_LABEL]: 'true' });

describe('credentials scoped by project', () => {
  it("a tenant uses its own project's Secret", () => assert.ok(secretUsableByProject(ownProject, 'team-a')));
  it("a tenant never uses another project's Secret, even one marked shared", () => {
    assert.ok(!secretUsableByProject(otherProject, 'team-a'));
    assert.ok(!secretUsableByProject(otherProjectMarkedShared, 'team-a'));
  });
  it('an unscoped Secret is the platform’s unless marked shared', () => {
    assert.ok(!secretUsableByProject(platformOnly, 'team-a'));
    assert.ok(secretUsableByProject(shared, 'team-a'));
    assert.ok(!secretUsableByProject(secret('x', { url: URL, password: 'x' }, { [SHARED_CREDENTIALS_LABEL]: 'yes' }), 'team-a'), 'only "true" marks shared');
  });
  it('findCredentials over the filtered Secrets picks nothing of another project', () => {
    const access = tenantRepoAccess('team-c');
    const usable = [otherProject, platformOnly, otherProjectMarkedShared].filter((s) => access.usesSecret?.(s));
    assert.equal(findCredentials(URL, usable), undefined);
    const withShared = [otherProject, shared].filter((s) => access.usesSecret?.(s));
    assert.equal(findCredentials(URL, withShared)?.source.secret, 'argocd/shared');
  });
});

describe('resolved addresses of tenant repository hosts', () => {
  const where = (repoURL: string) => ({ repoURL });
  const resolver = (table: Record<string, string[]>) => (host: string) =>
    table[host] ? Promise.resolve(table[host]) : Promise.reject(new Error(`ENOTFOUND ${host}`));
  const dns = resolver({
    'git.example': ['203.0.113.7'],
    'sneaky.example': ['203.0.113.8', '127.0.0.1'],
    'metadata.example': ['169.254.169.254'],
    'v6.example': ['::ffff:127.0.0.1'],
  });

  it('finds the host of https, ssh and scp-style URLs, none for file', () => {
    assert.equal(repositoryHost('https://git.example/a'), 'git.example');
    assert.equal(repositoryHost('ssh://git@[::1]:22/a'), '::1');
    assert.equal(repositoryHost('git@git.example:org/a.git'), 'git.example');
    assert.equal(repositoryHost('file:///srv/git'), undefined);
  });
  it('lets a host through whose every address is remote', async () => {
    await checkResolvedAddresses(tenantRepoAccess('p', undefined, dns), where('https://git.example/a'));
  });
  for (const [host, rule] of [
    ['sneaky.example', /loopback/],
    ['metadata.example', /link-local/],
    ['v6.example', /loopback/],
  ] as const) {
    it(`refuses ${host}: one of its addresses is ${String(rule)}`, async () => {
      await assert.rejects(
        checkResolvedAddresses(tenantRepoAccess('p', undefined, dns), where(`https://${host}/a`)),
        (e: unknown) => e instanceof GitError && e.kind === 'invalid-input' && rule.test(e.message) && e.message.includes(host),
      );
    });
  }
  it('a host that does not resolve is unreachable, not a pass', async () => {
    await assert.rejects(
      checkResolvedAddresses(tenantRepoAccess('p', undefined, dns), where('https://nowhere.example/a')),
      (e: unknown) => e instanceof GitError && e.kind === 'unreachable',
    );
  });
  it('the platform allowance lifts the loopback refusal', async () => {
    await checkResolvedAddresses(
      tenantRepoAccess('p', { allowFile: true, allowLoopback: true, allowLinkLocal: false }, dns),
      where('https://sneaky.example/a'),
    );
  });
});
