/** One open pull (or merge) request, as every pull request provider reports it. */
export interface PullRequest {
  readonly number: number;
  readonly title: string;
  /** The branch the pull request comes from. */
  readonly branch: string;
  /** The branch it would merge into. */
  readonly targetBranch: string;
  /** The commit at the head of `branch`. */
  readonly headSha: string;
  readonly labels: readonly string[];
  /** The author's login (user name), as the provider shows it. */
  readonly author: string;
}

/** One repository (or, once branches are read, one branch of a repository) of an SCM provider listing. */
export interface ScmRepository {
  readonly organization: string;
  readonly repository: string;
  /** The clone URL in the protocol the generator asked for. */
  readonly url: string;
  /** The default branch in a listing; a named branch once branches are read. */
  readonly branch: string;
  /** The commit at the head of `branch`; empty until branches are read. */
  readonly sha: string;
  /** Topics or labels of the repository. */
  readonly labels: readonly string[];
  /** The provider's id of the repository (a number on most, a string on some). */
  readonly repositoryId: string | number | undefined;
}

/** A provider's pull requests of one repository, already narrowed by the provider-side options (labels, state). */
export interface PullRequestSource {
  list(signal: AbortSignal): Promise<PullRequest[]>;
}

/** A provider's repositories of one organisation (group, project, workspace, owner). */
export interface RepositorySource {
  /** Every repository, `branch` being the default branch; `cloneProtocol` is the spec's (empty: the provider's default). */
  listRepos(cloneProtocol: string, signal: AbortSignal): Promise<ScmRepository[]>;
  /** The repository once per branch: every branch with `allBranches`, else its default branch only, with its commit. */
  getBranches(repo: ScmRepository, signal: AbortSignal): Promise<ScmRepository[]>;
  /** Whether `path` (a file or a directory, no trailing slash) exists on `repo.branch` (at `repo.sha` when {@link pathsAtCommit}). */
  repoHasPath(repo: ScmRepository, path: string, signal: AbortSignal): Promise<boolean>;
  /**
   * True when `repoHasPath` asks at `repo.sha` rather than at the branch: its answer then cannot change and
   * may be remembered. Providers that ask at the branch (as Argo CD does for most) could see a later commit.
   */
  readonly pathsAtCommit?: boolean;
}
