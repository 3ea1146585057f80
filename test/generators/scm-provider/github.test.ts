import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { githubRepositories, type GithubSpec } from '../../../src/generators/scm-provider/providers/github.js';
import { ScmRequestRefused } from '../../../src/scm/http/errors.js';
import type { ScmRepository } from '../../../src/scm/types.js';
import { clientFor, rejectsWithApiError, seenKeys, testSignal, withRecordedApi, type RecordedApi } from './recorded-api.js';
import { GITHUB_RECORDINGS } from './recordings/github.js';
import { assertSpecError, assertUnknownCloneProtocol } from './spec-checks.js';

const FIELD = 'scmProvider.github';
const TOKEN = { 'github-token/token': 'ghp_recorded' };

function spec(api: RecordedApi, fields: Record<string, unknown> = {}): GithubSpec {
  return githubRepositories.readSpec(
    { organization: 'argoproj-labs', api: api.origin, tokenRef: { secretName: 'github-token', key: 'token' }, ...fields },
    FIELD,
  );
}

function sourceFor(api: RecordedApi, fields: Record<string, unknown> = {}) {
  const read = spec(api, fields);
  const connection = githubRepositories.connection(read);
  return githubRepositories.source(clientFor(connection.apiBase, connection.auth, TOKEN), read);
}

const AUTOPILOT: ScmRepository = {
  organization: 'argoproj-labs',
  repository: 'argocd-autopilot',
  url: 'git@github.example.com:argoproj-labs/argocd-autopilot.git',
  branch: 'main',
  sha: '',
  labels: ['argocd', 'gitops'],
  repositoryId: 301270000,
};

describe('GitHub SCM provider: spec and connection', () => {
  it('reads every field; github.com, anonymous, when only the organization is given', () => {
    const read = githubRepositories.readSpec({ organization: 'argoproj' }, FIELD);
    assert.deepEqual(read, { organization: 'argoproj', api: '', tokenRef: undefined, appSecretName: '', allBranches: false });
    assert.deepEqual(githubRepositories.connection(read), {
      provider: 'github',
      apiBase: 'https://api.github.com',
      customApiUrl: '',
      auth: { kind: 'none' },
      insecure: false,
    });
  });
  it('derives the Enterprise API base as go-github does, keeping the spec URL as written', () => {
    const base = (api: string) => githubRepositories.connection(githubRepositories.readSpec({ organization: 'o', api }, FIELD));
    assert.equal(base('https://git.example.com/').apiBase, 'https://git.example.com/api/v3');
    assert.equal(base('https://git.example.com').customApiUrl, 'https://git.example.com');
    assert.equal(base('https://git.example.com/api/v3').apiBase, 'https://git.example.com/api/v3');
    assert.equal(base('https://api.example.com').apiBase, 'https://api.example.com');
    assert.equal(base('https://ghe.api.example.com/').apiBase, 'https://ghe.api.example.com');
  });
  it('sends a token as a Bearer token; a GitHub App wins over a token', () => {
    const withToken = githubRepositories.connection(githubRepositories.readSpec({ organization: 'o', tokenRef: { secretName: 's', key: 'k' } }, FIELD));
    assert.ok(withToken.auth.kind === 'token');
    assert.deepEqual(withToken.auth.ref, { secretName: 's', key: 'k' });
    assert.deepEqual(withToken.auth.toAuth('t0k'), { kind: 'bearer', token: 't0k' });
    const app = githubRepositories.readSpec({ organization: 'o', appSecretName: 'gh-app', tokenRef: { secretName: 's', key: 'k' }, allBranches: true }, FIELD);
    assert.deepEqual(githubRepositories.connection(app).auth, { kind: 'githubApp', secretName: 'gh-app' });
  });
  it('names the organisation and asks by organisation and allBranches', () => {
    const read = githubRepositories.readSpec({ organization: 'o', allBranches: true, api: 'https://a.example' }, FIELD);
    assert.equal(githubRepositories.organization(read), 'o');
    assert.equal(githubRepositories.question(read), '{"organization":"o","allBranches":true}');
  });
  it('refuses unknown fields and bad values, naming the field', () => {
    assertSpecError(githubRepositories, { organization: 'o', org: 'x' }, FIELD, `${FIELD}.org: is not a known field`);
    assertSpecError(githubRepositories, {}, FIELD, `${FIELD}.organization: must be a non-empty string`);
    assertSpecError(githubRepositories, { organization: 'o', tokenRef: { secretName: 's' } }, FIELD, `${FIELD}.tokenRef.key: must be a non-empty string`);
    assertSpecError(githubRepositories, { organization: 'o', api: 'git.example.com' }, FIELD, `${FIELD}.api: must be an absolute http or https URL`);
    assertSpecError(githubRepositories, { organization: 'o', allBranches: 'yes' }, FIELD, `${FIELD}.allBranches: must be true or false`);
    assertSpecError(githubRepositories, 'argoproj', FIELD, `${FIELD}: must be an object`);
  });
});

describe('GitHub SCM provider: recorded API', () => {
  it('lists every page of the organisation with topics as labels, ssh by default, the token as Bearer', () =>
    withRecordedApi(GITHUB_RECORDINGS, async (api) => {
      const repos = await sourceFor(api).listRepos('', testSignal());
      assert.deepEqual(repos[0], AUTOPILOT);
      assert.deepEqual(
        repos.map((r) => [r.repository, r.branch, r.labels.join(','), r.repositoryId]),
        [
          ['argocd-autopilot', 'main', 'argocd,gitops', 301270000],
          ['argocd-image-updater', 'master', 'argocd', 301270001],
          ['empty-repo', 'main', '', 301270002],
          ['old-plugin', 'main', 'deprecated', 301270003],
        ],
      );
      assert.deepEqual(seenKeys(api), [
        'GET /api/v3/orgs/argoproj-labs/repos?per_page=100',
        'GET /api/v3/organizations/33170279/repos?page=2&per_page=100',
        'GET /api/v3/organizations/33170279/repos?page=3&per_page=100',
      ]);
      for (const request of api.seen) {
        assert.equal(request.headers.authorization, 'Bearer ghp_recorded');
        assert.equal(request.headers.accept, 'application/vnd.github.mercy-preview+json, application/vnd.github.nebula-preview+json');
      }
      assert.deepEqual(api.unmatched, []);
    }));
  it('chooses the clone URL by protocol and refuses others', () =>
    withRecordedApi(GITHUB_RECORDINGS, async (api) => {
      const source = sourceFor(api);
      assert.equal((await source.listRepos('ssh', testSignal()))[1]?.url, 'git@github.example.com:argoproj-labs/argocd-image-updater.git');
      assert.equal((await source.listRepos('https', testSignal()))[1]?.url, 'https://github.example.com/argoproj-labs/argocd-image-updater.git');
      await assertUnknownCloneProtocol(source.listRepos('git', testSignal()), 'git');
    }));
  it('reads only the default branch without allBranches; an empty repository (404) gives no branch', () =>
    withRecordedApi(GITHUB_RECORDINGS, async (api) => {
      const source = sourceFor(api);
      assert.deepEqual(await source.getBranches(AUTOPILOT, testSignal()), [{ ...AUTOPILOT, sha: 'c6b4f3e2d1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6' }]);
      assert.deepEqual(await source.getBranches({ ...AUTOPILOT, repository: 'empty-repo' }, testSignal()), []);
      const slashed = await source.getBranches({ ...AUTOPILOT, branch: 'release/v0.4' }, testSignal());
      assert.deepEqual(slashed, [{ ...AUTOPILOT, branch: 'release/v0.4', sha: '1111111111111111111111111111111111111111' }]);
      assert.deepEqual(api.unmatched, []);
    }));
  it('reads every branch, every page, with allBranches', () =>
    withRecordedApi(GITHUB_RECORDINGS, async (api) => {
      const branches = await sourceFor(api, { allBranches: true }).getBranches(AUTOPILOT, testSignal());
      assert.deepEqual(
        branches.map((b) => [b.branch, b.sha, b.url, b.labels.join(',')]),
        [
          ['feature/hydrator', '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567', AUTOPILOT.url, 'argocd,gitops'],
          ['main', 'c6b4f3e2d1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6', AUTOPILOT.url, 'argocd,gitops'],
          ['release-v0.4', 'fedcba9876543210fedcba9876543210fedcba98', AUTOPILOT.url, 'argocd,gitops'],
        ],
      );
      assert.deepEqual(seenKeys(api), [
        'GET /api/v3/repos/argoproj-labs/argocd-autopilot/branches?per_page=100',
        'GET /api/v3/repositories/301270000/branches?page=2&per_page=100',
      ]);
    }));
  it('finds directories and files on the branch, or at its commit once known; a 404 is false; ".." is refused before sending', () =>
    withRecordedApi(GITHUB_RECORDINGS, async (api) => {
      const source = sourceFor(api);
      assert.equal(await source.repoHasPath(AUTOPILOT, 'manifests/base', testSignal()), true);
      assert.equal(await source.repoHasPath(AUTOPILOT, 'go.mod', testSignal()), true);
      assert.equal(await source.repoHasPath(AUTOPILOT, 'charts/missing', testSignal()), false);
      await assert.rejects(source.repoHasPath(AUTOPILOT, '../secrets', testSignal()), ScmRequestRefused);
      // Once the branch's commit is known, the path is asked at that commit: the answer cannot change, so it is remembered.
      assert.equal(source.pathsAtCommit, true);
      assert.equal(await source.repoHasPath({ ...AUTOPILOT, sha: 'c6b4f3e2d1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6' }, 'go.mod', testSignal()), true);
      assert.equal(api.seen.length, 4);
      assert.deepEqual(api.unmatched, []);
    }));
  it('turns a 401 and a 500 into API errors naming host, path and status', () =>
    withRecordedApi(GITHUB_RECORDINGS, async (api) => {
      await rejectsWithApiError(sourceFor(api, { organization: 'locked-org' }).listRepos('', testSignal()), api, '/api/v3/orgs/locked-org/repos', 401);
      const updater = { ...AUTOPILOT, repository: 'argocd-image-updater', branch: 'master' };
      await rejectsWithApiError(
        sourceFor(api).getBranches(updater, testSignal()),
        api,
        '/api/v3/repos/argoproj-labs/argocd-image-updater/branches/master',
        500,
      );
    }));
  it('refuses a next-page link to another origin', () =>
    withRecordedApi(GITHUB_RECORDINGS, async (api) => {
      await assert.rejects(sourceFor(api, { organization: 'moved-org' }).listRepos('', testSignal()), ScmRequestRefused);
      assert.equal(api.seen.length, 1);
    }));
  it('sends no credentials when no token is given', () =>
    withRecordedApi(GITHUB_RECORDINGS, async (api) => {
      const read = githubRepositories.readSpec({ organization: 'argoproj-labs', api: api.origin }, FIELD);
      const connection = githubRepositories.connection(read);
      await githubRepositories.source(clientFor(connection.apiBase, connection.auth), read).listRepos('', testSignal());
      assert.ok(api.seen.every((request) => request.headers.authorization === undefined));
    }));
});
