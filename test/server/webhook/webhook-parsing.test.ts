import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gitTargets } from '../../../src/model/git-targets.js';
import { shortRevision } from '../../../src/model/push.js';
import { verifyRequest, WebhookRejection } from '../../../src/server/webhook/providers.js';
import { parsePushEvent } from '../../../src/server/webhook/push-event.js';
import { pushAffects } from '../../../src/model/push-matching.js';
import { repoIdentity } from '../../../src/model/git-url.js';
import { payloads, signedHeaders } from './payloads.js';

const secret = 's3cr3t-Token';
const secrets = { github: secret, gitlab: secret, gitea: secret, bitbucket: secret, 'bitbucket-server': secret };
const providers = Object.keys(payloads) as Array<keyof typeof payloads>;

describe('webhook verification', () => {
  for (const provider of providers) {
    const body = JSON.stringify(payloads[provider]);
    it(`accepts a correctly signed ${provider} push`, () => {
      assert.equal(verifyRequest(signedHeaders(provider, secret, body), Buffer.from(body), secrets).provider, provider);
    });
    it(`refuses a ${provider} push with a wrong signature, a tampered body, or no secret configured`, () => {
      const headers = signedHeaders(provider, 'wrong-secret', body);
      assert.throws(
        () => verifyRequest(headers, Buffer.from(body), secrets),
        (e: unknown) => e instanceof WebhookRejection && e.status === 401,
      );
      const good = signedHeaders(provider, secret, body);
      if (provider !== 'gitlab') assert.throws(() => verifyRequest(good, Buffer.from(body.replace('main', 'evil')), secrets), /signature is missing or wrong/);
      assert.throws(() => verifyRequest(good, Buffer.from(body), {}), /no webhook\.\S+ is configured/);
    });
  }

  it('refuses a request with the signature header removed, and an unknown provider with 400', () => {
    const body = JSON.stringify(payloads.github);
    assert.throws(
      () => verifyRequest({ 'x-github-event': 'push' }, Buffer.from(body), secrets),
      (e: unknown) => e instanceof WebhookRejection && e.status === 401,
    );
    assert.throws(
      () => verifyRequest({ 'content-type': 'application/json' }, Buffer.from(body), secrets),
      (e: unknown) => e instanceof WebhookRejection && e.status === 400,
    );
  });

  it('compares the GitLab token exactly (case matters)', () => {
    assert.throws(() => verifyRequest({ 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': secret.toLowerCase() }, Buffer.from('{}'), secrets), /wrong/);
  });
});

describe('push payloads', () => {
  it('reads repository URLs, revisions and the default branch for every provider', () => {
    assert.deepEqual(parsePushEvent('github', payloads.github), {
      provider: 'github',
      repoURLs: ['https://github.com/platform/monorepo', 'https://github.com/platform/monorepo.git', 'git@github.com:platform/monorepo.git'],
      revisions: ['main'],
      touchesDefaultBranch: true,
    });
    assert.deepEqual(parsePushEvent('gitea', payloads.gitea).revisions, ['release/1.0']);
    assert.equal(parsePushEvent('gitea', payloads.gitea).touchesDefaultBranch, false);
    assert.equal(parsePushEvent('gitlab', payloads.gitlab).touchesDefaultBranch, true);
    const cloud = parsePushEvent('bitbucket', payloads.bitbucket);
    assert.deepEqual(cloud.revisions, ['v1.2.0']);
    assert.ok(cloud.repoURLs.includes('git@bitbucket.org:platform/monorepo.git'));
    const server = parsePushEvent('bitbucket-server', payloads['bitbucket-server']);
    assert.deepEqual(server.revisions, ['main']);
    assert.equal(server.touchesDefaultBranch, undefined);
  });

  it('refuses a payload without repository or ref with 400', () => {
    assert.throws(
      () => parsePushEvent('github', { ref: 'refs/heads/main' }),
      (e: unknown) => e instanceof WebhookRejection && e.status === 400,
    );
    assert.throws(() => parsePushEvent('gitlab', { project: { web_url: 'https://gitlab.example/a/b' } }), /no branch or tag/);
    assert.throws(() => parsePushEvent('bitbucket', 'not an object'), /no repository URL/);
  });

  it('shortens refs as Argo CD does', () => {
    assert.equal(shortRevision('refs/heads/feature/x'), 'feature/x');
    assert.equal(shortRevision('refs/tags/v1'), 'v1');
    assert.equal(shortRevision('main'), 'main');
  });
});

describe('matching pushes to git generators', () => {
  it('gives one identity to every way of writing a repository URL', () => {
    const forms = [
      'https://GitHub.com/Platform/Monorepo',
      'https://github.com/platform/monorepo.git/',
      'git@github.com:platform/monorepo.git',
      'ssh://git@github.com:22/platform/monorepo',
      'http://github.com/platform/monorepo',
    ];
    assert.deepEqual(new Set(forms.map(repoIdentity)), new Set(['github.com/platform/monorepo']));
    assert.equal(repoIdentity('file:///srv/git/monorepo.git'), undefined);
    assert.equal(repoIdentity('not a url'), undefined);
  });

  it('finds git generators at the top level and inside matrix and merge', () => {
    const spec = {
      generators: [
        { git: { repoURL: 'https://github.com/a/one', revision: 'main' } },
        { matrix: { generators: [{ git: { repoURL: 'https://github.com/a/two' } }, { list: { elements: [] } }] } },
        { merge: { generators: [{ matrix: { generators: [{ git: { repoURL: 'https://github.com/a/three', revision: 'v1' } }] } }] } },
        { list: { elements: [] } },
      ],
    };
    assert.deepEqual(gitTargets(spec), [
      { repoURL: 'https://github.com/a/one', revision: 'main' },
      { repoURL: 'https://github.com/a/two', revision: '' },
      { repoURL: 'https://github.com/a/three', revision: 'v1' },
    ]);
  });

  it('wakes generators on the pushed branch, tag or default branch only', () => {
    const push = parsePushEvent('github', payloads.github);
    const repo = 'git@github.com:platform/monorepo.git';
    assert.ok(pushAffects(push, { repoURL: repo, revision: 'main' }));
    assert.ok(pushAffects(push, { repoURL: repo, revision: 'refs/heads/main' }));
    assert.ok(pushAffects(push, { repoURL: repo, revision: 'HEAD' }));
    assert.ok(pushAffects(push, { repoURL: repo, revision: '' }));
    assert.ok(!pushAffects(push, { repoURL: repo, revision: 'develop' }));
    assert.ok(!pushAffects(push, { repoURL: 'https://github.com/platform/other', revision: 'main' }));
    const branchPush = parsePushEvent('gitea', payloads.gitea);
    assert.ok(!pushAffects(branchPush, { repoURL: 'https://gitea.example/platform/monorepo', revision: 'HEAD' }), 'a non-default branch does not move HEAD');
    const unknownDefault = parsePushEvent('bitbucket-server', payloads['bitbucket-server']);
    assert.ok(
      pushAffects(unknownDefault, { repoURL: 'https://bitbucket.example/scm/plat/monorepo.git', revision: 'HEAD' }),
      'when the payload cannot tell, HEAD is refreshed',
    );
  });
});

describe('per-source rate limiter', () => {
  it('refills over time and keeps sources apart', async () => {
    const { SourceRateLimiter } = await import('../../../src/server/webhook/rate-limiter.js');
    let now = 0;
    const limiter = new SourceRateLimiter(2, 100, () => now);
    assert.deepEqual([limiter.take('a'), limiter.take('a'), limiter.take('a')], [true, true, false]);
    assert.equal(limiter.take('b'), true, 'another source has its own bucket');
    now += 30_000;
    assert.equal(limiter.take('a'), true, 'half a minute refills one of two tokens');
    assert.equal(limiter.take('a'), false);
  });
});
