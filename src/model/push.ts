/** The Git hosting providers whose webhooks are understood (Azure DevOps for pull requests only, not pushes). */
export type Provider = 'github' | 'gitlab' | 'gitea' | 'bitbucket' | 'bitbucket-server' | 'azuredevops';

/** What a push changed: which repository (under every URL the payload gives) and which branches or tags. */
export interface PushEvent {
  readonly provider: Provider;
  /** Every URL of the pushed repository the payload names (web, HTTPS clone, SSH clone). */
  readonly repoURLs: readonly string[];
  /** Pushed branch and tag names, without `refs/heads/` or `refs/tags/`. */
  readonly revisions: readonly string[];
  /** True if the default branch was pushed; undefined when the payload does not say (then HEAD counts as touched). */
  readonly touchesDefaultBranch: boolean | undefined;
}

/** `refs/heads/feature/x` → `feature/x`, `refs/tags/v1` → `v1`, `main` → `main`. */
export function shortRevision(ref: string): string {
  return ref.replace(/^refs\/(heads|tags)\//, '');
}
