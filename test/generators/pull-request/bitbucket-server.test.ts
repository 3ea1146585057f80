import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bitbucketServerPullRequests as provider } from '../../../src/generators/pull-request/providers/bitbucket-server.js';
import { ScmApiError } from '../../../src/scm/http/errors.js';
import { assertApiFailure, assertRepositoryNotFound, assertSpecError, listPullRequests } from './harness.js';
import { targets, withRecorded } from './recorded-api.js';
import { BITBUCKET_SERVER_NOT_FOUND, BITBUCKET_SERVER_UNAUTHORIZED, bitbucketServerPage, bitbucketServerPull } from './recordings/bitbucket-server.js';

const PULLS = '/rest/api/1.0/projects/PLAT/repos/monorepo/pull-requests';
const passwordRef = { secretName: 'bitbucket-creds', key: 'password' };
const tokenRef = { secretName: 'bitbucket-token', key: 'token' };
const basicAuth = { username: 'argocd', passwordRef };
const spec = (origin: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  project: 'PLAT',
  repo: 'monorepo',
  api: `${origin}/rest`,
  ...extra,
});

const pull = (id: number): unknown =>
  bitbucketServerPull({ id, title: `feat(${id})`, from: `feature-${id}`, to: 'master', latestCommit: `${id}`.padStart(40, 'd'), user: `user${id}` });

describe('Bitbucket Server pull requests', () => {
  it('plans the connection with the api as given, and Argo CD’s choice of credentials: bearer, else basic, else none', () => {
    const read = (raw: Record<string, unknown>) =>
      provider.connection(provider.readSpec({ project: 'P', repo: 'r', api: 'https://bb.example/rest', ...raw }, 'f'));
    assert.equal(read({}).apiBase, 'https://bb.example/rest');
    assert.equal(read({}).customApiUrl, 'https://bb.example/rest');
    assert.deepEqual(read({}).auth, { kind: 'none' });
    assert.deepEqual(read({ basicAuth }).auth, { kind: 'basic', username: 'argocd', passwordRef });
    const bearer = read({ basicAuth, bearerToken: { tokenRef } }).auth;
    assert.ok(bearer.kind === 'token');
    assert.deepEqual(bearer.ref, tokenRef);
    assert.deepEqual(bearer.toAuth('bbt'), { kind: 'bearer', token: 'bbt' });
    const tls = read({ insecure: true, caRef: { configMapName: 'argocd-tls-certs-cm', key: 'bitbucket-ca' } });
    assert.equal(tls.insecure, true);
    assert.deepEqual(tls.caRef, { configMapName: 'argocd-tls-certs-cm', key: 'bitbucket-ca' });
  });

  it('follows nextPageStart until isLastPage, with basic auth and the XSRF headers Argo CD adds', async () => {
    await withRecorded(
      {
        [`${PULLS}?limit=100`]: { body: bitbucketServerPage([pull(101), pull(102)], 0, 2) },
        [`${PULLS}?limit=100&start=2`]: { body: bitbucketServerPage([pull(103)], 2, 3) },
        [`${PULLS}?limit=100&start=3`]: { body: bitbucketServerPage([pull(104)], 3) },
      },
      async (api) => {
        const pulls = await listPullRequests(provider, spec(api.origin, { basicAuth }));
        assert.deepEqual(targets(api), [`${PULLS}?limit=100`, `${PULLS}?limit=100&start=2`, `${PULLS}?limit=100&start=3`]);
        for (const request of api.requests) {
          assert.equal(request.headers.authorization, `Basic ${Buffer.from('argocd:s3cr3t-t0ken').toString('base64')}`);
          assert.equal(request.headers['x-atlassian-token'], 'no-check');
          assert.equal(request.headers['x-requested-with'], 'XMLHttpRequest');
        }
        assert.deepEqual(
          pulls.map((p) => p.number),
          [101, 102, 103, 104],
        );
        assert.deepEqual(pulls[2], {
          number: 103,
          title: 'feat(103)',
          branch: 'feature-103',
          targetBranch: 'master',
          headSha: '103'.padStart(40, 'd'),
          labels: [],
          author: 'user103',
        });
      },
    );
  });

  it('sends the bearer token when given, and nothing (no XSRF headers either) without credentials', async () => {
    await withRecorded({ [`${PULLS}?limit=100`]: { body: bitbucketServerPage([pull(1)], 0) } }, async (api) => {
      await listPullRequests(provider, spec(api.origin, { basicAuth, bearerToken: { tokenRef } }));
      await listPullRequests(provider, spec(api.origin));
      assert.equal(api.requests[0]?.headers.authorization, 'Bearer s3cr3t-t0ken');
      assert.equal(api.requests[1]?.headers.authorization, undefined);
      assert.equal(api.requests[1]?.headers['x-atlassian-token'], undefined);
    });
  });

  it('stops with an error on a page that is not the last but names no nextPageStart (Argo CD would loop)', async () => {
    const broken = { ...(bitbucketServerPage([pull(1)], 0) as object), isLastPage: false };
    await withRecorded({ [`${PULLS}?limit=100`]: { body: broken } }, async (api) => {
      await assert.rejects(listPullRequests(provider, spec(api.origin)), (e: unknown) => e instanceof ScmApiError && /nextPageStart/.test(e.message));
      assert.equal(api.requests.length, 1);
    });
  });

  it('turns a 404 of the repository into RepositoryNotFoundError', async () => {
    await withRecorded({ [`${PULLS}?limit=100`]: BITBUCKET_SERVER_NOT_FOUND }, async (api) => {
      await assertRepositoryNotFound(listPullRequests(provider, spec(api.origin)), PULLS);
    });
  });

  it('reports a 401 and a 500 as API errors naming host, path and status', async () => {
    await withRecorded({ [`${PULLS}?limit=100`]: BITBUCKET_SERVER_UNAUTHORIZED }, async (api) => {
      await assertApiFailure(listPullRequests(provider, spec(api.origin, { basicAuth })), api.origin, PULLS, 401);
    });
    await withRecorded(
      { [`${PULLS}?limit=100`]: { status: 500, body: { errors: [{ message: 'An error occurred while processing the request.' }] } } },
      async (api) => {
        await assertApiFailure(listPullRequests(provider, spec(api.origin)), api.origin, PULLS, 500);
      },
    );
  });

  it('refuses specs that Argo CD could not use, naming the field', () => {
    const base = { project: 'P', repo: 'r', api: 'https://bb.example/rest' };
    assertSpecError(provider, { project: 'P', repo: 'r' }, '.api', /is required/);
    assertSpecError(provider, { ...base, labels: ['x'] }, '.labels', /not a field here/);
    assertSpecError(provider, { ...base, basicAuth: { passwordRef } }, '.basicAuth.username', /non-empty string/);
    assertSpecError(provider, { ...base, basicAuth: { username: 'u' } }, '.basicAuth.passwordRef', /is required/);
    assertSpecError(provider, { ...base, bearerToken: {} }, '.bearerToken.tokenRef', /is required/);
    assertSpecError(provider, { ...base, bearerToken: { tokenRef, scheme: 'x' } }, '.bearerToken.scheme', /not a field here/);
  });

  it('names the repository by project key and slug, and the question', () => {
    const read = (raw: Record<string, unknown>) => provider.readSpec({ project: 'PLAT', repo: 'monorepo', api: 'https://bb.example/rest', ...raw }, 'f');
    assert.deepEqual(provider.repository(read({})), { owner: 'PLAT', repo: 'monorepo' });
    assert.equal(provider.question(read({ basicAuth })), provider.question(read({})));
    assert.notEqual(provider.question(read({})), provider.question(read({ repo: 'other' })));
  });
});
