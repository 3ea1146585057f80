/** How a caller of {@link GitReader.resolveRevision} bounds the age of the remote's refs it resolves against. */
export interface ResolveOptions {
  /**
   * Refs read at most this long ago are good enough (the reader may use fewer, never more); absent:
   * the reader's own bound. 0 asks for the remote as it is now (an explicit refresh).
   */
  readonly maxRefsAgeMs?: number;
}

/** Reads a Git repository at a revision; implemented by the repository cache in `src/git/`. */
export interface GitReader {
  /** The commit SHA that `revision` (branch, tag, SHA or HEAD) resolves to. */
  resolveRevision(repoURL: string, revision: string, signal: AbortSignal, options?: ResolveOptions): Promise<string>;
  /** Every directory path of the tree at `commit`, relative to the repository root. */
  listDirectories(repoURL: string, commit: string, signal: AbortSignal): Promise<readonly string[]>;
  /** Every file path of the tree at `commit`, relative to the repository root. */
  listFiles(repoURL: string, commit: string, signal: AbortSignal): Promise<readonly string[]>;
  /** The content of one file at `commit`. */
  readFile(repoURL: string, commit: string, path: string, signal: AbortSignal): Promise<Buffer>;
}
