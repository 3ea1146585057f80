import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gitlabRepositories, type GitlabSpec } from '../../../src/generators/scm-provider/providers/gitlab.js';
import type { ScmRepository } from '../../../src/scm/types.js';
import { clientFor, rejectsWithApiError, seenKeys, testSignal, withRecordedApi, type RecordedApi } from './recorded-api.js';
import { GITLAB_RECORDINGS } from './recordings/gitlab.js';
import { assertSpecError, assertUnknownCloneProtocol } from './spec-checks.js';

const FIELD = 'scmProvider.gitlab';
const TOKEN = { 'gitlab-token/token': 'glpat-recorded' };

function spec(api: RecordedApi, fields: Record<string, unknown> = {}): GitlabSpec {
  const base = { group: 'platform/argocd', includeSubgroups: true, topic: 'deploy', api: api.origin, tokenRef: { secretName: 'gitlab-token', key: 'token' } };
  return gitlabRepositories.readSpec({ ...base, ...fields }, FIELD);
}

function sourceFor(api: RecordedApi, fields: Record<string, unknown> = {}) {
  const read = spec(api, fields);
  const connection = gitlabRepositories.connection(read);
  return gitlabRepositories.source(clientFor(connection.apiBase, connection.auth, TOKEN), read);
}

const GUESTBOOK: ScmRepository = {
  organization: 'platform/argocd',
  repository: 'guestbook',
  url: 'git@gitlab.example.com:platform/argocd/guestbook.git',
  branch: 'main',
  sha: '',
  labels: ['deploy', 'demo'],
  repositoryId: 27084533,
};

describe('GitLab SCM provider: spec and connection', () => {
  it('reads every field with Argo CD defaults (shared projects included unless turned off)', () => {
    const read = gitlabRepositories.readSpec({ group: '8675309' }, FIELD);
    assert.deepEqual(read, {
      group: '8675309',
      includeSubgroups: false,
      api: '',
      tokenRef: undefined,
      allBranches: false,
      insecure: false,
      includeSharedProjects: true,
      topic: '',
      caRef: undefined,
    });
    assert.deepEqual(gitlabRepositories.connection(read), {
      provider: 'gitlab',
      apiBase: 'https://gitlab.com/api/v4',
      customApiUrl: '',
      auth: { kind: 'none' },
      insecure: false,
    });
    assert.equal(gitlabRepositories.readSpec({ group: 'g', includeSharedProjects: false }, FIELD).includeSharedProjects, false);
  });
  it('appends api/v4 as client-go does, and carries caRef, insecure and the PRIVATE-TOKEN header', () => {
    const connect = (fields: Record<string, unknown>) => gitlabRepositories.connection(gitlabRepositories.readSpec({ group: 'g', ...fields }, FIELD));
    assert.equal(connect({ api: 'https://gitlab.example.com' }).apiBase, 'https://gitlab.example.com/api/v4');
    assert.equal(connect({ api: 'https://gitlab.example.com/api/v4/' }).apiBase, 'https://gitlab.example.com/api/v4');
    assert.equal(connect({ api: 'https://example.com/gitlab/' }).apiBase, 'https://example.com/gitlab/api/v4');
    const full = connect({
      api: 'https://gitlab.example.com/',
      insecure: true,
      caRef: { configMapName: 'argocd-tls-certs-cm', key: 'gitlab-ca' },
      tokenRef: { secretName: 's', key: 'k' },
    });
    assert.equal(full.customApiUrl, 'https://gitlab.example.com/');
    assert.equal(full.insecure, true);
    assert.deepEqual(full.caRef, { configMapName: 'argocd-tls-certs-cm', key: 'gitlab-ca' });
    assert.ok(full.auth.kind === 'token');
    assert.deepEqual(full.auth.toAuth('glpat'), { kind: 'header', name: 'PRIVATE-TOKEN', value: 'glpat' });
  });
  it('asks by everything that shapes the listing', () => {
    const read = gitlabRepositories.readSpec({ group: 'g', includeSubgroups: true, includeSharedProjects: false, topic: 't', allBranches: true }, FIELD);
    assert.equal(gitlabRepositories.organization(read), 'g');
    assert.equal(gitlabRepositories.question(read), '{"group":"g","includeSubgroups":true,"includeSharedProjects":false,"topic":"t","allBranches":true}');
  });
  it('refuses unknown fields and bad values, naming the field', () => {
    assertSpecError(gitlabRepositories, { group: 'g', subgroups: true }, FIELD, `${FIELD}.subgroups: is not a known field`);
    assertSpecError(gitlabRepositories, { group: 12 }, FIELD, `${FIELD}.group: must be a non-empty string`);
    assertSpecError(gitlabRepositories, { group: 'g', includeSharedProjects: 'no' }, FIELD, `${FIELD}.includeSharedProjects: must be true or false`);
    assertSpecError(gitlabRepositories, { group: 'g', caRef: { configMapName: 'c' } }, FIELD, `${FIELD}.caRef.key: must be a non-empty string`);
    assertSpecError(gitlabRepositories, { group: 'g', caRef: { name: 'c', key: 'k' } }, FIELD, `${FIELD}.caRef.name: is not a known field`);
    assertSpecError(gitlabRepositories, { group: 'g', topic: ['a'] }, FIELD, `${FIELD}.topic: must be a string`);
  });
});

describe('GitLab SCM provider: recorded API', () => {
  it('lists every page with subgroups, topic and shared projects, topics (or old tag_list) as labels, archived projects kept', () =>
    withRecordedApi(GITLAB_RECORDINGS, async (api) => {
      const repos = await sourceFor(api).listRepos('', testSignal());
      assert.deepEqual(repos[0], GUESTBOOK);
      assert.deepEqual(
        repos.map((r) => [r.organization, r.repository, r.branch, r.labels.join(','), r.repositoryId]),
        [
          ['platform/argocd', 'guestbook', 'main', 'deploy,demo', 27084533],
          ['platform/argocd', 'legacy-app', 'main', 'deploy', 27084534],
          ['platform/argocd/ops', 'tools', 'trunk', 'deploy', 27084538],
        ],
      );
      assert.deepEqual(seenKeys(api), [
        'GET /api/v4/groups/platform%2Fargocd/projects?include_subgroups=true&per_page=100&topic=deploy&with_shared=true',
        'GET /api/v4/groups/platform%2Fargocd/projects?include_subgroups=true&page=2&per_page=100&topic=deploy&with_shared=true',
      ]);
      assert.ok(api.seen.every((request) => request.headers['private-token'] === 'glpat-recorded' && request.headers.authorization === undefined));
    }));
  it('sends false and empty options too, and pages on past a missing X-Total-Pages', () =>
    withRecordedApi(GITLAB_RECORDINGS, async (api) => {
      const plain = await sourceFor(api, { includeSubgroups: false, topic: undefined }).listRepos('', testSignal());
      assert.deepEqual(plain, [GUESTBOOK]);
      const big = await sourceFor(api, { group: '4217', includeSubgroups: false, topic: undefined, includeSharedProjects: false }).listRepos('', testSignal());
      assert.deepEqual(
        big.map((r) => r.repository),
        ['one', 'two'],
      );
      assert.deepEqual(api.unmatched, []);
    }));
  it('chooses the clone URL by protocol and refuses others', () =>
    withRecordedApi(GITLAB_RECORDINGS, async (api) => {
      const source = sourceFor(api, { includeSubgroups: false, topic: '' });
      assert.equal((await source.listRepos('ssh', testSignal()))[0]?.url, 'git@gitlab.example.com:platform/argocd/guestbook.git');
      assert.equal((await source.listRepos('https', testSignal()))[0]?.url, 'https://gitlab.example.com/platform/argocd/guestbook.git');
      await assertUnknownCloneProtocol(source.listRepos('http', testSignal()), 'http');
    }));
  it('reads the default branch by project id; a 404 gives no branch', () =>
    withRecordedApi(GITLAB_RECORDINGS, async (api) => {
      const source = sourceFor(api);
      assert.deepEqual(await source.getBranches(GUESTBOOK, testSignal()), [{ ...GUESTBOOK, sha: '8898d7999fc99dd0fd578650b58b244fc63f6b53' }]);
      assert.deepEqual(await source.getBranches({ ...GUESTBOOK, repositoryId: 27084599 }, testSignal()), []);
      const release = await source.getBranches({ ...GUESTBOOK, branch: 'release/2.x' }, testSignal());
      assert.deepEqual(release, [{ ...GUESTBOOK, branch: 'release/2.x', sha: '2222222222222222222222222222222222222222' }]);
      assert.deepEqual(api.unmatched, []);
    }));
  it('reads every branch page with allBranches; a 404 project gives none', () =>
    withRecordedApi(GITLAB_RECORDINGS, async (api) => {
      const source = sourceFor(api, { allBranches: true });
      const branches = await source.getBranches(GUESTBOOK, testSignal());
      assert.deepEqual(
        branches.map((b) => [b.branch, b.sha, b.labels.join(',')]),
        [
          ['main', '8898d7999fc99dd0fd578650b58b244fc63f6b53', 'deploy,demo'],
          ['pipeline-1310077506', '0f92540e5f396ba960adea4ed0aa905baf3f73d1', 'deploy,demo'],
        ],
      );
      assert.deepEqual(await source.getBranches({ ...GUESTBOOK, repositoryId: 27084599 }, testSignal()), []);
      assert.deepEqual(api.unmatched, []);
    }));
  it('finds a file, then a directory through the tree, and reports false when both answer 404', () =>
    withRecordedApi(GITLAB_RECORDINGS, async (api) => {
      const source = sourceFor(api);
      assert.equal(await source.repoHasPath(GUESTBOOK, 'manifests/kustomization.yaml', testSignal()), true);
      assert.equal(await source.repoHasPath(GUESTBOOK, 'manifests', testSignal()), true);
      assert.equal(await source.repoHasPath(GUESTBOOK, 'helm', testSignal()), false);
      assert.deepEqual(seenKeys(api).slice(-3), [
        'GET /api/v4/projects/platform%2Fargocd%2Fguestbook',
        'GET /api/v4/projects/27084533/repository/files/helm?ref=main',
        'GET /api/v4/projects/27084533/repository/tree?path=helm&ref=main',
      ]);
      assert.deepEqual(api.unmatched, []);
    }));
  it('turns a 401 and a 500 into API errors naming host, path and status', () =>
    withRecordedApi(GITLAB_RECORDINGS, async (api) => {
      const locked = sourceFor(api, { group: 'secret-group', includeSubgroups: false, topic: '' });
      await rejectsWithApiError(locked.listRepos('', testSignal()), api, '/api/v4/groups/secret-group/projects', 401);
      const legacy = { ...GUESTBOOK, repository: 'legacy-app', repositoryId: 27084534 };
      await rejectsWithApiError(sourceFor(api).getBranches(legacy, testSignal()), api, '/api/v4/projects/27084534/repository/branches/main', 500);
    }));
  it('never follows the Link header, so its origin does not matter', () =>
    withRecordedApi(GITLAB_RECORDINGS, async (api) => {
      await sourceFor(api).listRepos('', testSignal());
      assert.ok(api.seen.length === 2 && api.unmatched.length === 0);
    }));
});
