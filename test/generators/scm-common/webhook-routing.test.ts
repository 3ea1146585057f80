import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { SCM_EVENT_INDEX, scmEventKeysOf } from '../../../src/controller/routing/caches.js';
import { routeScmChange } from '../../../src/controller/routing/webhook-routing.js';
import type { KubeObject } from '../../../src/kube/informer/index.js';
import { Store } from '../../../src/kube/informer/store.js';
import type { PushEvent } from '../../../src/model/push.js';
import type { ScmChangeEvent } from '../../../src/model/scm-event.js';
import { createWebhookHandler } from '../../../src/server/webhook/webhook-handler.js';
import { hmac } from '../../server/webhook/payloads.js';

/** An ApplicationSet with `generators` in namespace `namespace`. */
function appset(name: string, generators: unknown[], namespace = 'apps'): KubeObject {
  return { apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', metadata: { name, namespace }, spec: { generators } };
}

const prGithub = (owner: string, repo: string) => ({ pullRequest: { github: { owner, repo } } });
const scmGithub = (organization: string) => ({ scmProvider: { github: { organization } } });
const scmGitlab = (group: string) => ({ scmProvider: { gitlab: { group } } });
const prGitlab = (project: string) => ({ pullRequest: { gitlab: { project } } });

describe('scmEventKeysOf', () => {
  it('keys pull request and SCM provider generators, top level and nested in matrix and merge', () => {
    const keys = scmEventKeysOf(
      appset('a', [
        prGithub('Platform', 'App'),
        { matrix: { generators: [scmGitlab('Group/Sub'), { list: { elements: [] } }] } },
        {
          merge: {
            mergeKeys: ['x'],
            generators: [{ matrix: { generators: [prGitlab('42'), { clusters: {} }] } }, { git: { repoURL: 'https://g/x', revision: 'HEAD' } }],
          },
        },
      ]),
    );
    assert.deepEqual(keys.sort(), ['pr:github:platform/app', 'pr:gitlab:/42', 'scm:gitlab:group/sub']);
  });

  it('lists a key once however many generators share it', () => {
    assert.deepEqual(scmEventKeysOf(appset('a', [prGithub('o', 'r'), { matrix: { generators: [prGithub('O', 'R'), scmGithub('o')] } }])), [
      'pr:github:o/r',
      'scm:github:o',
    ]);
  });

  it('ignores generators whose spec cannot be read, keeping the others', () => {
    const keys = scmEventKeysOf(
      appset('a', [{ pullRequest: { github: { owner: 'o' } } }, { scmProvider: { awsCodeCommit: {} } }, { pullRequest: 'x' }, scmGithub('kept')]),
    );
    assert.deepEqual(keys, ['scm:github:kept']);
  });

  it('has no keys for an ApplicationSet without SCM generators or without a spec', () => {
    assert.deepEqual(scmEventKeysOf(appset('a', [{ git: { repoURL: 'https://g/x', revision: 'HEAD', directories: [{ path: '*' }] } }])), []);
    assert.deepEqual(scmEventKeysOf({ metadata: { name: 'bare' } }), []);
  });
});

describe('routeScmChange', () => {
  function store(): Store<KubeObject> {
    const s = new Store<KubeObject>({ [SCM_EVENT_INDEX]: (object) => scmEventKeysOf(object) });
    s.upsert(appset('pr-app', [prGithub('platform', 'app')]));
    s.upsert(appset('pr-app-nested', [{ matrix: { generators: [prGithub('Platform', 'App'), { list: { elements: [{ a: 1 }] } }] } }]));
    s.upsert(appset('pr-app-elsewhere', [prGithub('platform', 'app')], 'not-served'));
    s.upsert(appset('pr-other', [prGithub('platform', 'other')]));
    s.upsert(appset('org', [scmGithub('platform')]));
    s.upsert(appset('both', [prGithub('platform', 'app'), scmGithub('platform')]));
    s.upsert(appset('group', [scmGitlab('group')]));
    s.upsert(appset('subgroup', [scmGitlab('group/sub')]));
    s.upsert(appset('other-group', [scmGitlab('other')]));
    s.upsert(appset('mr-by-path', [prGitlab('group/sub/app')]));
    s.upsert(appset('mr-by-id', [prGitlab('42')]));
    return s;
  }
  const route = (change: ScmChangeEvent, s = store()) => {
    const enqueued: string[] = [];
    const count = routeScmChange(
      change,
      s,
      (key) => enqueued.push(key),
      (ns) => ns === 'apps',
    );
    return { count, enqueued: enqueued.sort() };
  };
  const change = (
    provider: ScmChangeEvent['provider'],
    kind: ScmChangeEvent['kind'],
    owner: string,
    repo: string,
    extra: Partial<ScmChangeEvent> = {},
  ): ScmChangeEvent => ({
    provider,
    kind,
    owner,
    repo,
    action: 'opened',
    ...extra,
  });

  it("wakes the repository's pull request generators, nested ones too, once each, in served namespaces only", () => {
    const { count, enqueued } = route(change('github', 'pullRequest', 'Platform', 'App'));
    assert.deepEqual(enqueued, ['apps/both', 'apps/pr-app', 'apps/pr-app-nested']);
    assert.equal(count, 3);
  });

  it("wakes the organisation's SCM provider generators on a repository change", () => {
    assert.deepEqual(route(change('github', 'repository', 'platform', 'new-repo', { action: 'created' })).enqueued, ['apps/both', 'apps/org']);
  });

  it('wakes every parent group of a GitLab repository change', () => {
    assert.deepEqual(route(change('gitlab', 'repository', 'group/sub', 'app', { action: 'project_create' })).enqueued, ['apps/group', 'apps/subgroup']);
  });

  it('wakes a GitLab merge request generator named by path or by project id', () => {
    assert.deepEqual(route(change('gitlab', 'pullRequest', 'group/sub', 'app', { action: 'open', projectId: '42' })).enqueued, [
      'apps/mr-by-id',
      'apps/mr-by-path',
    ]);
  });

  it('wakes nothing for another provider or repository', () => {
    assert.equal(route(change('gitea', 'pullRequest', 'platform', 'app')).count, 0);
    assert.equal(route(change('github', 'pullRequest', 'platform', 'unknown')).count, 0);
  });

  it('follows the ApplicationSet when its generators change', () => {
    const s = store();
    s.upsert(appset('pr-app', [prGithub('platform', 'moved')]));
    assert.deepEqual(route(change('github', 'pullRequest', 'platform', 'app'), s).enqueued, ['apps/both', 'apps/pr-app-nested']);
    assert.deepEqual(route(change('github', 'pullRequest', 'platform', 'moved'), s).enqueued, ['apps/pr-app']);
  });
});

describe('webhook endpoint with pull request and repository routing', () => {
  const secret = 'gitea-hook-secret';
  const pushes: PushEvent[] = [];
  const changes: ScmChangeEvent[] = [];
  let server: Server;
  let url = '';
  before(async () => {
    const handler = createWebhookHandler({
      secrets: () => ({ gitea: secret }),
      onPush: (push) => {
        pushes.push(push);
        return Promise.resolve(2);
      },
      onScmChange: (scmChange) => {
        changes.push(scmChange);
        return Promise.resolve(5);
      },
      log: pino({ level: 'silent' }),
    });
    server = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhook`;
  });
  after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  const repository = {
    id: 7,
    name: 'monorepo',
    full_name: 'platform/monorepo',
    owner: { id: 2, login: 'platform', username: 'platform' },
    html_url: 'https://gitea.example/platform/monorepo',
    clone_url: 'https://gitea.example/platform/monorepo.git',
    ssh_url: 'git@gitea.example:platform/monorepo.git',
    default_branch: 'main',
  };
  const pullRequestBody = JSON.stringify({
    action: 'opened',
    number: 3,
    pull_request: { number: 3, head: { ref: 'feature/x', sha: 'abc' }, base: { ref: 'main' } },
    repository,
    sender: { login: 'dev' },
  });
  const pushBody = JSON.stringify({ ref: 'refs/heads/main', before: '0'.repeat(40), after: '1'.repeat(40), repository, pusher: { login: 'dev' } });
  const headers = (event: string, body: string, signature = hmac(secret, body)): Record<string, string> => ({
    'content-type': 'application/json',
    'x-gitea-event': event,
    'x-gitea-event-type': event,
    'x-github-event': event,
    'x-gitea-signature': signature,
  });
  const post = (body: string, h: Record<string, string>): Promise<Response> => fetch(url, { method: 'POST', headers: h, body });

  it('hands a signed Gitea pull_request to onScmChange only and answers 202 with the count', async () => {
    const before = { pushes: pushes.length, changes: changes.length };
    const response = await post(pullRequestBody, headers('pull_request', pullRequestBody));
    assert.equal(response.status, 202);
    assert.deepEqual(await response.json(), { enqueued: 5 });
    assert.equal(pushes.length, before.pushes);
    assert.deepEqual(changes.slice(before.changes), [{ provider: 'gitea', kind: 'pullRequest', owner: 'platform', repo: 'monorepo', action: 'opened' }]);
  });

  it('hands a signed push to onPush and, as a repository change, to onScmChange, adding the counts', async () => {
    const before = { pushes: pushes.length, changes: changes.length };
    const response = await post(pushBody, headers('push', pushBody));
    assert.equal(response.status, 202);
    assert.deepEqual(await response.json(), { enqueued: 7 });
    assert.equal(pushes.length, before.pushes + 1);
    assert.deepEqual(pushes.at(-1)?.revisions, ['main']);
    assert.deepEqual(changes.slice(before.changes), [{ provider: 'gitea', kind: 'repository', owner: 'platform', repo: 'monorepo', action: 'push' }]);
  });

  it('acknowledges a pull request action that changes nothing, handing nothing on', async () => {
    const before = changes.length;
    const assigned = JSON.stringify({ ...(JSON.parse(pullRequestBody) as object), action: 'assigned' });
    const response = await post(assigned, headers('pull_request', assigned));
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { ignored: 'pull_request' });
    assert.equal(changes.length, before);
  });

  it('refuses an unsigned or wrongly signed request with 401, handing nothing on', async () => {
    const before = { pushes: pushes.length, changes: changes.length };
    const unsigned = headers('pull_request', pullRequestBody);
    delete unsigned['x-gitea-signature'];
    assert.equal((await post(pullRequestBody, unsigned)).status, 401);
    assert.equal((await post(pullRequestBody, headers('pull_request', pullRequestBody, hmac('guessed', pullRequestBody)))).status, 401);
    assert.equal((await post(pushBody, headers('push', pushBody, hmac('guessed', pushBody)))).status, 401);
    assert.deepEqual({ pushes: pushes.length, changes: changes.length }, before);
  });

  it('refuses a pull request payload that names no repository with 400', async () => {
    const before = changes.length;
    const body = JSON.stringify({ action: 'opened', number: 1 });
    assert.equal((await post(body, headers('pull_request', body))).status, 400);
    assert.equal(changes.length, before);
  });
});
