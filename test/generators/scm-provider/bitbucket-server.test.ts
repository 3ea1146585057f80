import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bitbucketServerRepositories, type BitbucketServerSpec } from '../../../src/generators/scm-provider/providers/bitbucket-server.js';
import type { ScmRepository } from '../../../src/scm/types.js';
import { clientFor, rejectsWithApiError, seenKeys, testSignal, withRecordedApi, type RecordedApi } from './recorded-api.js';
import { BITBUCKET_SERVER_RECORDINGS } from './recordings/bitbucket-server.js';
import { assertSpecError, assertUnknownCloneProtocol } from './spec-checks.js';

const FIELD = 'scmProvider.bitbucketServer';
const SECRETS = { 'bb-pass/password': 's3cret', 'bb-token/token': 'BBDC-recorded' };
const BASIC = { username: 'argocd', passwordRef: { secretName: 'bb-pass', key: 'password' } };

function spec(api: RecordedApi, fields: Record<string, unknown> = {}): BitbucketServerSpec {
  return bitbucketServerRepositories.readSpec({ project: 'PROJ', api: api.origin, basicAuth: BASIC, ...fields }, FIELD);
}

function sourceFor(api: RecordedApi, fields: Record<string, unknown> = {}) {
  const read = spec(api, fields);
  const connection = bitbucketServerRepositories.connection(read);
  return bitbucketServerRepositories.source(clientFor(connection.apiBase, connection.auth, SECRETS), read);
}

const GUESTBOOK: ScmRepository = {
  organization: 'PROJ',
  repository: 'guestbook',
  url: 'ssh://git@bitbucket.example.com:7999/proj/guestbook.git',
  branch: 'main',
  sha: '8d51122def5632836d1cb1026e879069e10a1e13',
  labels: [],
  repositoryId: 11,
};

describe('Bitbucket Server SCM provider: spec and connection', () => {
  it('reads every field; the API URL gets /rest as Argo CD normalises it', () => {
    const read = bitbucketServerRepositories.readSpec({ project: 'PROJ', api: 'https://bitbucket.example.com' }, FIELD);
    assert.deepEqual(read, {
      project: 'PROJ',
      api: 'https://bitbucket.example.com',
      basicAuth: undefined,
      bearerToken: undefined,
      allBranches: false,
      insecure: false,
      caRef: undefined,
    });
    assert.deepEqual(bitbucketServerRepositories.connection(read), {
      provider: 'bitbucketServer',
      apiBase: 'https://bitbucket.example.com/rest',
      customApiUrl: 'https://bitbucket.example.com',
      auth: { kind: 'none' },
      insecure: false,
    });
    const base = (api: string) => bitbucketServerRepositories.connection(bitbucketServerRepositories.readSpec({ project: 'P', api }, FIELD)).apiBase;
    assert.equal(base('https://bb.example.com/rest'), 'https://bb.example.com/rest');
    assert.equal(base('https://bb.example.com/rest/'), 'https://bb.example.com/rest');
  });
  it('uses the bearer token before basic auth, basic auth before none; carries caRef and insecure', () => {
    const connect = (fields: Record<string, unknown>) =>
      bitbucketServerRepositories.connection(bitbucketServerRepositories.readSpec({ project: 'P', api: 'https://bb.example.com', ...fields }, FIELD));
    const both = connect({ basicAuth: BASIC, bearerToken: { tokenRef: { secretName: 'bb-token', key: 'token' } } });
    assert.ok(both.auth.kind === 'token');
    assert.deepEqual(both.auth.toAuth('t'), { kind: 'bearer', token: 't' });
    assert.deepEqual(connect({ basicAuth: BASIC }).auth, { kind: 'basic', ...BASIC });
    const tls = connect({ insecure: true, caRef: { configMapName: 'argocd-tls-certs-cm', key: 'bitbucket-ca' } });
    assert.equal(tls.insecure, true);
    assert.deepEqual(tls.caRef, { configMapName: 'argocd-tls-certs-cm', key: 'bitbucket-ca' });
  });
  it('names the project and asks by project and allBranches', () => {
    const read = bitbucketServerRepositories.readSpec({ project: 'PROJ', api: 'https://bb.example.com', allBranches: true }, FIELD);
    assert.equal(bitbucketServerRepositories.organization(read), 'PROJ');
    assert.equal(bitbucketServerRepositories.question(read), '{"project":"PROJ","allBranches":true}');
  });
  it('refuses unknown fields and bad values, naming the field', () => {
    const base = { project: 'P', api: 'https://bb.example.com' };
    assertSpecError(bitbucketServerRepositories, { ...base, projectKey: 'P' }, FIELD, `${FIELD}.projectKey: is not a known field`);
    assertSpecError(bitbucketServerRepositories, { project: 'P' }, FIELD, `${FIELD}.api: must be a non-empty string`);
    assertSpecError(bitbucketServerRepositories, { ...base, basicAuth: { username: 'u' } }, FIELD, `${FIELD}.basicAuth.passwordRef: must be an object`);
    assertSpecError(
      bitbucketServerRepositories,
      { ...base, basicAuth: { ...BASIC, password: 'x' } },
      FIELD,
      `${FIELD}.basicAuth.password: is not a known field`,
    );
    assertSpecError(bitbucketServerRepositories, { ...base, bearerToken: {} }, FIELD, `${FIELD}.bearerToken.tokenRef: must be an object`);
  });
});

describe('Bitbucket Server SCM provider: recorded API', () => {
  it('lists every page, reads each default branch, leaves out repositories without one', () =>
    withRecordedApi(BITBUCKET_SERVER_RECORDINGS, async (api) => {
      const repos = await sourceFor(api).listRepos('', testSignal());
      assert.deepEqual(repos, [
        GUESTBOOK,
        {
          ...GUESTBOOK,
          repository: 'infra',
          url: GUESTBOOK.url.replace('guestbook', 'infra'),
          branch: 'develop',
          sha: '5f6e7d8c9b0a5f6e7d8c9b0a5f6e7d8c9b0a5f6e',
          repositoryId: 14,
        },
      ]);
      assert.deepEqual(seenKeys(api), [
        'GET /rest/api/1.0/projects/PROJ/repos?limit=100',
        'GET /rest/api/1.0/projects/PROJ/repos?limit=100&start=2',
        'GET /rest/api/1.0/projects/PROJ/repos?limit=100&start=3',
        'GET /rest/api/1.0/projects/PROJ/repos/guestbook/branches/default',
        'GET /rest/api/1.0/projects/PROJ/repos/empty-repo/branches/default',
        'GET /rest/api/1.0/projects/PROJ/repos/stale-default/branches/default',
        'GET /rest/api/1.0/projects/PROJ/repos/infra/branches/default',
      ]);
      for (const request of api.seen) {
        assert.equal(request.headers.authorization, `Basic ${Buffer.from('argocd:s3cret').toString('base64')}`);
        assert.equal(request.headers['x-atlassian-token'], 'no-check');
        assert.equal(request.headers['x-requested-with'], 'XMLHttpRequest');
      }
    }));
  it('chooses the ssh or the http clone link by protocol and refuses others', () =>
    withRecordedApi(BITBUCKET_SERVER_RECORDINGS, async (api) => {
      const source = sourceFor(api);
      assert.equal((await source.listRepos('ssh', testSignal()))[0]?.url, 'ssh://git@bitbucket.example.com:7999/proj/guestbook.git');
      assert.equal((await source.listRepos('https', testSignal()))[0]?.url, 'https://bitbucket.example.com/scm/proj/guestbook.git');
      await assertUnknownCloneProtocol(source.listRepos('http', testSignal()), 'http');
    }));
  it('reads the default branch only, or every branch page with allBranches; none when unset', () =>
    withRecordedApi(BITBUCKET_SERVER_RECORDINGS, async (api) => {
      const listed = { ...GUESTBOOK, sha: 'stale' };
      assert.deepEqual(await sourceFor(api).getBranches(listed, testSignal()), [GUESTBOOK]);
      assert.deepEqual(await sourceFor(api).getBranches({ ...listed, repository: 'empty-repo' }, testSignal()), []);
      const all = await sourceFor(api, { allBranches: true }).getBranches(listed, testSignal());
      assert.deepEqual(all, [GUESTBOOK, { ...GUESTBOOK, branch: 'feature/login', sha: '0123456789abcdef0123456789abcdef01234567' }]);
      assert.deepEqual(api.unmatched, []);
    }));
  it('browses the path on the branch; a 404 is false', () =>
    withRecordedApi(BITBUCKET_SERVER_RECORDINGS, async (api) => {
      const source = sourceFor(api);
      assert.equal(await source.repoHasPath(GUESTBOOK, 'apps/guestbook', testSignal()), true);
      assert.equal(await source.repoHasPath(GUESTBOOK, 'missing', testSignal()), false);
      assert.deepEqual(api.unmatched, []);
    }));
  it('sends a bearer token, or no credentials and no XSRF headers without auth', () =>
    withRecordedApi(BITBUCKET_SERVER_RECORDINGS, async (api) => {
      await sourceFor(api, { basicAuth: undefined, bearerToken: { tokenRef: { secretName: 'bb-token', key: 'token' } } }).repoHasPath(
        GUESTBOOK,
        'missing',
        testSignal(),
      );
      await sourceFor(api, { basicAuth: undefined }).repoHasPath(GUESTBOOK, 'missing', testSignal());
      const [bearer, anonymous] = api.seen;
      assert.equal(bearer?.headers.authorization, 'Bearer BBDC-recorded');
      assert.equal(bearer?.headers['x-atlassian-token'], 'no-check');
      assert.equal(anonymous?.headers.authorization, undefined);
      assert.equal(anonymous?.headers['x-atlassian-token'], undefined);
      assert.equal(anonymous?.headers['x-requested-with'], undefined);
    }));
  it('turns a 401 and a 500 into API errors naming host, path and status', () =>
    withRecordedApi(BITBUCKET_SERVER_RECORDINGS, async (api) => {
      await rejectsWithApiError(sourceFor(api, { project: 'LOCKED' }).listRepos('', testSignal()), api, '/rest/api/1.0/projects/LOCKED/repos', 401);
      const infra = { ...GUESTBOOK, repository: 'infra' };
      await rejectsWithApiError(
        sourceFor(api, { allBranches: true }).getBranches(infra, testSignal()),
        api,
        '/rest/api/1.0/projects/PROJ/repos/infra/branches',
        500,
      );
    }));
});
