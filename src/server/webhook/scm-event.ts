import type { Provider } from '../../model/push.js';
import type { ScmChangeEvent } from '../../model/scm-event.js';
import { WebhookRejection } from './providers.js';
import { isPushEvent } from './push-event.js';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** Who and what an event is about, before the action filter; undefined fields make the payload malformed. */
interface Subject {
  readonly owner: string | undefined;
  readonly repo: string | undefined;
  readonly action: string | undefined;
  readonly projectId?: string;
}

/** One event family of a provider: what it changes, which of its actions matter, and how its payload names the repository. */
interface Family {
  readonly kind: ScmChangeEvent['kind'];
  /** Actions that refresh; every other action is acknowledged and ignored. */
  readonly actions: readonly string[];
  readonly read: (body: Json, event: string) => Subject;
}

// Argo CD's lists (applicationset/webhook): GitHub leaves out `edited`, `assigned`, review events; GitLab approvals.
const GITHUB_PR_ACTIONS = ['opened', 'closed', 'reopened', 'synchronize', 'labeled', 'unlabeled'];
const GITLAB_MR_ACTIONS = ['open', 'close', 'reopen', 'update', 'merge'];
// Gitea has no Argo CD webhook: the same changes as GitHub's list, in Gitea's words (labels come as label_updated/cleared).
const GITEA_PR_ACTIONS = ['opened', 'closed', 'reopened', 'synchronized', 'label_updated', 'label_cleared'];
// Every repository action can add, drop or reshape a repository an scmProvider generator lists.
const GITHUB_REPO_ACTIONS = ['created', 'deleted', 'archived', 'unarchived', 'edited', 'renamed', 'transferred', 'publicized', 'privatized'];
const GITLAB_PROJECT_EVENTS = ['project_create', 'project_destroy', 'project_rename', 'project_transfer', 'project_update'];

/** `pr:from_ref_updated` → `from_ref_updated`, `git.pullrequest.merged` → `merged`: the verb of an event named by what happened. */
function verbOf(event: string): string {
  const colon = event.indexOf(':');
  return colon >= 0 ? event.slice(colon + 1) : event.slice(event.lastIndexOf('.') + 1);
}

/** `group/sub/project` → owner `group/sub`, repo `project`. */
function splitPath(path: string | undefined): { owner: string | undefined; repo: string | undefined } {
  const slash = path?.lastIndexOf('/') ?? -1;
  return path === undefined || slash <= 0 ? { owner: undefined, repo: undefined } : { owner: path.slice(0, slash), repo: path.slice(slash + 1) || undefined };
}

const githubLike = (body: Json): Subject => {
  const repository = obj(body.repository);
  return { owner: str(obj(repository.owner).login) ?? str(obj(body.organization).login), repo: str(repository.name), action: str(body.action) };
};

const gitlabMergeRequest = (body: Json): Subject => {
  const attributes = obj(body.object_attributes);
  const id = attributes.target_project_id;
  const path = str(obj(attributes.target).path_with_namespace) ?? str(obj(body.project).path_with_namespace);
  const projectId = typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : undefined;
  return { ...splitPath(path), action: str(attributes.action), ...(projectId === undefined ? {} : { projectId }) };
};

const gitlabSystemHook = (body: Json): Subject => ({ ...splitPath(str(body.path_with_namespace)), action: str(body.event_name) });

/** Bitbucket Server repository: project key and slug. */
const serverRepo = (repository: Json, event: string): Subject => ({
  owner: str(obj(repository.project).key),
  repo: str(repository.slug),
  action: verbOf(event),
});

/** Bitbucket Cloud repository: `workspace/slug` from `full_name`. */
const cloudRepo = (repository: Json, event: string): Subject => ({ ...splitPath(str(repository.full_name)), action: verbOf(event) });

/** A Bitbucket Cloud pull request belongs to its destination repository (the payload's `repository` too, as a fallback). */
const cloudPullRequest = (body: Json, event: string): Subject => {
  const destination = obj(obj(obj(body.pullrequest).destination).repository);
  return cloudRepo(str(destination.full_name) ? destination : obj(body.repository), event);
};

const azurePullRequest = (body: Json, event: string): Subject => {
  const repository = obj(obj(body.resource).repository);
  return { owner: str(obj(repository.project).name), repo: str(repository.name), action: verbOf(str(body.eventType) ?? event) };
};

const SERVER_PR_EVENTS = ['pr:opened', 'pr:from_ref_updated', 'pr:to_ref_updated', 'pr:modified', 'pr:merged', 'pr:declined', 'pr:deleted'];
const CLOUD_PR_EVENTS = ['pullrequest:created', 'pullrequest:updated', 'pullrequest:fulfilled', 'pullrequest:rejected'];
const AZURE_PR_EVENTS = ['git.pullrequest.created', 'git.pullrequest.updated', 'git.pullrequest.merged'];

/** A family per event name whose name alone says it matters (Bitbucket, Azure DevOps): its verb is its only action. */
function byName(events: readonly string[], kind: Family['kind'], read: Family['read']): Record<string, Family> {
  return Object.fromEntries(events.map((event) => [event, { kind, actions: [verbOf(event)], read }]));
}

/** The pull request and repository events of each provider, by event name (header, or Azure DevOps' `eventType`). */
const FAMILIES: Readonly<Record<Provider, Readonly<Record<string, Family>>>> = {
  github: {
    pull_request: { kind: 'pullRequest', actions: GITHUB_PR_ACTIONS, read: githubLike },
    repository: { kind: 'repository', actions: GITHUB_REPO_ACTIONS, read: githubLike },
  },
  // Gitea sends `pull_request` for its label, sync, assign… variants too (their names go in X-Gitea-Event-Type).
  gitea: {
    pull_request: { kind: 'pullRequest', actions: GITEA_PR_ACTIONS, read: githubLike },
    repository: { kind: 'repository', actions: ['created', 'deleted'], read: githubLike },
  },
  gitlab: {
    'Merge Request Hook': { kind: 'pullRequest', actions: GITLAB_MR_ACTIONS, read: gitlabMergeRequest },
    'System Hook': { kind: 'repository', actions: GITLAB_PROJECT_EVENTS, read: gitlabSystemHook },
  },
  'bitbucket-server': {
    ...byName(SERVER_PR_EVENTS, 'pullRequest', (body, event) => serverRepo(obj(obj(obj(body.pullRequest).toRef).repository), event)),
    // A rename shows the repository under `new`; a fork's payload `repository` is the new fork.
    'repo:modified': { kind: 'repository', actions: ['modified'], read: (body, event) => serverRepo(obj(body.new), event) },
    'repo:forked': { kind: 'repository', actions: ['forked'], read: (body, event) => serverRepo(obj(body.repository), event) },
  },
  bitbucket: {
    ...byName(CLOUD_PR_EVENTS, 'pullRequest', cloudPullRequest),
    ...byName(['repo:updated', 'repo:transfer'], 'repository', (body, event) => cloudRepo(obj(body.repository), event)),
    'repo:fork': { kind: 'repository', actions: ['fork'], read: (body, event) => cloudRepo(obj(body.fork), event) },
  },
  azuredevops: byName(AZURE_PR_EVENTS, 'pullRequest', azurePullRequest),
};

/** Azure DevOps names its event in the body; every other provider in a header. */
const eventName = (provider: Provider, event: string, payload: unknown): string =>
  provider === 'azuredevops' ? (str(obj(payload).eventType) ?? event) : event;

/**
 * True if `event` may change pull requests or an organisation's repositories: a pull request, repository or push
 * event. A cheap filter: {@link parseScmChangeEvent} may still find an action that changes nothing.
 */
export function isScmChangeEvent(provider: Provider, event: string, payload?: unknown): boolean {
  const name = eventName(provider, event, payload);
  return Object.hasOwn(FAMILIES[provider], name) || isPushEvent(provider, name);
}

/**
 * Reads a pull request or repository event; a push yields the repository event of its owner (see
 * {@link repositoryEventOfPush}). Undefined when the event or its action changes nothing generators list.
 * Throws a 400 WebhookRejection when a pull request or repository payload does not name its repository.
 */
export function parseScmChangeEvent(provider: Provider, event: string, payload: unknown): ScmChangeEvent | undefined {
  const name = eventName(provider, event, payload);
  if (isPushEvent(provider, name)) return repositoryEventOfPush(provider, payload);
  const family = Object.hasOwn(FAMILIES[provider], name) ? FAMILIES[provider][name] : undefined;
  if (!family) return undefined;
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
    throw new WebhookRejection(400, `${provider} ${name} payload is not an object`);
  const subject = family.read(payload as Json, name);
  if (subject.owner === undefined || subject.repo === undefined) throw new WebhookRejection(400, `${provider} ${name} payload names no repository or owner`);
  if (subject.action === undefined) throw new WebhookRejection(400, `${provider} ${name} payload names no action`);
  if (!family.actions.includes(subject.action)) return undefined;
  const { owner, repo, action, projectId } = subject;
  return { provider, kind: family.kind, owner, repo, action, ...(projectId === undefined ? {} : { projectId }) };
}

/**
 * The repository event a push implies (action `push`), so `scmProvider` generators of the pushed repository's
 * organisation refresh: a push can create a repository, or change the branches and files their filters look at.
 * Never throws: a push payload without owner (which the push route may still accept) yields undefined.
 */
export function repositoryEventOfPush(provider: Provider, payload: unknown): ScmChangeEvent | undefined {
  const body = obj(payload);
  const repository = obj(body.repository);
  const subject =
    provider === 'gitlab'
      ? splitPath(str(obj(body.project).path_with_namespace))
      : provider === 'bitbucket'
        ? splitPath(str(repository.full_name))
        : provider === 'bitbucket-server'
          ? serverRepo(repository, '')
          : githubLike(body);
  if (subject.owner === undefined || subject.repo === undefined) return undefined;
  return { provider, kind: 'repository', owner: subject.owner, repo: subject.repo, action: 'push' };
}
