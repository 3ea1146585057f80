import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { giteaRepositories, type GiteaSpec } from '../../../src/generators/scm-provider/providers/gitea.js';
import { ScmApiError, ScmRequestRefused } from '../../../src/scm/http/errors.js';
import type { ScmRepository } from '../../../src/scm/types.js';
import { clientFor, rejectsWithApiError, seenKeys, testSignal, withRecordedApi, type RecordedApi } from './recorded-api.js';
import { GITEA_RECORDINGS } from './recordings/gitea.js';
import { assertSpecError, assertUnknownCloneProtocol } from './spec-checks.js';

const FIELD = 'scmProvider.gitea';
const TOKEN = { 'gitea-token/token': 'gta_recorded' };

function spec(api: RecordedApi, fields: Record<string, unknown> = {}): GiteaSpec {
  return giteaRepositories.readSpec({ owner: 'argocd-apps', api: `${api.origin}/`, tokenRef: { secretName: 'gitea-token', key: 'token' }, ...fields }, FIELD);
}

function sourceFor(api: RecordedApi, fields: Record<string, unknown> = {}) {
  const read = spec(api, fields);
  const connection = giteaRepositories.connection(read);
  return giteaRepositories.source(clientFor(connection.apiBase, connection.auth, TOKEN), read);
}

const GUESTBOOK: ScmRepository = {
  organization: 'argocd-apps',
  repository: 'guestbook',
  url: 'git@gitea.example.com:argocd-apps/guestbook.git',
  branch: 'main',
  sha: '',
  labels: ['deploy', 'team-a'],
  repositoryId: 21618,
};

describe('Gitea SCM provider: spec and connection', () => {
  it('reads every field; the API URL is required, as the SDK has no default server', () => {
    const read = giteaRepositories.readSpec({ owner: 'o', api: 'https://gitea.example.com/', insecure: true, allBranches: true }, FIELD);
    assert.deepEqual(read, { owner: 'o', api: 'https://gitea.example.com/', tokenRef: undefined, allBranches: true, insecure: true });
    assert.deepEqual(giteaRepositories.connection(read), {
      provider: 'gitea',
      apiBase: 'https://gitea.example.com/api/v1',
      customApiUrl: 'https://gitea.example.com/',
      auth: { kind: 'none' },
      insecure: true,
    });
    assertSpecError(giteaRepositories, { owner: 'o' }, FIELD, `${FIELD}.api: must be a non-empty string`);
  });
  it('sends a token as `Authorization: token …`', () => {
    const connection = giteaRepositories.connection(
      giteaRepositories.readSpec({ owner: 'o', api: 'https://g.example', tokenRef: { secretName: 's', key: 'k' } }, FIELD),
    );
    assert.equal(connection.apiBase, 'https://g.example/api/v1');
    assert.ok(connection.auth.kind === 'token');
    assert.deepEqual(connection.auth.toAuth('abc'), { kind: 'header', name: 'Authorization', value: 'token abc' });
  });
  it('names the owner and asks by owner and allBranches', () => {
    const read = giteaRepositories.readSpec({ owner: 'o', api: 'https://g.example' }, FIELD);
    assert.equal(giteaRepositories.organization(read), 'o');
    assert.equal(giteaRepositories.question(read), '{"owner":"o","allBranches":false}');
  });
  it('refuses unknown fields and bad values, naming the field', () => {
    assertSpecError(giteaRepositories, { owner: 'o', api: 'https://g.example', organization: 'x' }, FIELD, `${FIELD}.organization: is not a known field`);
    assertSpecError(giteaRepositories, { api: 'https://g.example' }, FIELD, `${FIELD}.owner: must be a non-empty string`);
    assertSpecError(giteaRepositories, { owner: 'o', api: 'ftp://g.example' }, FIELD, `${FIELD}.api: must be an http or https URL`);
    assertSpecError(giteaRepositories, { owner: 'o', api: 'https://g.example', insecure: 1 }, FIELD, `${FIELD}.insecure: must be true or false`);
  });
});

describe('Gitea SCM provider: recorded API', () => {
  it('lists every page, then each repository’s labels (every page), ssh by default', () =>
    withRecordedApi(GITEA_RECORDINGS, async (api) => {
      const repos = await sourceFor(api).listRepos('', testSignal());
      assert.deepEqual(repos[0], GUESTBOOK);
      assert.deepEqual(
        repos.map((r) => [r.repository, r.branch, r.labels.join(','), r.repositoryId]),
        [
          ['guestbook', 'main', 'deploy,team-a', 21618],
          ['helm-guestbook', 'master', '', 21619],
          ['kustomize-guestbook', 'main', 'kustomize,deploy', 21620],
        ],
      );
      assert.deepEqual(seenKeys(api), [
        'GET /api/v1/orgs/argocd-apps/repos?limit=0&page=1',
        'GET /api/v1/orgs/argocd-apps/repos?limit=2&page=2',
        'GET /api/v1/repos/argocd-apps/guestbook/labels?limit=0&page=1',
        'GET /api/v1/repos/argocd-apps/helm-guestbook/labels?limit=0&page=1',
        'GET /api/v1/repos/argocd-apps/kustomize-guestbook/labels?limit=0&page=1',
        'GET /api/v1/repos/argocd-apps/kustomize-guestbook/labels?limit=1&page=2',
      ]);
      assert.ok(api.seen.every((request) => request.headers.authorization === 'token gta_recorded'));
    }));
  it('hands out the web URL for https, as Argo CD does, and refuses other protocols', () =>
    withRecordedApi(GITEA_RECORDINGS, async (api) => {
      const source = sourceFor(api);
      assert.equal((await source.listRepos('https', testSignal()))[0]?.url, 'https://gitea.example.com/argocd-apps/guestbook');
      assert.equal((await source.listRepos('ssh', testSignal()))[0]?.url, 'git@gitea.example.com:argocd-apps/guestbook.git');
      await assertUnknownCloneProtocol(source.listRepos('git', testSignal()), 'git');
    }));
  it('reads the default branch; one that cannot be read (an empty repository) is an error', () =>
    withRecordedApi(GITEA_RECORDINGS, async (api) => {
      const source = sourceFor(api);
      assert.deepEqual(await source.getBranches(GUESTBOOK, testSignal()), [{ ...GUESTBOOK, sha: '72687815ccba81ef014a96201cc2e846a68789d8' }]);
      const release = await source.getBranches({ ...GUESTBOOK, branch: 'release/1.0' }, testSignal());
      assert.deepEqual(release, [{ ...GUESTBOOK, branch: 'release/1.0', sha: '1234567890abcdef1234567890abcdef12345678' }]);
      await rejectsWithApiError(
        source.getBranches({ ...GUESTBOOK, repository: 'empty' }, testSignal()),
        api,
        '/api/v1/repos/argocd-apps/empty/branches/main',
        404,
      );
      await assert.rejects(source.getBranches({ ...GUESTBOOK, branch: '' }, testSignal()), ScmApiError);
      assert.deepEqual(api.unmatched, []);
    }));
  it('reads every branch page with allBranches', () =>
    withRecordedApi(GITEA_RECORDINGS, async (api) => {
      const branches = await sourceFor(api, { allBranches: true }).getBranches(GUESTBOOK, testSignal());
      assert.deepEqual(
        branches.map((b) => [b.branch, b.sha, b.labels.join(',')]),
        [
          ['develop', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'deploy,team-a'],
          ['main', '72687815ccba81ef014a96201cc2e846a68789d8', 'deploy,team-a'],
          ['feature/x', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'deploy,team-a'],
        ],
      );
      assert.deepEqual(api.unmatched, []);
    }));
  it('finds a file and a directory on the branch; a 404 is false', () =>
    withRecordedApi(GITEA_RECORDINGS, async (api) => {
      const source = sourceFor(api);
      assert.equal(await source.repoHasPath(GUESTBOOK, 'README.md', testSignal()), true);
      assert.equal(await source.repoHasPath(GUESTBOOK, 'manifests/base', testSignal()), true);
      assert.equal(await source.repoHasPath(GUESTBOOK, 'notathing', testSignal()), false);
      assert.deepEqual(api.unmatched, []);
    }));
  it('turns a 401 and a 500 into API errors naming host, path and status', () =>
    withRecordedApi(GITEA_RECORDINGS, async (api) => {
      await rejectsWithApiError(sourceFor(api, { owner: 'private-org' }).listRepos('', testSignal()), api, '/api/v1/orgs/private-org/repos', 401);
      const helm = { ...GUESTBOOK, repository: 'helm-guestbook', branch: 'master' };
      await rejectsWithApiError(sourceFor(api).getBranches(helm, testSignal()), api, '/api/v1/repos/argocd-apps/helm-guestbook/branches/master', 500);
    }));
  it('refuses a next-page link to another origin', () =>
    withRecordedApi(GITEA_RECORDINGS, async (api) => {
      await assert.rejects(sourceFor(api, { owner: 'moved-org' }).listRepos('', testSignal()), ScmRequestRefused);
      assert.equal(api.seen.length, 1);
    }));
});
