import { shortRevision, type Provider, type PushEvent } from '../../model/push.js';
import { WebhookRejection } from './providers.js';

/** Events that are pushes, per provider; anything else is acknowledged and ignored. */
const PUSH_EVENTS: Readonly<Record<Provider, readonly string[]>> = {
  github: ['push'],
  gitea: ['push'],
  gitlab: ['Push Hook', 'Tag Push Hook'],
  bitbucket: ['repo:push'],
  'bitbucket-server': ['repo:refs_changed'],
  // Azure DevOps `git.push` is not handled: its webhooks are received for pull requests only.
  azuredevops: [],
};

/** True if `event` is a push of `provider`. */
export function isPushEvent(provider: Provider, event: string): boolean {
  return PUSH_EVENTS[provider].includes(event);
}

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const present = (values: Array<string | undefined>): string[] => [...new Set(values.filter((v): v is string => v !== undefined))];

/** Reads a push payload of `provider`; a payload without a repository URL or ref is a 400. */
export function parsePushEvent(provider: Provider, payload: unknown): PushEvent {
  if (provider === 'azuredevops') throw new WebhookRejection(400, 'azuredevops push webhooks are not supported');
  const body = obj(payload);
  const event =
    provider === 'bitbucket'
      ? bitbucketCloud(body)
      : provider === 'bitbucket-server'
        ? bitbucketServer(body)
        : provider === 'gitlab'
          ? gitlab(body)
          : githubLike(provider, body);
  if (event.repoURLs.length === 0) throw new WebhookRejection(400, `${provider} push payload names no repository URL`);
  if (event.revisions.length === 0) throw new WebhookRejection(400, `${provider} push payload names no branch or tag`);
  return event;
}

function githubLike(provider: Provider, body: Json): PushEvent {
  const repository = obj(body.repository);
  const revision = shortRevision(str(body.ref) ?? '');
  const defaultBranch = str(repository.default_branch);
  return {
    provider,
    repoURLs: present([str(repository.html_url), str(repository.clone_url), str(repository.ssh_url)]),
    revisions: present([revision || undefined]),
    touchesDefaultBranch: defaultBranch === undefined ? undefined : defaultBranch === revision,
  };
}

function gitlab(body: Json): PushEvent {
  const project = obj(body.project);
  const revision = shortRevision(str(body.ref) ?? '');
  const defaultBranch = str(project.default_branch);
  return {
    provider: 'gitlab',
    repoURLs: present([str(project.web_url), str(project.git_http_url), str(project.git_ssh_url)]),
    revisions: present([revision || undefined]),
    touchesDefaultBranch: defaultBranch === undefined ? undefined : defaultBranch === revision,
  };
}

function bitbucketCloud(body: Json): PushEvent {
  const repository = obj(body.repository);
  const fullName = str(repository.full_name);
  const changes = list(obj(body.push).changes).map(obj);
  const mainBranch = str(obj(repository.mainbranch).name);
  const revisions = present(changes.map((change) => str(obj(change.new).name) ?? str(obj(change.old).name)));
  return {
    provider: 'bitbucket',
    repoURLs: present([
      str(obj(obj(repository.links).html).href),
      fullName && `https://bitbucket.org/${fullName}`,
      fullName && `git@bitbucket.org:${fullName}.git`,
    ]),
    revisions,
    touchesDefaultBranch: mainBranch === undefined ? undefined : revisions.includes(mainBranch),
  };
}

function refName(ref: Json): string | undefined {
  const id = str(ref.id);
  return str(ref.displayId) ?? (id ? shortRevision(id) : undefined);
}

function bitbucketServer(body: Json): PushEvent {
  const repository = obj(body.repository);
  const clones = list(obj(repository.links).clone).map(obj);
  return {
    provider: 'bitbucket-server',
    repoURLs: present(clones.map((link) => str(link.href))),
    revisions: present(list(body.changes).map((change) => refName(obj(obj(change).ref)))),
    touchesDefaultBranch: undefined,
  };
}
