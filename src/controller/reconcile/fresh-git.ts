import type { GitReader } from '../../git/git-reader.js';

/**
 * `git` resolving every revision against the remote as it is now, whatever refs it would reuse: what an
 * ApplicationSet asks for with the refresh annotation (Argo CD bypasses its revision cache then too).
 */
export function freshRefsGitReader(git: GitReader): GitReader {
  return { ...git, resolveRevision: (repoURL, revision, signal) => git.resolveRevision(repoURL, revision, signal, { maxRefsAgeMs: 0 }) };
}
