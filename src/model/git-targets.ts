import { generatorsOfKind } from './generator-walk.js';

/** A repository and revision one git generator reads. */
export interface GitTarget {
  readonly repoURL: string;
  /** As written in the generator; empty means HEAD. */
  readonly revision: string;
}

/**
 * The git generators' repository and revision in `spec.generators`, also inside matrix and merge.
 * Templated values (`{{…}}`) are kept as written: they cannot match a push literally, so a webhook never
 * wakes on a guess.
 */
export function gitTargets(spec: unknown): GitTarget[] {
  return generatorsOfKind(spec, 'git').flatMap((raw) => {
    const git = (raw !== null && typeof raw === 'object' ? raw : {}) as { repoURL?: unknown; revision?: unknown };
    return typeof git.repoURL === 'string' ? [{ repoURL: git.repoURL, revision: typeof git.revision === 'string' ? git.revision : '' }] : [];
  });
}
