import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { azureDevOpsPullRequests as provider } from '../../../src/generators/pull-request/providers/azure-devops.js';
import { assertApiFailure, assertRepositoryNotFound, assertSpecError, listPullRequests } from './harness.js';
import { targets, withRecorded } from './recorded-api.js';
import { AZURE_PROJECT_NOT_FOUND, AZURE_UNAUTHORIZED, azurePage, azurePull } from './recordings/azure-devops.js';

const PULLS = '/platform-org/Web%20Apps/_apis/git/pullrequests';
const page = (skip: number): string => `${PULLS}?${skip ? `%24skip=${skip}&` : ''}%24top=100`;
const tokenRef = { secretName: 'azure-devops-token', key: 'token' };
const spec = (origin: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  organization: 'Platform-Org',
  project: 'Web Apps',
  repo: 'monorepo',
  api: origin,
  tokenRef,
  ...extra,
});

/** `count` pull requests from `first` down, every third one of another repository of the project. */
const many = (first: number, count: number): unknown[] =>
  Array.from({ length: count }, (_, i) => azurePull({ id: first - i, repo: (first - i) % 3 === 0 ? 'website' : 'monorepo' }));

describe('Azure DevOps pull requests', () => {
  it('plans the connection as the SDK resolves it: lower-case {api}/{organization}, basic auth with an empty user and the PAT', () => {
    const read = (raw: Record<string, unknown>) => provider.connection(provider.readSpec({ organization: 'Contoso', project: 'p', repo: 'r', ...raw }, 'f'));
    assert.equal(read({}).apiBase, 'https://dev.azure.com/contoso');
    assert.equal(read({}).customApiUrl, '');
    assert.equal(read({ api: 'https://TFS.example/tfs/' }).apiBase, 'https://tfs.example/tfs/contoso');
    assert.equal(read({ api: 'https://TFS.example/tfs/' }).customApiUrl, 'https://TFS.example/tfs/');
    assert.deepEqual(read({}).auth, { kind: 'none' });
    const auth = read({ tokenRef }).auth;
    assert.ok(auth.kind === 'token');
    assert.deepEqual(auth.toAuth('pat'), { kind: 'basic', username: '', password: 'pat' });
  });

  it('reads $top/$skip pages until a short one, with the SDK’s api-version, and keeps the repository’s pull requests', async () => {
    await withRecorded(
      {
        [page(0)]: { body: azurePage(many(300, 100)) },
        [page(100)]: { body: azurePage(many(200, 100)) },
        [page(200)]: { body: azurePage(many(100, 5)) },
      },
      async (api) => {
        const pulls = await listPullRequests(provider, spec(api.origin));
        assert.deepEqual(targets(api), [page(0), page(100), page(200)]);
        for (const request of api.requests) {
          assert.equal(request.headers.authorization, `Basic ${Buffer.from(':s3cr3t-t0ken').toString('base64')}`);
          assert.equal(request.headers.accept, 'application/json;api-version=7.1-preview.1');
          assert.equal(request.headers['x-tfs-fedauthredirect'], 'Suppress');
        }
        const expected = Array.from({ length: 205 }, (_, i) => 300 - i).filter((n) => n % 3 !== 0);
        assert.deepEqual(
          pulls.map((p) => p.number),
          expected,
        );
      },
    );
  });

  it('maps the fields as Argo CD does (only the first refs/heads/ goes), drops incomplete pull requests and those lacking a listed label', async () => {
    const body = azurePage([
      azurePull({
        id: 7,
        repo: 'monorepo',
        title: 'Add cache',
        source: 'feature/refs/heads/x',
        target: 'release/1',
        labels: ['preview', 'db'],
        uniqueName: 'jane.doe@contoso.com',
      }),
      azurePull({ id: 6, repo: 'monorepo', labels: ['preview'] }),
      azurePull({ id: 5, repo: 'monorepo', labels: ['db', 'preview'], complete: false }),
      azurePull({ id: 4, repo: 'monorepo', labels: ['db', 'preview'], uniqueName: 'CONTOSO\\builder' }),
    ]);
    await withRecorded({ [page(0)]: { body } }, async (api) => {
      const pulls = await listPullRequests(provider, spec(api.origin, { labels: ['preview', 'db'] }));
      assert.deepEqual(pulls, [
        {
          number: 7,
          title: 'Add cache',
          branch: 'feature/refs/heads/x',
          targetBranch: 'release/1',
          headSha: '7'.padStart(40, 'f'),
          labels: ['preview', 'db'],
          author: 'jane.doe',
        },
        {
          number: 4,
          title: 'PR 4',
          branch: 'feature/4',
          targetBranch: 'main',
          headSha: '4'.padStart(40, 'f'),
          labels: ['db', 'preview'],
          author: 'CONTOSO\\builder',
        },
      ]);
    });
  });

  it('reads a missing project as RepositoryNotFoundError, but not another 404', async () => {
    await withRecorded({ [page(0)]: AZURE_PROJECT_NOT_FOUND }, async (api) => {
      await assertRepositoryNotFound(listPullRequests(provider, spec(api.origin)), PULLS);
    });
    const otherNotFound = { status: 404, headers: { 'content-type': 'text/html' }, text: '<html><body>The resource cannot be found.</body></html>' };
    await withRecorded({ [page(0)]: otherNotFound }, async (api) => {
      await assertApiFailure(listPullRequests(provider, spec(api.origin)), api.origin, PULLS, 404);
    });
  });

  it('reads a repository missing from an existing project as no pull requests, as Argo CD does', async () => {
    await withRecorded({ [page(0)]: { body: azurePage(many(10, 10)) } }, async (api) => {
      assert.deepEqual(await listPullRequests(provider, spec(api.origin, { repo: 'retired' })), []);
    });
  });

  it('reports a 401 and a 500 as API errors naming host, path and status', async () => {
    await withRecorded({ [page(0)]: AZURE_UNAUTHORIZED }, async (api) => {
      await assertApiFailure(listPullRequests(provider, spec(api.origin)), api.origin, PULLS, 401);
    });
    await withRecorded({ [page(0)]: { status: 500, body: { $id: '1', message: 'VS402875: internal error', typeKey: 'VssServiceException' } } }, async (api) => {
      await assertApiFailure(listPullRequests(provider, spec(api.origin)), api.origin, PULLS, 500);
    });
  });

  it('refuses specs that Argo CD could not use, naming the field', () => {
    assertSpecError(provider, { project: 'p', repo: 'r' }, '.organization', /non-empty string/);
    assertSpecError(provider, { organization: 'o', repo: 'r' }, '.project', /non-empty string/);
    assertSpecError(provider, { organization: 'o', project: 'p' }, '.repo', /non-empty string/);
    assertSpecError(provider, { organization: 'o', project: 'p', repo: 'r', owner: 'x' }, '.owner', /not a field here/);
    assertSpecError(provider, { organization: 'o', project: 'p', repo: 'r', labels: [null] }, '.labels[0]', /must be a string/);
  });

  it('names the repository by project and repo (what Argo CD’s webhook compares), and the question', () => {
    const read = (raw: Record<string, unknown>) => provider.readSpec({ organization: 'o', project: 'Web Apps', repo: 'monorepo', ...raw }, 'f');
    assert.deepEqual(provider.repository(read({})), { owner: 'Web Apps', repo: 'monorepo' });
    assert.equal(provider.question(read({ tokenRef })), provider.question(read({})));
    assert.notEqual(provider.question(read({})), provider.question(read({ labels: ['preview'] })));
  });
});
