import type { GitReader } from '../../git/git-reader.js';

/** Receives the duration of one Git operation in seconds. */
export type GitObserver = (operation: keyof GitReader, seconds: number) => void;

/** A {@link GitReader} that reports how long each call took (failed calls too) to `observe`. */
export function timedGitReader(git: GitReader, observe: GitObserver): GitReader {
  const timed = async <T>(operation: keyof GitReader, call: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await call();
    } finally {
      observe(operation, (performance.now() - started) / 1000);
    }
  };
  return {
    resolveRevision: (repoURL, revision, signal, options) => timed('resolveRevision', () => git.resolveRevision(repoURL, revision, signal, options)),
    listDirectories: (repoURL, commit, signal) => timed('listDirectories', () => git.listDirectories(repoURL, commit, signal)),
    listFiles: (repoURL, commit, signal) => timed('listFiles', () => git.listFiles(repoURL, commit, signal)),
    readFile: (repoURL, commit, path, signal) => timed('readFile', () => git.readFile(repoURL, commit, path, signal)),
  };
}
