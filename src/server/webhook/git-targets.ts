/** Which Git repositories and revisions an ApplicationSet's git generators read, nested ones included. */

/** A repository and revision one git generator reads. */
export interface GitTarget {
  readonly repoURL: string;
  /** As written in the generator; empty means HEAD. */
  readonly revision: string;
}

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});

/**
 * The git generators' repository and revision in `spec.generators`, also inside matrix and merge (to
 * the two levels Argo CD allows). Templated values (`{{…}}`) are kept as written: they cannot match
 * a push literally, so a webhook never wakes on a guess.
 */
export function gitTargets(spec: unknown, depth = 0): GitTarget[] {
  const generators = obj(spec).generators;
  if (!Array.isArray(generators) || depth > 2) return [];
  return generators.flatMap((entry): GitTarget[] => {
    const generator = obj(entry);
    const git = obj(generator.git);
    const own = typeof git.repoURL === 'string' ? [{ repoURL: git.repoURL, revision: typeof git.revision === 'string' ? git.revision : '' }] : [];
    return [...own, ...gitTargets(generator.matrix, depth + 1), ...gitTargets(generator.merge, depth + 1)];
  });
}
