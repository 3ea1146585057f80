import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { giteaPullRequests as provider } from '../../../src/generators/pull-request/providers/gitea.js';
import { assertApiFailure, assertRepositoryNotFound, assertSpecError, listPullRequests } from './harness.js';
import { targets, withRecorded } from './recorded-api.js';
import { GITEA_NOT_FOUND, GITEA_UNAUTHORIZED, giteaHeaders, giteaPull } from './recordings/gitea.js';

const PULLS = '/api/v1/repos/platform/monorepo/pulls';
const page = (n: number): string => `${PULLS}?limit=0&page=${n}&state=open`;
const tokenRef = { secretName: 'gitea-token', key: 'token' };
const spec = (origin: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  owner: 'platform',
  repo: 'monorepo',
  api: `${origin}/`,
  tokenRef,
  ...extra,
});

const pull = (n: number, labels: string[] = []): unknown =>
  giteaPull({ number: n, title: `PR ${n}`, head: `feat/${n}`, base: 'main', sha: `${n}`.padStart(40, 'c'), labels, login: `dev${n}` });

describe('Gitea pull requests', () => {
  it('plans the connection as the Gitea SDK resolves it: {api}/api/v1, `Authorization: token`, insecure', () => {
    const read = (raw: Record<string, unknown>) => provider.connection(provider.readSpec({ owner: 'o', repo: 'r', ...raw }, 'f'));
    assert.equal(read({ api: 'https://gitea.example/' }).apiBase, 'https://gitea.example/api/v1');
    assert.equal(read({ api: 'https://gitea.example/git' }).apiBase, 'https://gitea.example/git/api/v1');
    assert.equal(read({ api: 'https://gitea.example/' }).customApiUrl, 'https://gitea.example/');
    assert.deepEqual(read({ api: 'https://gitea.example' }).auth, { kind: 'none' });
    const auth = read({ api: 'https://gitea.example', tokenRef }).auth;
    assert.ok(auth.kind === 'token');
    assert.deepEqual(auth.toAuth('abc'), { kind: 'header', name: 'Authorization', value: 'token abc' });
    assert.equal(read({ api: 'https://gitea.example', insecure: true }).insecure, true);
  });

  it('asks for the open pull requests as the SDK does and reads every page the Link header announces', async () => {
    await withRecorded(
      {
        [page(1)]: { headers: giteaHeaders(PULLS, 1, 3), body: [pull(70), pull(69)] },
        [page(2)]: { headers: giteaHeaders(PULLS, 2, 3), body: [pull(40)] },
        [page(3)]: { headers: giteaHeaders(PULLS, 3, 3), body: [pull(5, ['preview'])] },
      },
      async (api) => {
        const pulls = await listPullRequests(provider, spec(api.origin));
        assert.deepEqual(targets(api), [page(1), page(2), page(3)]);
        assert.ok(api.requests.every((r) => r.headers.authorization === 'token s3cr3t-t0ken'));
        assert.deepEqual(
          pulls.map((p) => p.number),
          [70, 69, 40, 5],
        );
        assert.deepEqual(pulls[3], {
          number: 5,
          title: 'PR 5',
          branch: 'feat/5',
          targetBranch: 'main',
          headSha: '5'.padStart(40, 'c'),
          labels: ['preview'],
          author: 'dev5',
        });
      },
    );
  });

  it('keeps only pull requests carrying every listed label; one page without a Link header is the whole list', async () => {
    await withRecorded({ [page(1)]: { body: [pull(1, ['preview']), pull(2, ['preview', 'db']), pull(3, [])] } }, async (api) => {
      const pulls = await listPullRequests(provider, spec(api.origin, { labels: ['db', 'preview'], tokenRef: undefined }));
      assert.deepEqual(
        pulls.map((p) => p.number),
        [2],
      );
      assert.equal(api.requests.length, 1);
      assert.equal(api.requests[0]?.headers.authorization, undefined);
    });
  });

  it('takes only the page number from a Link naming another host (Gitea builds links on its ROOT_URL)', async () => {
    await withRecorded({}, async (elsewhere) => {
      await withRecorded(
        {
          [page(1)]: { headers: giteaHeaders(PULLS, 1, 2, elsewhere.origin), body: [pull(2)] },
          [page(2)]: { headers: giteaHeaders(PULLS, 2, 2), body: [pull(1)] },
        },
        async (api) => {
          const pulls = await listPullRequests(provider, spec(api.origin));
          assert.deepEqual(
            pulls.map((p) => p.number),
            [2, 1],
          );
          assert.equal(elsewhere.requests.length, 0);
        },
      );
    });
  });

  it('escapes owner and repo as path segments', async () => {
    const path = '/api/v1/repos/team%20a/app%3Fv2/pulls?limit=0&page=1&state=open';
    await withRecorded({ [path]: { body: [] } }, async (api) => {
      assert.deepEqual(await listPullRequests(provider, spec(api.origin, { owner: 'team a', repo: 'app?v2' })), []);
      assert.deepEqual(targets(api), [path]);
    });
  });

  it('turns a 404 of the repository into RepositoryNotFoundError', async () => {
    await withRecorded({ [page(1)]: GITEA_NOT_FOUND }, async (api) => {
      await assertRepositoryNotFound(listPullRequests(provider, spec(api.origin)), PULLS);
    });
  });

  it('reports a 401 and a 500 as API errors naming host, path and status', async () => {
    await withRecorded({ [page(1)]: GITEA_UNAUTHORIZED }, async (api) => {
      await assertApiFailure(listPullRequests(provider, spec(api.origin)), api.origin, PULLS, 401);
    });
    await withRecorded({ [page(1)]: { status: 500, text: 'Internal Server Error', headers: { 'content-type': 'text/plain; charset=utf-8' } } }, async (api) => {
      await assertApiFailure(listPullRequests(provider, spec(api.origin)), api.origin, PULLS, 500);
    });
  });

  it('refuses specs that Argo CD could not use, naming the field (api is required: Gitea has no public default)', () => {
    assertSpecError(provider, { owner: 'o', repo: 'r' }, '.api', /is required/);
    assertSpecError(provider, { owner: 'o', repo: 'r', api: 'ftp://gitea.example' }, '.api', /http or https/);
    assertSpecError(provider, { repo: 'r', api: 'https://gitea.example' }, '.owner', /non-empty string/);
    assertSpecError(provider, { owner: 'o', repo: 'r', api: 'https://gitea.example', caRef: {} }, '.caRef', /not a field here/);
  });

  it('names the repository and the question', () => {
    const read = (raw: Record<string, unknown>) => provider.readSpec({ owner: 'platform', repo: 'monorepo', api: 'https://gitea.example', ...raw }, 'f');
    assert.deepEqual(provider.repository(read({})), { owner: 'platform', repo: 'monorepo' });
    assert.notEqual(provider.question(read({})), provider.question(read({ labels: ['x'] })));
    assert.equal(provider.question(read({ tokenRef, insecure: true })), provider.question(read({})));
  });
});
