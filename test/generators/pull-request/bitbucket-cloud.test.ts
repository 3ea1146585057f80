import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bitbucketCloudPullRequests as provider } from '../../../src/generators/pull-request/providers/bitbucket-cloud.js';
import { ScmRequestRefused } from '../../../src/scm/http/errors.js';
import { assertApiFailure, assertRepositoryNotFound, assertSpecError, listPullRequests } from './harness.js';
import { targets, withRecorded } from './recorded-api.js';
import { BITBUCKET_CLOUD_NOT_FOUND, BITBUCKET_CLOUD_UNAUTHORIZED, bitbucketCloudPage, bitbucketCloudPull } from './recordings/bitbucket-cloud.js';

const PULLS = '/2.0/repositories/platform/monorepo/pullrequests/';
const passwordRef = { secretName: 'bitbucket-creds', key: 'password' };
const tokenRef = { secretName: 'bitbucket-token', key: 'token' };
const basicAuth = { username: 'argocd', passwordRef };
const spec = (origin: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  owner: 'platform',
  repo: 'monorepo',
  api: `${origin}/2.0`,
  ...extra,
});

const pull = (id: number): unknown =>
  bitbucketCloudPull({ id, title: `PR ${id}`, source: `feature/${id}`, destination: 'main', hash: `${id}`.padStart(12, 'e'), nickname: `dev${id}` });

describe('Bitbucket Cloud pull requests', () => {
  it('plans the connection: api.bitbucket.org/2.0 by default, bearer token before basic auth, else anonymous', () => {
    const read = (raw: Record<string, unknown>) => provider.connection(provider.readSpec({ owner: 'w', repo: 'r', ...raw }, 'f'));
    assert.equal(read({}).apiBase, 'https://api.bitbucket.org/2.0');
    assert.equal(read({}).customApiUrl, '');
    assert.equal(read({ api: 'https://bitbucket.proxy.example/2.0/' }).apiBase, 'https://bitbucket.proxy.example/2.0');
    assert.deepEqual(read({}).auth, { kind: 'none' });
    assert.deepEqual(read({ basicAuth }).auth, { kind: 'basic', username: 'argocd', passwordRef });
    const bearer = read({ basicAuth, bearerToken: { tokenRef } }).auth;
    assert.ok(bearer.kind === 'token');
    assert.deepEqual(bearer.toAuth('ATCTT3x'), { kind: 'bearer', token: 'ATCTT3x' });
    assert.deepEqual(bearer.toAuth(''), { kind: 'none' });
  });

  it('follows `next` in the body to the last page, with basic auth, mapping the fields Argo CD reads', async () => {
    await withRecorded(
      {
        [PULLS]: { body: bitbucketCloudPage([pull(12), pull(11)], 1, 4, `$ORIGIN${PULLS}?page=2`) },
        [`${PULLS}?page=2`]: { body: bitbucketCloudPage([pull(10)], 2, 4, `$ORIGIN${PULLS}?page=3`) },
        [`${PULLS}?page=3`]: { body: bitbucketCloudPage([pull(9)], 3, 4) },
      },
      async (api) => {
        const pulls = await listPullRequests(provider, spec(api.origin, { basicAuth }));
        assert.deepEqual(targets(api), [PULLS, `${PULLS}?page=2`, `${PULLS}?page=3`]);
        assert.ok(api.requests.every((r) => r.headers.authorization === `Basic ${Buffer.from('argocd:s3cr3t-t0ken').toString('base64')}`));
        assert.deepEqual(
          pulls.map((p) => p.number),
          [12, 11, 10, 9],
        );
        assert.deepEqual(pulls[2], {
          number: 10,
          title: 'PR 10',
          branch: 'feature/10',
          targetBranch: 'main',
          headSha: '10'.padStart(12, 'e'),
          labels: [],
          author: 'dev10',
        });
      },
    );
  });

  it('sends the bearer token when given, and no credentials without any', async () => {
    await withRecorded({ [PULLS]: { body: bitbucketCloudPage([pull(1)], 1, 1) } }, async (api) => {
      await listPullRequests(provider, spec(api.origin, { basicAuth, bearerToken: { tokenRef } }));
      await listPullRequests(provider, spec(api.origin));
      assert.equal(api.requests[0]?.headers.authorization, 'Bearer s3cr3t-t0ken');
      assert.equal(api.requests[1]?.headers.authorization, undefined);
    });
  });

  it('refuses a `next` link naming another origin: the credentials are never sent there', async () => {
    await withRecorded({ [`${PULLS}?page=2`]: { body: bitbucketCloudPage([], 2, 1) } }, async (elsewhere) => {
      await withRecorded({ [PULLS]: { body: bitbucketCloudPage([pull(1)], 1, 2, `${elsewhere.origin}${PULLS}?page=2`) } }, async (api) => {
        await assert.rejects(listPullRequests(provider, spec(api.origin, { bearerToken: { tokenRef } })), ScmRequestRefused);
        assert.equal(api.requests.length, 1);
        assert.equal(elsewhere.requests.length, 0);
      });
    });
  });

  it('turns a 404 of the repository into RepositoryNotFoundError, on any page', async () => {
    await withRecorded({ [PULLS]: BITBUCKET_CLOUD_NOT_FOUND }, async (api) => {
      await assertRepositoryNotFound(listPullRequests(provider, spec(api.origin)), PULLS);
    });
    const secondPage = { [PULLS]: { body: bitbucketCloudPage([pull(2)], 1, 2, `$ORIGIN${PULLS}?page=2`) }, [`${PULLS}?page=2`]: BITBUCKET_CLOUD_NOT_FOUND };
    await withRecorded(secondPage, async (api) => {
      await assertRepositoryNotFound(listPullRequests(provider, spec(api.origin)), PULLS);
      assert.equal(api.requests.length, 2);
    });
  });

  it('reports a 401 and a 500 as API errors naming host, path and status', async () => {
    await withRecorded({ [PULLS]: BITBUCKET_CLOUD_UNAUTHORIZED }, async (api) => {
      await assertApiFailure(listPullRequests(provider, spec(api.origin, { basicAuth })), api.origin, PULLS, 401);
    });
    await withRecorded({ [PULLS]: { status: 500, body: { type: 'error', error: { message: 'Something went wrong' } } } }, async (api) => {
      await assertApiFailure(listPullRequests(provider, spec(api.origin)), api.origin, PULLS, 500);
    });
  });

  it('refuses specs that Argo CD could not use, naming the field', () => {
    assertSpecError(provider, { repo: 'r' }, '.owner', /non-empty string/);
    assertSpecError(provider, { owner: 'w', repo: 'r', project: 'p' }, '.project', /not a field here/);
    assertSpecError(
      provider,
      { owner: 'w', repo: 'r', basicAuth: { username: 'u', passwordRef: { key: 'k' } } },
      '.basicAuth.passwordRef.secretName',
      /non-empty/,
    );
    assertSpecError(provider, { owner: 'w', repo: 'r', insecure: true }, '.insecure', /not a field here/);
  });

  it('names the repository by workspace and slug, and the question', () => {
    const read = (raw: Record<string, unknown>) => provider.readSpec({ owner: 'platform', repo: 'monorepo', ...raw }, 'f');
    assert.deepEqual(provider.repository(read({})), { owner: 'platform', repo: 'monorepo' });
    assert.equal(provider.question(read({ basicAuth })), provider.question(read({})));
    assert.notEqual(provider.question(read({})), provider.question(read({ owner: 'other' })));
  });
});
