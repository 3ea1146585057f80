import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { azureDevOpsRepositories, type AzureDevOpsSpec } from '../../../src/generators/scm-provider/providers/azure-devops.js';
import { ScmApiError } from '../../../src/scm/http/errors.js';
import type { ScmRepository } from '../../../src/scm/types.js';
import { clientFor, rejectsWithApiError, seenKeys, testSignal, withRecordedApi, type RecordedApi } from './recorded-api.js';
import { AZURE_DEVOPS_RECORDINGS, GUESTBOOK } from './recordings/azure-devops.js';
import { assertSpecError } from './spec-checks.js';

const FIELD = 'scmProvider.azureDevOps';
const SECRETS = { 'azure-devops-scm/accesstoken': 'pat-recorded' };
const BASE = { organization: 'ArgoOrg', teamProject: 'Team Platform', accessTokenRef: { secretName: 'azure-devops-scm', key: 'accesstoken' } };

function sourceFor(api: RecordedApi, fields: Record<string, unknown> = {}) {
  const read: AzureDevOpsSpec = azureDevOpsRepositories.readSpec({ ...BASE, api: api.origin, ...fields }, FIELD);
  const connection = azureDevOpsRepositories.connection(read);
  return azureDevOpsRepositories.source(clientFor(connection.apiBase, connection.auth, SECRETS), read);
}

const LISTED: ScmRepository = {
  organization: 'ArgoOrg',
  repository: 'guestbook',
  url: 'https://argoorg@dev.azure.com/argoorg/Team%20Platform/_git/guestbook',
  branch: 'refs/heads/main',
  sha: '',
  labels: [],
  repositoryId: GUESTBOOK.id,
};

describe('Azure DevOps SCM provider: spec and connection', () => {
  it('reads every field; the organisation URL as the SDK builds it (lower case), basic auth with the PAT', () => {
    const read = azureDevOpsRepositories.readSpec(BASE, FIELD);
    assert.deepEqual(read, { ...BASE, api: '', allBranches: false });
    assert.deepEqual(azureDevOpsRepositories.connection(read), {
      provider: 'azureDevOps',
      apiBase: 'https://dev.azure.com/argoorg',
      customApiUrl: '',
      auth: { kind: 'basic', username: '', passwordRef: BASE.accessTokenRef },
      insecure: false,
    });
    const onPrem = azureDevOpsRepositories.connection(azureDevOpsRepositories.readSpec({ ...BASE, api: 'https://TFS.example.com/tfs/' }, FIELD));
    assert.equal(onPrem.apiBase, 'https://tfs.example.com/tfs/argoorg');
    assert.equal(onPrem.customApiUrl, 'https://TFS.example.com/tfs/');
  });
  it('names the organisation and asks by organisation, team project and allBranches', () => {
    const read = azureDevOpsRepositories.readSpec({ ...BASE, allBranches: true }, FIELD);
    assert.equal(azureDevOpsRepositories.organization(read), 'ArgoOrg');
    assert.equal(azureDevOpsRepositories.question(read), '{"organization":"ArgoOrg","teamProject":"Team Platform","allBranches":true}');
  });
  it('refuses unknown fields and missing required ones, naming the field', () => {
    assertSpecError(azureDevOpsRepositories, { ...BASE, project: 'x' }, FIELD, `${FIELD}.project: is not a known field`);
    assertSpecError(
      azureDevOpsRepositories,
      { organization: 'o', accessTokenRef: BASE.accessTokenRef },
      FIELD,
      `${FIELD}.teamProject: must be a non-empty string`,
    );
    assertSpecError(azureDevOpsRepositories, { organization: 'o', teamProject: 't' }, FIELD, `${FIELD}.accessTokenRef: must be an object`);
    assertSpecError(
      azureDevOpsRepositories,
      { ...BASE, accessTokenRef: { secretName: 's', key: 'k', namespace: 'n' } },
      FIELD,
      `${FIELD}.accessTokenRef.namespace: is not a known field`,
    );
  });
});

describe('Azure DevOps SCM provider: recorded API', () => {
  it('lists the team project’s repositories (those with a default branch), always by remote URL', () =>
    withRecordedApi(AZURE_DEVOPS_RECORDINGS, async (api) => {
      const source = sourceFor(api);
      const repos = await source.listRepos('', testSignal());
      assert.deepEqual(repos, [
        LISTED,
        { ...LISTED, repository: 'disabled-repo', url: LISTED.url.replace('guestbook', 'disabled-repo'), repositoryId: '0b0b0b0b-0000-4000-8000-000000000002' },
      ]);
      // Argo CD ignores cloneProtocol on Azure DevOps: any value gives the same https remote URL.
      assert.deepEqual(await source.listRepos('ssh', testSignal()), repos);
      assert.deepEqual(seenKeys(api), ['GET /argoorg/Team%20Platform/_apis/git/repositories', 'GET /argoorg/Team%20Platform/_apis/git/repositories']);
      for (const request of api.seen) {
        assert.equal(request.headers.authorization, `Basic ${Buffer.from(':pat-recorded').toString('base64')}`);
        assert.equal(request.headers.accept, 'application/json;api-version=7.1-preview.1');
        assert.equal(request.headers['x-tfs-fedauthredirect'], 'Suppress');
      }
    }));
  it('reads the default branch by bare name; a disabled repository gives none, another 404 is an error', () =>
    withRecordedApi(AZURE_DEVOPS_RECORDINGS, async (api) => {
      const source = sourceFor(api);
      assert.deepEqual(await source.getBranches(LISTED, testSignal()), [{ ...LISTED, branch: 'main', sha: GUESTBOOK.mainSha }]);
      assert.deepEqual(await source.getBranches({ ...LISTED, repository: 'disabled-repo' }, testSignal()), []);
      const gone = source.getBranches({ ...LISTED, branch: 'refs/heads/gone' }, testSignal());
      await rejectsWithApiError(gone, api, '/argoorg/Team%20Platform/_apis/git/repositories/guestbook/stats/branches', 404);
      assert.deepEqual(api.unmatched, []);
    }));
  it('reads every branch with allBranches; a disabled repository gives none', () =>
    withRecordedApi(AZURE_DEVOPS_RECORDINGS, async (api) => {
      const source = sourceFor(api, { allBranches: true });
      assert.deepEqual(
        (await source.getBranches(LISTED, testSignal())).map((b) => [b.branch, b.sha]),
        [
          ['main', GUESTBOOK.mainSha],
          ['feature/tls', 'ccccccccccccccccccccccccccccccccccccccc1'],
        ],
      );
      assert.deepEqual(await source.getBranches({ ...LISTED, repository: 'disabled-repo' }, testSignal()), []);
      assert.deepEqual(api.unmatched, []);
    }));
  it('asks for the item by repository id on the branch; GitItemNotFound is false, other failures are errors', () =>
    withRecordedApi(AZURE_DEVOPS_RECORDINGS, async (api) => {
      const source = sourceFor(api);
      const branch = { ...LISTED, branch: 'main', sha: GUESTBOOK.mainSha };
      assert.equal(await source.repoHasPath(branch, 'apps', testSignal()), true);
      assert.equal(await source.repoHasPath(branch, 'nope', testSignal()), false);
      await rejectsWithApiError(
        source.repoHasPath(branch, 'broken', testSignal()),
        api,
        `/argoorg/Team%20Platform/_apis/git/repositories/${GUESTBOOK.id}/items`,
        500,
      );
      assert.deepEqual(api.unmatched, []);
    }));
  it('turns a 401 and an unknown project into API errors naming host, path and status', () =>
    withRecordedApi(AZURE_DEVOPS_RECORDINGS, async (api) => {
      await rejectsWithApiError(sourceFor(api, { teamProject: 'Locked' }).listRepos('', testSignal()), api, '/argoorg/Locked/_apis/git/repositories', 401);
      await assert.rejects(sourceFor(api, { teamProject: 'Missing' }).listRepos('', testSignal()), (error: unknown) => {
        assert.ok(error instanceof ScmApiError && error.status === 404);
        assert.match(error.message, /TF200016: The following project does not exist: Missing\./);
        return true;
      });
    }));
});
