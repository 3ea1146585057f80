import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bitbucketCloudRepositories, type BitbucketCloudSpec } from '../../../src/generators/scm-provider/providers/bitbucket-cloud.js';
import { ScmApiError, ScmRequestRefused } from '../../../src/scm/http/errors.js';
import type { ScmRepository } from '../../../src/scm/types.js';
import { clientFor, rejectsWithApiError, seenKeys, testSignal, withRecordedApi, type RecordedApi } from './recorded-api.js';
import { BITBUCKET_CLOUD_RECORDINGS, GUESTBOOK_MAIN_SHA } from './recordings/bitbucket-cloud.js';
import { assertSpecError, assertUnknownCloneProtocol } from './spec-checks.js';

const FIELD = 'scmProvider.bitbucket';
const SECRETS = { 'bb-app/password': 'ATBB-recorded' };
const BASE = { owner: 'argoproj-ws', user: 'argocd-bot', appPasswordRef: { secretName: 'bb-app', key: 'password' } };

function sourceFor(api: RecordedApi, fields: Record<string, unknown> = {}) {
  const read: BitbucketCloudSpec = bitbucketCloudRepositories.readSpec({ ...BASE, ...fields }, FIELD);
  // The API host is fixed in Argo CD, so the recorded server stands in for it under the same /2.0 path.
  const connection = bitbucketCloudRepositories.connection(read);
  return bitbucketCloudRepositories.source(clientFor(`${api.origin}/2.0`, connection.auth, SECRETS), read);
}

const GUESTBOOK: ScmRepository = {
  organization: 'argoproj-ws',
  repository: 'guestbook',
  url: 'git@bitbucket.org:argoproj-ws/guestbook.git',
  branch: 'main',
  sha: '',
  labels: [],
  repositoryId: '{0e3c5a9b-1111-4a2b-8c3d-4e5f6a7b8c9d}',
};

describe('Bitbucket Cloud SCM provider: spec and connection', () => {
  it('reads every field; the fixed API, basic auth with the user and the app password', () => {
    const read = bitbucketCloudRepositories.readSpec(BASE, FIELD);
    assert.deepEqual(read, { ...BASE, allBranches: false });
    assert.deepEqual(bitbucketCloudRepositories.connection(read), {
      provider: 'bitbucket',
      apiBase: 'https://api.bitbucket.org/2.0',
      customApiUrl: '',
      auth: { kind: 'basic', username: 'argocd-bot', passwordRef: { secretName: 'bb-app', key: 'password' } },
      insecure: false,
    });
  });
  it('names the workspace and asks by workspace and allBranches', () => {
    const read = bitbucketCloudRepositories.readSpec({ ...BASE, allBranches: true }, FIELD);
    assert.equal(bitbucketCloudRepositories.organization(read), 'argoproj-ws');
    assert.equal(bitbucketCloudRepositories.question(read), '{"owner":"argoproj-ws","allBranches":true}');
  });
  it('refuses unknown fields and missing required ones, naming the field', () => {
    assertSpecError(bitbucketCloudRepositories, { ...BASE, api: 'https://bitbucket.example.com' }, FIELD, `${FIELD}.api: is not a known field`);
    assertSpecError(bitbucketCloudRepositories, { ...BASE, user: '' }, FIELD, `${FIELD}.user: must be a non-empty string`);
    assertSpecError(bitbucketCloudRepositories, { owner: 'o', user: 'u' }, FIELD, `${FIELD}.appPasswordRef: must be an object`);
    assertSpecError(
      bitbucketCloudRepositories,
      { ...BASE, appPasswordRef: { secretName: 's', key: '' } },
      FIELD,
      `${FIELD}.appPasswordRef.key: must be a non-empty string`,
    );
  });
});

describe('Bitbucket Cloud SCM provider: recorded API', () => {
  it('lists every page of the workspace as a member, by slug and UUID, ssh by default, with basic auth', () =>
    withRecordedApi(BITBUCKET_CLOUD_RECORDINGS, async (api) => {
      const repos = await sourceFor(api).listRepos('', testSignal());
      assert.deepEqual(repos[0], GUESTBOOK);
      assert.deepEqual(
        repos.map((r) => [r.repository, r.branch, r.repositoryId]),
        [
          ['guestbook', 'main', '{0e3c5a9b-1111-4a2b-8c3d-4e5f6a7b8c9d}'],
          ['helm-charts', 'develop', '{0e3c5a9b-2222-4a2b-8c3d-4e5f6a7b8c9d}'],
          ['empty', '', '{0e3c5a9b-3333-4a2b-8c3d-4e5f6a7b8c9d}'],
        ],
      );
      assert.deepEqual(seenKeys(api), ['GET /2.0/repositories/argoproj-ws?role=member', 'GET /2.0/repositories/argoproj-ws?page=2&role=member']);
      const basic = `Basic ${Buffer.from('argocd-bot:ATBB-recorded').toString('base64')}`;
      assert.ok(api.seen.every((request) => request.headers.authorization === basic));
    }));
  it('chooses the clone link named by the protocol and refuses others', () =>
    withRecordedApi(BITBUCKET_CLOUD_RECORDINGS, async (api) => {
      const source = sourceFor(api);
      assert.equal((await source.listRepos('ssh', testSignal()))[0]?.url, 'git@bitbucket.org:argoproj-ws/guestbook.git');
      assert.equal((await source.listRepos('https', testSignal()))[0]?.url, 'https://argocd-bot@bitbucket.org/argoproj-ws/guestbook.git');
      await assertUnknownCloneProtocol(source.listRepos('git', testSignal()), 'git');
    }));
  it('reads the main branch; a missing one is an error, as is a repository without a main branch', () =>
    withRecordedApi(BITBUCKET_CLOUD_RECORDINGS, async (api) => {
      const source = sourceFor(api);
      assert.deepEqual(await source.getBranches(GUESTBOOK, testSignal()), [{ ...GUESTBOOK, sha: GUESTBOOK_MAIN_SHA }]);
      const release = await source.getBranches({ ...GUESTBOOK, branch: 'release/1.x' }, testSignal());
      assert.deepEqual(release, [{ ...GUESTBOOK, branch: 'release/1.x', sha: '3333333333333333333333333333333333333333' }]);
      await rejectsWithApiError(
        source.getBranches({ ...GUESTBOOK, branch: 'gone' }, testSignal()),
        api,
        '/2.0/repositories/argoproj-ws/guestbook/refs/branches/gone',
        404,
      );
      await assert.rejects(source.getBranches({ ...GUESTBOOK, repository: 'empty', branch: '' }, testSignal()), ScmApiError);
      assert.deepEqual(api.unmatched, []);
    }));
  it('reads every branch page with allBranches', () =>
    withRecordedApi(BITBUCKET_CLOUD_RECORDINGS, async (api) => {
      const branches = await sourceFor(api, { allBranches: true }).getBranches(GUESTBOOK, testSignal());
      assert.deepEqual(
        branches.map((b) => [b.branch, b.sha]),
        [
          ['main', GUESTBOOK_MAIN_SHA],
          ['develop', 'dddddddddddddddddddddddddddddddddddddddd'],
          ['feature/x', 'ffffffffffffffffffffffffffffffffffffffff'],
        ],
      );
      assert.deepEqual(seenKeys(api), [
        'GET /2.0/repositories/argoproj-ws/guestbook/refs/branches',
        'GET /2.0/repositories/argoproj-ws/guestbook/refs/branches?page=2',
      ]);
    }));
  it('asks the source API at the branch commit; a 404 is false', () =>
    withRecordedApi(BITBUCKET_CLOUD_RECORDINGS, async (api) => {
      const source = sourceFor(api);
      const atCommit = { ...GUESTBOOK, sha: GUESTBOOK_MAIN_SHA };
      assert.equal(await source.repoHasPath(atCommit, 'apps', testSignal()), true);
      assert.equal(await source.repoHasPath(atCommit, 'apps/values.yaml', testSignal()), true);
      assert.equal(await source.repoHasPath(atCommit, 'nope', testSignal()), false);
      assert.deepEqual(api.unmatched, []);
    }));
  it('turns a 401 and a 500 into API errors naming host, path and status', () =>
    withRecordedApi(BITBUCKET_CLOUD_RECORDINGS, async (api) => {
      await rejectsWithApiError(sourceFor(api, { owner: 'locked-ws' }).listRepos('', testSignal()), api, '/2.0/repositories/locked-ws', 401);
      const helm = { ...GUESTBOOK, repository: 'helm-charts', branch: 'develop' };
      await rejectsWithApiError(sourceFor(api).getBranches(helm, testSignal()), api, '/2.0/repositories/argoproj-ws/helm-charts/refs/branches/develop', 500);
    }));
  it('refuses a next page on another origin', () =>
    withRecordedApi(BITBUCKET_CLOUD_RECORDINGS, async (api) => {
      await assert.rejects(sourceFor(api, { owner: 'moved-ws' }).listRepos('', testSignal()), ScmRequestRefused);
      assert.equal(api.seen.length, 1);
    }));
});
