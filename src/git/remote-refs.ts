/** A remote's refs as `git ls-remote` prints them: ref name → object id. */
export type RemoteRefs = ReadonlyMap<string, string>;

/** Parses `git ls-remote` output (`<sha>\t<ref>` lines). */
export function parseLsRemote(output: string): RemoteRefs {
  const refs = new Map<string, string>();
  for (const line of output.split('\n')) {
    const [sha, ref] = line.trim().split('\t');
    if (sha && ref && /^[0-9a-f]{40,64}$/.test(sha)) refs.set(ref, sha);
  }
  return refs;
}

/** True for a full commit SHA (SHA-1 or SHA-256). */
export function isFullSha(value: string): boolean {
  return /^[0-9a-f]{40}$|^[0-9a-f]{64}$/.test(value);
}

/** True for something that can only be an abbreviated commit SHA. */
export function isAbbreviatedSha(value: string): boolean {
  return /^[0-9a-f]{4,63}$/.test(value);
}

/**
 * The commit a symbolic revision names among the remote's refs, the way Argo CD resolves it:
 * `HEAD`, then a branch, then a tag (peeled, so an annotated tag gives its commit), then a full ref
 * name such as `refs/heads/main`. Undefined when no ref matches (it may still be a SHA).
 */
export function commitForRevision(refs: RemoteRefs, revision: string): string | undefined {
  const candidates =
    revision === 'HEAD' ? ['HEAD'] : [`refs/heads/${revision}`, `refs/tags/${revision}^{}`, `refs/tags/${revision}`, `${revision}^{}`, revision];
  for (const ref of candidates) {
    const sha = refs.get(ref);
    if (sha) return sha;
  }
  return undefined;
}
