/**
 * The argument lists of the repository cache's git commands that can succeed without output, each chosen so that
 * it prints something when it succeeds. simple-git waits 50 ms more after a command that printed nothing (in case
 * its output comes late), so a silent `cat-file -e` and `fetch -q` added 100 ms of waiting to every webhook push
 * (session 27: 65-75 ms for the check after a fetch against 16 ms for the same command printing an error).
 */
export const cacheCommands = {
  /** Prints `commit` when `sha` names a commit in the copy; fails with a message otherwise. */
  commitType: (sha: string): string[] => ['cat-file', '-t', `${sha}^{commit}`],
  /** Prints the commit `rev` names in the copy; fails with a message when it names none. */
  commitOf: (rev: string): string[] => ['rev-parse', '--verify', '--end-of-options', `${rev}^{commit}`],
  /** Fetches every branch and tag; prints `From <url>` and a line per updated ref to stderr (no progress: not a terminal). */
  fetchAll: (repoURL: string): string[] => [
    'fetch',
    '--prune',
    '--no-tags',
    '--no-write-fetch-head',
    '--',
    repoURL,
    '+refs/heads/*:refs/heads/*',
    '+refs/tags/*:refs/tags/*',
  ],
  /** Creates a bare copy; prints `Initialized empty Git repository in <dir>`. */
  initBare: (dir: string): string[] => ['init', '--bare', dir],
} as const;
