import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { githubApiBase, githubPullRequests as provider } from '../../../src/generators/pull-request/providers/github.js';
import { assertApiFailure, assertRepositoryNotFound, assertSpecError, FIELD, listPullRequests } from './harness.js';
import { targets, withRecorded } from './recorded-api.js';
import { GITHUB_BAD_CREDENTIALS, GITHUB_NOT_FOUND, githubHeaders, githubLink, githubPull } from './recordings/github.js';

const PULLS = '/api/v3/repos/platform/monorepo/pulls';
const tokenRef = { secretName: 'github-token', key: 'token' };
const spec = (origin: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  owner: 'platform',
  repo: 'monorepo',
  api: origin,
  tokenRef,
  ...extra,
});

const pull = (n: number, labels: string[] = []): unknown =>
  githubPull({ number: n, title: `Change ${n}`, head: `feature-${n}`, base: 'main', sha: `${n}`.padStart(40, 'a'), labels, login: `dev${n}` });

describe('GitHub pull requests', () => {
  it('plans the connection as go-github resolves it: public API, enterprise /api/v3, api. hosts, bearer token, GitHub App', () => {
    const read = (raw: Record<string, unknown>) => provider.connection(provider.readSpec({ owner: 'o', repo: 'r', ...raw }, 'f'));
    assert.equal(read({}).apiBase, 'https://api.github.com');
    assert.equal(read({}).customApiUrl, '');
    assert.deepEqual(read({}).auth, { kind: 'none' });
    assert.equal(read({ api: 'https://git.example.com/' }).apiBase, 'https://git.example.com/api/v3');
    assert.equal(read({ api: 'https://git.example.com/api/v3' }).apiBase, 'https://git.example.com/api/v3');
    assert.equal(read({ api: 'https://api.git.example.com' }).apiBase, 'https://api.git.example.com');
    assert.equal(read({ api: 'https://git.example.com/' }).customApiUrl, 'https://git.example.com/');
    const token = read({ tokenRef }).auth;
    assert.ok(token.kind === 'token');
    assert.deepEqual(token.ref, tokenRef);
    assert.deepEqual(token.toAuth('ghp_x'), { kind: 'bearer', token: 'ghp_x' });
    assert.deepEqual(token.toAuth(''), { kind: 'none' });
    assert.deepEqual(read({ tokenRef, appSecretName: 'app-creds' }).auth, { kind: 'githubApp', secretName: 'app-creds' });
    assert.equal(githubApiBase('https://ghe.example.com/custom'), 'https://ghe.example.com/custom/api/v3');
  });

  it('follows the Link header through every page with go-github’s query, headers and the bearer token', async () => {
    await withRecorded(
      {
        [`${PULLS}?per_page=100`]: { headers: githubHeaders(githubLink(PULLS, 1, 3)), body: [pull(31), pull(30)] },
        [`${PULLS}?page=2&per_page=100`]: { headers: githubHeaders(githubLink(PULLS, 2, 3)), body: [pull(29)] },
        [`${PULLS}?page=3&per_page=100`]: { headers: githubHeaders(githubLink(PULLS, 3, 3)), body: [pull(12, ['preview'])] },
      },
      async (api) => {
        const pulls = await listPullRequests(provider, spec(api.origin));
        assert.deepEqual(targets(api), [`${PULLS}?per_page=100`, `${PULLS}?page=2&per_page=100`, `${PULLS}?page=3&per_page=100`]);
        for (const request of api.requests) {
          assert.equal(request.headers.authorization, 'Bearer s3cr3t-t0ken');
          assert.equal(request.headers.accept, 'application/vnd.github.v3+json');
          assert.equal(request.headers['x-github-api-version'], '2022-11-28');
        }
        assert.deepEqual(
          pulls.map((p) => p.number),
          [31, 30, 29, 12],
        );
        assert.deepEqual(pulls[3], {
          number: 12,
          title: 'Change 12',
          branch: 'feature-12',
          targetBranch: 'main',
          headSha: '12'.padStart(40, 'a'),
          labels: ['preview'],
          author: 'dev12',
        });
      },
    );
  });

  it('keeps only pull requests carrying every listed label, and sends no credentials without tokenRef', async () => {
    await withRecorded(
      {
        [`${PULLS}?per_page=100`]: {
          headers: githubHeaders(),
          body: [pull(1, ['preview', 'team-a']), pull(2, ['preview']), pull(3, ['team-a', 'x', 'preview'])],
        },
      },
      async (api) => {
        const pulls = await listPullRequests(provider, spec(api.origin, { tokenRef: undefined, labels: ['preview', 'team-a'] }));
        assert.deepEqual(
          pulls.map((p) => [p.number, p.labels]),
          [
            [1, ['preview', 'team-a']],
            [3, ['team-a', 'x', 'preview']],
          ],
        );
        assert.equal(api.requests[0]?.headers.authorization, undefined);
      },
    );
  });

  it('takes only the page number from a Link naming another host: the configured API is asked, never the other', async () => {
    await withRecorded({ [`${PULLS}?page=2&per_page=100`]: { body: [] } }, async (elsewhere) => {
      await withRecorded(
        {
          [`${PULLS}?per_page=100`]: { headers: githubHeaders(githubLink(PULLS, 1, 2, elsewhere.origin)), body: [pull(2)] },
          [`${PULLS}?page=2&per_page=100`]: { headers: githubHeaders(githubLink(PULLS, 2, 2)), body: [pull(1)] },
        },
        async (api) => {
          const pulls = await listPullRequests(provider, spec(api.origin));
          assert.deepEqual(
            pulls.map((p) => p.number),
            [2, 1],
          );
          assert.equal(api.requests.length, 2);
          assert.equal(elsewhere.requests.length, 0);
        },
      );
    });
  });

  it('turns a 404 of the repository into RepositoryNotFoundError', async () => {
    await withRecorded({ [`${PULLS}?per_page=100`]: GITHUB_NOT_FOUND }, async (api) => {
      await assertRepositoryNotFound(listPullRequests(provider, spec(api.origin)), PULLS);
    });
  });

  it('reports a 401 and a 500 as API errors naming host, path and status', async () => {
    await withRecorded({ [`${PULLS}?per_page=100`]: GITHUB_BAD_CREDENTIALS }, async (api) => {
      await assertApiFailure(listPullRequests(provider, spec(api.origin)), api.origin, PULLS, 401);
    });
    await withRecorded({ [`${PULLS}?per_page=100`]: { status: 500, body: { message: 'Server Error' } } }, async (api) => {
      await assertApiFailure(listPullRequests(provider, spec(api.origin)), api.origin, PULLS, 500);
    });
  });

  it('refuses specs that Argo CD could not use, naming the field', () => {
    assertSpecError(provider, { repo: 'r' }, '.owner', /must be a non-empty string/);
    assertSpecError(provider, { owner: 'o', repo: '' }, '.repo', /must be a non-empty string/);
    assertSpecError(provider, { owner: 'o', repo: 'r', organization: 'x' }, '.organization', /not a field here/);
    assertSpecError(provider, { owner: 'o', repo: 'r', tokenRef: { secretName: 's' } }, '.tokenRef.key', /non-empty string/);
    assertSpecError(provider, { owner: 'o', repo: 'r', tokenRef: { secretName: 's', key: 'k', namespace: 'n' } }, '.tokenRef.namespace', /not a field/);
    assertSpecError(provider, { owner: 'o', repo: 'r', labels: 'preview' }, '.labels', /must be a list/);
    assertSpecError(provider, { owner: 'o', repo: 'r', labels: [1] }, '.labels[0]', /must be a string/);
    assertSpecError(provider, { owner: 'o', repo: 'r', api: 'git.example.com' }, '.api', /absolute URL/);
    assert.throws(() => provider.readSpec('github', FIELD), /must be an object/);
  });

  it('names the repository and the question (labels shape the listing, credentials do not)', () => {
    const a = provider.readSpec({ owner: 'platform', repo: 'monorepo', labels: ['preview'], tokenRef }, 'f');
    const b = provider.readSpec({ owner: 'platform', repo: 'monorepo', labels: ['preview'] }, 'f');
    const c = provider.readSpec({ owner: 'platform', repo: 'monorepo' }, 'f');
    assert.deepEqual(provider.repository(a), { owner: 'platform', repo: 'monorepo' });
    assert.equal(provider.question(a), provider.question(b));
    assert.notEqual(provider.question(a), provider.question(c));
  });
});
