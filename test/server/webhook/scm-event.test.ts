import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Provider } from '../../../src/model/push.js';
import { gitlabProjectIdKey, organizationKey, pullRequestKey, scmEventKeys, type ScmChangeEvent } from '../../../src/model/scm-event.js';
import { detectProvider, verifyRequest, webhookSecretsFrom, WebhookRejection, type WebhookSecrets } from '../../../src/server/webhook/providers.js';
import { isScmChangeEvent, parseScmChangeEvent, repositoryEventOfPush } from '../../../src/server/webhook/scm-event.js';
import { payloads } from './payloads.js';

const secret = 'scm-hook-secret';
const hex = (algorithm: 'sha1' | 'sha256', body: string): string => createHmac(algorithm, secret).update(body).digest('hex');
const rejected400 = (e: unknown): boolean => e instanceof WebhookRejection && e.status === 400;
const rejected401 = (e: unknown): boolean => e instanceof WebhookRejection && e.status === 401;
const event = (provider: Provider, kind: ScmChangeEvent['kind'], owner: string, repo: string, action: string): ScmChangeEvent => ({
  provider,
  kind,
  owner,
  repo,
  action,
});

// ---- Gitea 1.26: bodies with every field its structs marshal, headers as services/webhook/deliver.go sets them ----

const GITEA = 'https://gitea.example';
const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

function giteaUser(id: number, login: string, organization: boolean): Record<string, unknown> {
  return {
    id,
    login,
    login_name: '',
    source_id: 0,
    full_name: '',
    email: organization ? `${login}@noreply.gitea.example` : `${login}@example.com`,
    avatar_url: `${GITEA}/avatars/${login}`,
    html_url: `${GITEA}/${login}`,
    language: organization ? '' : 'en-US',
    is_admin: false,
    last_login: GO_ZERO_TIME,
    created: '2026-03-02T09:15:00Z',
    restricted: false,
    active: !organization,
    prohibit_login: false,
    location: '',
    website: '',
    description: '',
    visibility: 'public',
    followers_count: 0,
    following_count: 0,
    starred_repos_count: 0,
    username: login,
  };
}

const giteaOrg = giteaUser(2, 'platform', true);
const giteaDev = giteaUser(3, 'dev', false);

function giteaRepository(name: string): Record<string, unknown> {
  const path = `platform/${name}`;
  return {
    id: 7,
    owner: giteaOrg,
    name,
    full_name: path,
    description: '',
    empty: false,
    private: false,
    fork: false,
    template: false,
    mirror: false,
    size: 184,
    language: '',
    languages_url: `${GITEA}/api/v1/repos/${path}/languages`,
    html_url: `${GITEA}/${path}`,
    url: `${GITEA}/api/v1/repos/${path}`,
    link: '',
    ssh_url: `git@gitea.example:${path}.git`,
    clone_url: `${GITEA}/${path}.git`,
    original_url: '',
    website: '',
    stars_count: 0,
    forks_count: 0,
    watchers_count: 0,
    branch_count: 2,
    open_issues_count: 0,
    open_pr_counter: 0,
    release_counter: 0,
    default_branch: 'main',
    archived: false,
    created_at: '2026-03-02T09:20:00Z',
    updated_at: '2026-03-02T09:20:00Z',
    archived_at: '1970-01-01T00:00:00Z',
    permissions: { admin: true, push: true, pull: true },
    has_code: true,
    has_issues: true,
    internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true },
    has_wiki: true,
    has_pull_requests: true,
    has_projects: true,
    projects_mode: 'all',
    has_releases: true,
    has_packages: true,
    has_actions: true,
    ignore_whitespace_conflicts: false,
    allow_merge_commits: true,
    allow_rebase: true,
    allow_rebase_explicit: true,
    allow_squash_merge: true,
    allow_fast_forward_only_merge: true,
    allow_rebase_update: true,
    allow_manual_merge: false,
    autodetect_manual_merge: false,
    default_delete_branch_after_merge: false,
    default_merge_style: 'merge',
    default_allow_maintainer_edit: false,
    avatar_url: '',
    internal: false,
    mirror_interval: '',
    object_format_name: 'sha1',
    mirror_updated: GO_ZERO_TIME,
    topics: [],
    licenses: [],
  };
}

const BASE_SHA = '3f1c9a7e2b6d4c8f0a5e9d1b7c3a6f2e8d4b0c9a';
const HEAD_SHA = '9b2e4d6f8a0c1e3b5d7f9a2c4e6b8d0f1a3c5e7b';

function giteaPullRequest(action: string, labels: unknown[] = []): Record<string, unknown> {
  const repository = giteaRepository('monorepo');
  const url = `${GITEA}/platform/monorepo/pulls/3`;
  return {
    action,
    number: 3,
    pull_request: {
      id: 12,
      url,
      number: 3,
      user: giteaDev,
      title: 'Add staging overlay',
      body: '',
      labels,
      milestone: null,
      assignee: null,
      assignees: null,
      requested_reviewers: [],
      requested_reviewers_teams: [],
      state: 'open',
      draft: false,
      is_locked: false,
      comments: 0,
      additions: 0,
      deletions: 0,
      changed_files: 0,
      html_url: url,
      diff_url: `${url}.diff`,
      patch_url: `${url}.patch`,
      mergeable: true,
      merged: false,
      merged_at: null,
      merge_commit_sha: null,
      merged_by: null,
      allow_maintainer_edit: false,
      base: { label: 'main', ref: 'main', sha: BASE_SHA, repo_id: 7, repo: repository },
      head: { label: 'feature/staging', ref: 'feature/staging', sha: HEAD_SHA, repo_id: 7, repo: repository },
      merge_base: BASE_SHA,
      due_date: null,
      created_at: '2026-03-03T11:00:00Z',
      updated_at: '2026-03-03T11:00:00Z',
      closed_at: null,
      pin_order: 0,
      content_version: 0,
    },
    requested_reviewer: null,
    repository,
    sender: giteaDev,
    commit_id: '',
    review: null,
  };
}

const giteaLabel = {
  id: 1,
  name: 'preview',
  exclusive: false,
  is_archived: false,
  color: '0e8a16',
  description: '',
  url: `${GITEA}/api/v1/repos/platform/monorepo/labels/1`,
};

/** The headers Gitea 1.26 sends: `event` is the hook type's Event(), `eventType` the hook type itself. */
function giteaHeaders(event: string, eventType: string, body: string): Record<string, string> {
  const delivery = '6c0b1f52-3e0a-4b8e-9d43-0f4c2a7d9e11';
  const target = 'organization';
  return {
    'content-type': 'application/json',
    'x-gitea-delivery': delivery,
    'x-gitea-event': event,
    'x-gitea-event-type': eventType,
    'x-gitea-signature': hex('sha256', body),
    'x-gitea-hook-installation-target-type': target,
    'x-gogs-delivery': delivery,
    'x-gogs-event': event,
    'x-gogs-event-type': eventType,
    'x-gogs-signature': hex('sha256', body),
    'x-hub-signature': `sha1=${hex('sha1', body)}`,
    'x-hub-signature-256': `sha256=${hex('sha256', body)}`,
    'x-github-delivery': delivery,
    'x-github-event': event,
    'x-github-event-type': eventType,
    'x-github-hook-installation-target-type': target,
  };
}

/** Verifies a Gitea delivery and parses it the way the webhook route does. */
function receiveGitea(hookEvent: string, eventType: string, payload: unknown): ScmChangeEvent | undefined {
  const body = JSON.stringify(payload);
  const request = verifyRequest(giteaHeaders(hookEvent, eventType, body), Buffer.from(body), { gitea: secret });
  assert.deepEqual(request, { provider: 'gitea', event: hookEvent });
  assert.ok(isScmChangeEvent(request.provider, request.event));
  return parseScmChangeEvent(request.provider, request.event, JSON.parse(body));
}

// ---- the other providers: trimmed bodies in their real shapes ----

function githubPullRequest(action: string): Record<string, unknown> {
  const owner = { login: 'Platform', id: 9001, type: 'Organization' };
  const repository = { id: 4242, name: 'Monorepo', full_name: 'Platform/Monorepo', owner, url: 'https://api.github.com/repos/Platform/Monorepo' };
  return {
    action,
    number: 17,
    pull_request: {
      number: 17,
      state: action === 'closed' ? 'closed' : 'open',
      title: 'Preview environments',
      labels: [{ name: 'preview' }],
      head: { ref: 'feature/preview', sha: HEAD_SHA, repo: { full_name: 'dev/Monorepo' } },
      base: { ref: 'main', sha: BASE_SHA, repo: repository },
    },
    repository,
    organization: { login: 'Platform', id: 9001 },
    sender: { login: 'dev', id: 3, type: 'User' },
  };
}

function gitlabMergeRequest(action: string): Record<string, unknown> {
  const project = {
    id: 4711,
    name: 'monorepo',
    web_url: 'https://gitlab.example/platform/apps/monorepo',
    git_http_url: 'https://gitlab.example/platform/apps/monorepo.git',
    namespace: 'apps',
    path_with_namespace: 'platform/apps/monorepo',
    default_branch: 'main',
  };
  return {
    object_kind: 'merge_request',
    event_type: 'merge_request',
    user: { id: 3, name: 'Dev', username: 'dev' },
    project,
    object_attributes: {
      id: 99,
      iid: 5,
      target_branch: 'main',
      source_branch: 'feature/preview',
      source_project_id: 5150,
      target_project_id: 4711,
      state: 'opened',
      action,
      source: { ...project, path_with_namespace: 'dev/monorepo' },
      target: project,
      last_commit: { id: HEAD_SHA },
    },
    labels: [],
  };
}

function bitbucketServerPullRequest(eventKey: string): Record<string, unknown> {
  const repository = (slug: string, key: string) => ({ slug, id: 656, name: slug, project: { key, id: 389, name: 'Platform', type: 'NORMAL' }, public: false });
  return {
    eventKey,
    date: '2026-03-03T11:00:00+0000',
    actor: { name: 'dev', emailAddress: 'dev@example.com', id: 500, displayName: 'Dev', active: true, slug: 'dev', type: 'NORMAL' },
    pullRequest: {
      id: 8,
      version: 1,
      title: 'Preview environments',
      state: eventKey === 'pr:merged' ? 'MERGED' : 'OPEN',
      fromRef: { id: 'refs/heads/feature/preview', displayId: 'feature/preview', latestCommit: HEAD_SHA, repository: repository('monorepo', '~DEV') },
      toRef: { id: 'refs/heads/main', displayId: 'main', latestCommit: BASE_SHA, repository: repository('monorepo', 'PLAT') },
      locked: false,
    },
  };
}

function bitbucketCloudPullRequest(): Record<string, unknown> {
  const repo = (fullName: string) => ({ type: 'repository', full_name: fullName, name: 'Monorepo', uuid: '{0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0}' });
  return {
    actor: { type: 'user', display_name: 'Dev', uuid: '{a1b2c3d4-e5f6-4789-9abc-def012345678}' },
    pullrequest: {
      id: 4,
      title: 'Preview environments',
      state: 'OPEN',
      source: { branch: { name: 'feature/preview' }, commit: { hash: 'cd5a8e1f2b3c' }, repository: repo('dev-space/monorepo') },
      destination: { branch: { name: 'main' }, commit: { hash: '3f1c9a7e2b6d' }, repository: repo('platform/monorepo') },
    },
    repository: { ...repo('platform/monorepo'), workspace: { slug: 'platform', type: 'workspace' }, is_private: true },
  };
}

function azurePullRequest(eventType: string): Record<string, unknown> {
  return {
    id: '9d1f5b2e-7c44-4e0e-a0f1-1b6c3e2d4f5a',
    eventType,
    publisherId: 'tfs',
    scope: 'all',
    message: { text: 'Dev created a new pull request' },
    resource: {
      repository: {
        id: '5a7c9e1b-3d5f-4a6b-8c9d-0e1f2a3b4c5d',
        name: 'monorepo',
        url: 'https://dev.azure.com/contoso/_apis/git/repositories/5a7c9e1b-3d5f-4a6b-8c9d-0e1f2a3b4c5d',
        project: { id: '7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b', name: 'Platform', state: 'wellFormed' },
        defaultBranch: 'refs/heads/main',
        remoteUrl: 'https://dev.azure.com/contoso/Platform/_git/monorepo',
      },
      pullRequestId: 21,
      status: eventType.endsWith('merged') ? 'completed' : 'active',
      sourceRefName: 'refs/heads/feature/preview',
      targetRefName: 'refs/heads/main',
    },
    resourceVersion: '1.0',
    resourceContainers: { account: { id: 'f844ec47-a9db-4511-8281-8b63f4eaf94e' } },
    createdDate: '2026-03-03T11:00:00.000Z',
  };
}

// ---- tests ----

describe('SCM change routing keys', () => {
  it('builds the same lowercase keys from events as from generator specs', () => {
    const pr = event('github', 'pullRequest', 'Platform', 'Monorepo', 'opened');
    assert.deepEqual(scmEventKeys(pr), ['pr:github:platform/monorepo']);
    assert.equal(pullRequestKey('github', 'PLATFORM', 'monorepo'), 'pr:github:platform/monorepo');
    assert.deepEqual(scmEventKeys(event('bitbucket-server', 'repository', 'PLAT', 'monorepo', 'push')), [organizationKey('bitbucket-server', 'plat')]);
    assert.equal(organizationKey('azuredevops', 'Platform'), 'scm:azuredevops:platform');
  });

  it('wakes every parent group of a GitLab project, and a merge request by path and by project id', () => {
    assert.deepEqual(scmEventKeys(event('gitlab', 'repository', 'Platform/Apps', 'monorepo', 'push')), ['scm:gitlab:platform/apps', 'scm:gitlab:platform']);
    const mr = { ...event('gitlab', 'pullRequest', 'platform/apps', 'monorepo', 'open'), projectId: '4711' };
    assert.deepEqual(scmEventKeys(mr), ['pr:gitlab:platform/apps/monorepo', 'pr:gitlab:/4711']);
    assert.equal(gitlabProjectIdKey(4711), pullRequestKey('gitlab', '', '4711'), 'an id-named project is owner "" and repo "<id>"');
  });
});

describe('GitHub pull request and repository events', () => {
  it('refreshes on the actions Argo CD reacts to, and ignores the others', () => {
    for (const action of ['opened', 'closed', 'reopened', 'synchronize', 'labeled', 'unlabeled']) {
      assert.deepEqual(
        parseScmChangeEvent('github', 'pull_request', githubPullRequest(action)),
        event('github', 'pullRequest', 'Platform', 'Monorepo', action),
      );
    }
    for (const action of ['assigned', 'edited', 'review_requested', 'ready_for_review']) {
      assert.equal(parseScmChangeEvent('github', 'pull_request', githubPullRequest(action)), undefined, action);
    }
  });

  it('reads repository events of an organisation, and passes through verification by header', () => {
    const body = JSON.stringify({ ...githubPullRequest('renamed'), pull_request: undefined, changes: { repository: { name: { from: 'mono' } } } });
    const headers = { 'x-github-event': 'repository', 'x-hub-signature-256': `sha256=${hex('sha256', body)}` };
    const request = verifyRequest(headers, Buffer.from(body), { github: secret });
    assert.ok(isScmChangeEvent(request.provider, request.event));
    assert.deepEqual(parseScmChangeEvent(request.provider, request.event, JSON.parse(body)), event('github', 'repository', 'Platform', 'Monorepo', 'renamed'));
    assert.equal(parseScmChangeEvent('github', 'repository', { ...githubPullRequest('starred') }), undefined, 'an unknown repository action');
    assert.ok(!isScmChangeEvent('github', 'issues') && parseScmChangeEvent('github', 'issues', githubPullRequest('opened')) === undefined);
  });
});

describe('GitLab merge request and system hook events', () => {
  it('reads a merge request of a nested group, with the target project id', () => {
    assert.deepEqual(parseScmChangeEvent('gitlab', 'Merge Request Hook', gitlabMergeRequest('open')), {
      ...event('gitlab', 'pullRequest', 'platform/apps', 'monorepo', 'open'),
      projectId: '4711',
    });
    for (const action of ['close', 'reopen', 'update', 'merge'])
      assert.equal(parseScmChangeEvent('gitlab', 'Merge Request Hook', gitlabMergeRequest(action))?.action, action);
    for (const action of ['approved', 'unapproved', 'approval', 'unapproval'])
      assert.equal(parseScmChangeEvent('gitlab', 'Merge Request Hook', gitlabMergeRequest(action)), undefined);
  });

  it('reads project creation from a system hook and ignores its other events', () => {
    const created = {
      event_name: 'project_create',
      created_at: '2026-03-03T11:00:00Z',
      name: 'payments',
      path: 'payments',
      path_with_namespace: 'platform/apps/payments',
      project_id: 74,
      owner_name: 'Platform',
      project_visibility: 'private',
    };
    assert.deepEqual(parseScmChangeEvent('gitlab', 'System Hook', created), event('gitlab', 'repository', 'platform/apps', 'payments', 'project_create'));
    assert.equal(parseScmChangeEvent('gitlab', 'System Hook', { ...created, event_name: 'user_create' }), undefined);
  });
});

describe('Gitea 1.26 pull request and repository events', () => {
  it('reads an opened pull request delivered with all of Gitea’s headers', () => {
    assert.deepEqual(receiveGitea('pull_request', 'pull_request', giteaPullRequest('opened')), event('gitea', 'pullRequest', 'platform', 'monorepo', 'opened'));
  });

  it('reads synchronisation and label changes, which Gitea sends as pull_request with their own action', () => {
    assert.equal(receiveGitea('pull_request', 'pull_request_sync', giteaPullRequest('synchronized'))?.action, 'synchronized');
    assert.equal(receiveGitea('pull_request', 'pull_request_label', giteaPullRequest('label_updated', [giteaLabel]))?.action, 'label_updated');
    assert.equal(receiveGitea('pull_request', 'pull_request_label', giteaPullRequest('label_cleared'))?.action, 'label_cleared');
    assert.equal(receiveGitea('pull_request', 'pull_request_assign', giteaPullRequest('assigned')), undefined, 'assignment changes no parameter');
    assert.equal(receiveGitea('pull_request', 'pull_request_milestone', giteaPullRequest('milestoned')), undefined);
  });

  it('reads repository creation in an organisation', () => {
    const payload = { action: 'created', repository: giteaRepository('payments'), organization: giteaOrg, sender: giteaDev };
    assert.deepEqual(receiveGitea('repository', 'repository', payload), event('gitea', 'repository', 'platform', 'payments', 'created'));
  });
});

describe('Bitbucket Server pull request and repository events', () => {
  it('reads the target repository of every pull request event that changes what the generator lists', () => {
    for (const key of ['pr:opened', 'pr:from_ref_updated', 'pr:to_ref_updated', 'pr:modified', 'pr:merged', 'pr:declined', 'pr:deleted']) {
      assert.ok(isScmChangeEvent('bitbucket-server', key), key);
      assert.deepEqual(
        parseScmChangeEvent('bitbucket-server', key, bitbucketServerPullRequest(key)),
        event('bitbucket-server', 'pullRequest', 'PLAT', 'monorepo', key.slice('pr:'.length)),
      );
    }
    for (const key of ['pr:reviewer:approved', 'pr:comment:added', 'pr:reviewer:updated']) {
      assert.ok(!isScmChangeEvent('bitbucket-server', key), key);
      assert.equal(parseScmChangeEvent('bitbucket-server', key, bitbucketServerPullRequest(key)), undefined);
    }
  });

  it('reads a renamed repository under its new name, and a fork in its personal project', () => {
    const renamed = { eventKey: 'repo:modified', old: { slug: 'mono', project: { key: 'PLAT' } }, new: { slug: 'monorepo', project: { key: 'PLAT' } } };
    assert.deepEqual(
      parseScmChangeEvent('bitbucket-server', 'repo:modified', renamed),
      event('bitbucket-server', 'repository', 'PLAT', 'monorepo', 'modified'),
    );
    const forked = {
      eventKey: 'repo:forked',
      repository: { slug: 'monorepo', project: { key: '~DEV' }, origin: { slug: 'monorepo', project: { key: 'PLAT' } } },
    };
    assert.deepEqual(parseScmChangeEvent('bitbucket-server', 'repo:forked', forked), event('bitbucket-server', 'repository', '~DEV', 'monorepo', 'forked'));
  });
});

describe('Bitbucket Cloud pull request and repository events', () => {
  it('reads the destination workspace and slug of a pull request from a fork', () => {
    for (const action of ['created', 'updated', 'fulfilled', 'rejected']) {
      assert.deepEqual(
        parseScmChangeEvent('bitbucket', `pullrequest:${action}`, bitbucketCloudPullRequest()),
        event('bitbucket', 'pullRequest', 'platform', 'monorepo', action),
      );
    }
    assert.equal(parseScmChangeEvent('bitbucket', 'pullrequest:approved', bitbucketCloudPullRequest()), undefined);
  });

  it('reads a fork under the new repository and a transfer under its new workspace', () => {
    const fork = { actor: {}, repository: { full_name: 'platform/monorepo' }, fork: { full_name: 'dev-space/monorepo' } };
    assert.deepEqual(parseScmChangeEvent('bitbucket', 'repo:fork', fork), event('bitbucket', 'repository', 'dev-space', 'monorepo', 'fork'));
    const transfer = { actor: {}, previous_owner: { username: 'old-space' }, repository: { full_name: 'platform/payments' } };
    assert.deepEqual(parseScmChangeEvent('bitbucket', 'repo:transfer', transfer), event('bitbucket', 'repository', 'platform', 'payments', 'transfer'));
  });
});

describe('Azure DevOps pull request events', () => {
  it('reads the project and repository, taking the event type from the body', () => {
    for (const verb of ['created', 'updated', 'merged']) {
      const payload = azurePullRequest(`git.pullrequest.${verb}`);
      assert.ok(isScmChangeEvent('azuredevops', '', payload));
      assert.deepEqual(parseScmChangeEvent('azuredevops', '', payload), event('azuredevops', 'pullRequest', 'Platform', 'monorepo', verb));
    }
    const comment = azurePullRequest('ms.vss-code.git-pullrequest-comment-event');
    assert.ok(!isScmChangeEvent('azuredevops', '', comment));
    assert.equal(parseScmChangeEvent('azuredevops', '', comment), undefined);
    assert.equal(parseScmChangeEvent('azuredevops', '', azurePullRequest('git.push')), undefined, 'Azure DevOps pushes are not handled');
  });
});

describe('repository events of pushes', () => {
  it('turns every provider’s push into a repository event of its owner', () => {
    const github = { ...payloads.github, repository: { ...payloads.github.repository, name: 'monorepo', owner: { name: 'platform', login: 'platform' } } };
    assert.ok(isScmChangeEvent('github', 'push'));
    assert.deepEqual(parseScmChangeEvent('github', 'push', github), event('github', 'repository', 'platform', 'monorepo', 'push'));
    assert.deepEqual(repositoryEventOfPush('gitlab', payloads.gitlab), undefined, 'this push payload has no path_with_namespace');
    const gitlab = { ...payloads.gitlab, project: { ...payloads.gitlab.project, path_with_namespace: 'platform/apps/monorepo' } };
    assert.deepEqual(parseScmChangeEvent('gitlab', 'Tag Push Hook', gitlab), event('gitlab', 'repository', 'platform/apps', 'monorepo', 'push'));
    assert.deepEqual(parseScmChangeEvent('bitbucket', 'repo:push', payloads.bitbucket), event('bitbucket', 'repository', 'platform', 'monorepo', 'push'));
    const server = { ...payloads['bitbucket-server'], repository: { ...payloads['bitbucket-server'].repository, slug: 'monorepo', project: { key: 'PLAT' } } };
    assert.deepEqual(parseScmChangeEvent('bitbucket-server', 'repo:refs_changed', server), event('bitbucket-server', 'repository', 'PLAT', 'monorepo', 'push'));
    const gitea = { ...payloads.gitea, repository: { ...payloads.gitea.repository, name: 'monorepo', owner: giteaOrg } };
    assert.deepEqual(parseScmChangeEvent('gitea', 'push', gitea), event('gitea', 'repository', 'platform', 'monorepo', 'push'));
  });

  it('never refuses a push for lacking an owner: the push route decides about pushes', () => {
    for (const payload of [payloads.github, 'text', null, [], { repository: 7 }]) assert.equal(parseScmChangeEvent('github', 'push', payload), undefined);
  });
});

describe('malformed pull request and repository payloads', () => {
  const cases: Array<[Provider, string]> = [
    ['github', 'pull_request'],
    ['github', 'repository'],
    ['gitea', 'pull_request'],
    ['gitlab', 'Merge Request Hook'],
    ['gitlab', 'System Hook'],
    ['bitbucket-server', 'pr:opened'],
    ['bitbucket-server', 'repo:modified'],
    ['bitbucket', 'pullrequest:created'],
    ['bitbucket', 'repo:fork'],
    ['azuredevops', 'git.pullrequest.created'],
  ];
  const bodies: unknown[] = [
    null,
    'opened',
    42,
    [],
    {},
    { action: 'opened', repository: 'platform/monorepo' },
    { action: 'opened', repository: { name: 7, owner: { login: ['x'] } } },
    { object_attributes: { action: 'open', target: { path_with_namespace: 'no-namespace' } } },
    { pullRequest: { toRef: null }, pullrequest: { destination: { repository: { full_name: '/monorepo' } } } },
    { eventType: 'git.pullrequest.created', resource: { repository: { name: 'monorepo', project: 'Platform' } } },
  ];

  it('refuses each with a 400 that names the provider, and never throws anything else', () => {
    for (const [provider, name] of cases) {
      for (const body of bodies) {
        assert.throws(
          () => parseScmChangeEvent(provider, name, body),
          (e: unknown) => rejected400(e) && (e as Error).message.startsWith(`${provider} `),
          `${provider} ${name} ${JSON.stringify(body)}`,
        );
      }
    }
  });

  it('refuses a pull request that names its repository but no action', () => {
    const { action: _action, ...noAction } = githubPullRequest('opened');
    assert.throws(() => parseScmChangeEvent('github', 'pull_request', noAction), /names no action/);
    assert.throws(() => parseScmChangeEvent('gitea', 'pull_request', { ...giteaPullRequest('opened'), action: 5 }), rejected400);
  });
});

describe('Azure DevOps basic-auth verification', () => {
  const body = JSON.stringify(azurePullRequest('git.pullrequest.updated'));
  const secrets: WebhookSecrets = { azuredevops: 'pa:ss-word', azuredevopsUsername: 'argocd' };
  const basic = (credentials: string): string => `Basic ${Buffer.from(credentials).toString('base64')}`;
  const headers = (authorization?: string): Record<string, string> => ({
    'content-type': 'application/json',
    'x-vss-activityid': 'b2f4d6e8-0a1c-4e3f-9b5d-7f9a1c3e5b7d',
    ...(authorization === undefined ? {} : { authorization }),
  });

  it('detects Azure DevOps by X-Vss-ActivityId and accepts the right user and password', () => {
    assert.deepEqual(detectProvider(headers()), { provider: 'azuredevops', event: '' });
    assert.deepEqual(verifyRequest(headers(basic('argocd:pa:ss-word')), Buffer.from(body), secrets), {
      provider: 'azuredevops',
      event: 'git.pullrequest.updated',
    });
    assert.equal(verifyRequest(headers(`basic ${Buffer.from('argocd:pa:ss-word').toString('base64')}`), Buffer.from(body), secrets).provider, 'azuredevops');
    assert.equal(verifyRequest(headers(basic(':secret')), Buffer.from('not json'), { azuredevops: 'secret' }).event, '', 'no user configured means ""');
  });

  it('refuses a wrong password, a wrong user, a missing or non-basic header, and an unconfigured password', () => {
    for (const authorization of [basic('argocd:pa:ss-Word'), basic('ArgoCD:pa:ss-word'), basic('argocd'), basic('argocd:'), 'Bearer pa:ss-word', undefined]) {
      assert.throws(() => verifyRequest(headers(authorization), Buffer.from(body), secrets), rejected401, String(authorization));
    }
    assert.throws(() => verifyRequest(headers(basic('argocd:')), Buffer.from(body), { azuredevopsUsername: 'argocd' }), /no webhook\.azuredevops\.password/);
    assert.throws(() => verifyRequest(headers(basic('argocd:pa:ss-word')), Buffer.from(body), { github: 'pa:ss-word' }), rejected401);
  });

  it('reads both keys of the webhook Secret', () => {
    const secret = { data: { 'webhook.azuredevops.password': Buffer.from('pw').toString('base64') }, stringData: { 'webhook.azuredevops.username': 'argocd' } };
    assert.deepEqual(webhookSecretsFrom(secret), { azuredevops: 'pw', azuredevopsUsername: 'argocd' });
  });
});
