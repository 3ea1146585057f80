import type { Provider } from './push.js';

/** Providers whose pull request and repository webhooks are understood, under their webhook provider names. */
export type ScmEventProvider = Provider;

/**
 * A webhook that changed a pull request (for `pullRequest` generators) or the repositories of an organisation (for
 * `scmProvider` generators). `owner` is what those generators name as the organisation:
 * GitHub and Gitea the owner login; GitLab the namespace path, which may hold `/` (`group/subgroup`); Bitbucket Cloud
 * the workspace; Bitbucket Server the project key (`~user` for personal projects); Azure DevOps the project name
 * (not the organisation, which its pull request payloads do not name directly).
 */
export interface ScmChangeEvent {
  readonly provider: ScmEventProvider;
  readonly kind: 'pullRequest' | 'repository';
  readonly owner: string;
  /** The repository name or slug; for GitLab the last segment of the project path. */
  readonly repo: string;
  /** The provider's verb without its event family: `opened`, `update`, `from_ref_updated`, `created`, `push`… */
  readonly action: string;
  /** GitLab merge requests only: the target project's numeric id, which a generator may name instead of its path. */
  readonly projectId?: string;
}

/**
 * Routing key of the pull requests of one repository, e.g. `pr:github:platform/monorepo`; lowercase, as these providers
 * ignore case in owner and repository names. `provider` is a webhook provider name ({@link ScmEventProvider}).
 */
export function pullRequestKey(provider: string, owner: string, repo: string): string {
  return `pr:${provider}:${owner}/${repo}`.toLowerCase();
}

/**
 * Routing key of a GitLab project named by its numeric id: the key of owner '' and repo `42` (`pr:gitlab:/42`), which
 * is what a generator whose `project` is an id yields; no project path starts with `/`, so it never names another.
 */
export function gitlabProjectIdKey(projectId: string | number): string {
  return pullRequestKey('gitlab', '', String(projectId));
}

/** Routing key of the repositories of one organisation, e.g. `scm:gitlab:platform/team` (lowercase, like {@link pullRequestKey}). */
export function organizationKey(provider: string, owner: string): string {
  return `scm:${provider}:${owner}`.toLowerCase();
}

/**
 * The routing keys an event wakes. A GitLab repository event also wakes every parent group, because a group's
 * `scmProvider` generator may include subgroups; a generator without them refreshes once for nothing.
 */
export function scmEventKeys(event: ScmChangeEvent): string[] {
  if (event.kind === 'pullRequest') {
    const byPath = pullRequestKey(event.provider, event.owner, event.repo);
    return event.projectId === undefined ? [byPath] : [byPath, gitlabProjectIdKey(event.projectId)];
  }
  if (event.provider !== 'gitlab') return [organizationKey(event.provider, event.owner)];
  const groups = event.owner.split('/');
  return groups.map((_, i) => organizationKey('gitlab', groups.slice(0, groups.length - i).join('/')));
}
