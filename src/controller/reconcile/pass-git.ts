import type { GitReader } from '../../git/git-reader.js';

/**
 * `git` resolving each (repository, revision) once for the life of this reader: the resync's look at a
 * thousand ApplicationSets over one monorepo asks the same question a thousand times within a second, and
 * each answer otherwise costs a read of the shared refs and push counter in Redis.
 */
export function resolveOncePerPass(git: GitReader): GitReader {
  const resolved = new Map<string, Promise<string>>();
  return {
    listDirectories: (repoURL, commit, signal) => git.listDirectories(repoURL, commit, signal),
    listFiles: (repoURL, commit, signal) => git.listFiles(repoURL, commit, signal),
    readFile: (repoURL, commit, path, signal) => git.readFile(repoURL, commit, path, signal),
    resolveRevision(repoURL, revision, signal, options) {
      const key = JSON.stringify([repoURL, revision, options?.maxRefsAgeMs ?? null]);
      let answer = resolved.get(key);
      if (!answer) {
        answer = git.resolveRevision(repoURL, revision, signal, options);
        resolved.set(key, answer);
      }
      return answer;
    },
  };
}
