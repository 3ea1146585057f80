import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gitlabPullRequests as provider } from '../../../src/generators/pull-request/providers/gitlab.js';
import { assertApiFailure, assertRepositoryNotFound, assertSpecError, listPullRequests } from './harness.js';
import { targets, withRecorded } from './recorded-api.js';
import { GITLAB_NOT_FOUND, GITLAB_UNAUTHORIZED, gitlabHeaders, gitlabMergeRequest } from './recordings/gitlab.js';

const MRS = '/api/v4/projects/platform%2Fteam%2Fmonorepo/merge_requests';
const tokenRef = { secretName: 'gitlab-token', key: 'token' };
const spec = (origin: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  project: 'platform/team/monorepo',
  api: origin,
  tokenRef,
  ...extra,
});

const mr = (iid: number, labels: string[] = []): unknown =>
  gitlabMergeRequest({ iid, title: `MR ${iid}`, source: `topic-${iid}`, target: 'main', sha: `${iid}`.padStart(40, 'b'), labels, username: `dev${iid}` });

describe('GitLab merge requests', () => {
  it('plans the connection as go-gitlab resolves it: /api/v4 appended once, PRIVATE-TOKEN, caRef and insecure', () => {
    const read = (raw: Record<string, unknown>) => provider.connection(provider.readSpec({ project: '42', ...raw }, 'f'));
    assert.equal(read({}).apiBase, 'https://gitlab.com/api/v4');
    assert.equal(read({ api: 'https://git.example.com' }).apiBase, 'https://git.example.com/api/v4');
    assert.equal(read({ api: 'https://git.example.com/gitlab/' }).apiBase, 'https://git.example.com/gitlab/api/v4');
    assert.equal(read({ api: 'https://git.example.com/api/v4/' }).apiBase, 'https://git.example.com/api/v4');
    assert.equal(read({ api: 'https://git.example.com/api/v4/' }).customApiUrl, 'https://git.example.com/api/v4/');
    assert.deepEqual(read({}).auth, { kind: 'none' });
    const auth = read({ tokenRef }).auth;
    assert.ok(auth.kind === 'token');
    assert.deepEqual(auth.toAuth('glpat-x'), { kind: 'header', name: 'PRIVATE-TOKEN', value: 'glpat-x' });
    const tls = read({ insecure: true, caRef: { configMapName: 'argocd-tls-certs-cm', key: 'gitlab-ca' } });
    assert.equal(tls.insecure, true);
    assert.deepEqual(tls.caRef, { configMapName: 'argocd-tls-certs-cm', key: 'gitlab-ca' });
    assert.equal(read({}).insecure, false);
  });

  it('follows X-Next-Page to the end, asking GitLab for the labels and state, with PRIVATE-TOKEN', async () => {
    const query = (page?: number): string => `labels=preview%2Cteam-a${page ? `&page=${page}` : ''}&per_page=100&state=opened`;
    await withRecorded(
      {
        [`${MRS}?${query()}`]: { headers: gitlabHeaders(1, 3), body: [mr(9, ['preview', 'team-a']), mr(8, ['preview', 'team-a'])] },
        [`${MRS}?${query(2)}`]: { headers: gitlabHeaders(2, 3), body: [mr(7, ['preview', 'team-a', 'x'])] },
        [`${MRS}?${query(3)}`]: { headers: gitlabHeaders(3, 3), body: [mr(3, ['preview', 'team-a'])] },
      },
      async (api) => {
        const pulls = await listPullRequests(provider, spec(api.origin, { labels: ['preview', 'team-a'], pullRequestState: 'opened' }));
        assert.deepEqual(targets(api), [`${MRS}?${query()}`, `${MRS}?${query(2)}`, `${MRS}?${query(3)}`]);
        assert.ok(api.requests.every((r) => r.headers['private-token'] === 's3cr3t-t0ken' && r.headers.authorization === undefined));
        assert.deepEqual(
          pulls.map((p) => p.number),
          [9, 8, 7, 3],
        );
        assert.deepEqual(pulls[2], {
          number: 7,
          title: 'MR 7',
          branch: 'topic-7',
          targetBranch: 'main',
          headSha: '7'.padStart(40, 'b'),
          labels: ['preview', 'team-a', 'x'],
          author: 'dev7',
        });
      },
    );
  });

  it('sends neither labels nor state when the spec has none (GitLab then lists every state), and escapes dots and slashes', async () => {
    const path = '/api/v4/projects/platform%2Fmy%2Eapp/merge_requests';
    await withRecorded({ [`${path}?per_page=100`]: { headers: gitlabHeaders(1, 1), body: [mr(1)] } }, async (api) => {
      const pulls = await listPullRequests(provider, { project: 'platform/my.app', api: api.origin });
      assert.deepEqual(targets(api), [`${path}?per_page=100`]);
      assert.equal(api.requests[0]?.headers['private-token'], undefined);
      assert.deepEqual(pulls[0]?.labels, []);
    });
  });

  it('pages by X-Next-Page only: a Link header naming another host is never followed', async () => {
    await withRecorded({}, async (elsewhere) => {
      await withRecorded(
        {
          [`${MRS}?per_page=100`]: { headers: gitlabHeaders(1, 2, `<${elsewhere.origin}${MRS}?page=2&per_page=100>; rel="next"`), body: [mr(2)] },
          [`${MRS}?page=2&per_page=100`]: { headers: gitlabHeaders(2, 2), body: [mr(1)] },
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

  it('turns a 404 of the project into RepositoryNotFoundError', async () => {
    await withRecorded({ [`${MRS}?per_page=100`]: GITLAB_NOT_FOUND }, async (api) => {
      await assertRepositoryNotFound(listPullRequests(provider, spec(api.origin)), MRS);
    });
  });

  it('reports a 401 and a 500 as API errors naming host, path and status', async () => {
    await withRecorded({ [`${MRS}?per_page=100`]: GITLAB_UNAUTHORIZED }, async (api) => {
      await assertApiFailure(listPullRequests(provider, spec(api.origin)), api.origin, MRS, 401);
    });
    await withRecorded({ [`${MRS}?per_page=100`]: { status: 500, body: { message: '500 Internal Server Error' } } }, async (api) => {
      await assertApiFailure(listPullRequests(provider, spec(api.origin)), api.origin, MRS, 500);
    });
  });

  it('refuses specs that Argo CD could not use, naming the field', () => {
    assertSpecError(provider, {}, '.project', /must be a non-empty string/);
    assertSpecError(provider, { project: 42 }, '.project', /must be a non-empty string/);
    assertSpecError(provider, { project: 'p', owner: 'o' }, '.owner', /not a field here/);
    assertSpecError(provider, { project: 'p', insecure: 'yes' }, '.insecure', /true or false/);
    assertSpecError(provider, { project: 'p', caRef: { configMapName: 'cm' } }, '.caRef.key', /non-empty string/);
    assertSpecError(provider, { project: 'p', pullRequestState: 1 }, '.pullRequestState', /must be a string/);
  });

  it('names the repository by the project path (split at the last slash) or its id, and the question by labels and state', () => {
    const read = (raw: Record<string, unknown>) => provider.readSpec(raw, 'f');
    assert.deepEqual(provider.repository(read({ project: 'platform/team/monorepo' })), { owner: 'platform/team', repo: 'monorepo' });
    assert.deepEqual(provider.repository(read({ project: '278964' })), { owner: '', repo: '278964' });
    assert.notEqual(provider.question(read({ project: 'p' })), provider.question(read({ project: 'p', pullRequestState: 'merged' })));
    assert.equal(provider.question(read({ project: 'p', tokenRef })), provider.question(read({ project: 'p' })));
  });
});
