/**
 * The one reading of how generators nest: `spec.generators[]`, and inside a matrix or merge its own
 * `generators[]`, to the depth Argo CD allows. Event routing, webhook matching and the generators'
 * own validation all use this, so they agree on what an ApplicationSet's generators are.
 */

/** The generators that hold generators of their own. */
export const COMBINERS = ['matrix', 'merge'] as const;

/**
 * Depth of the deepest `generators` list Argo CD reads: the ApplicationSet's own (0), a matrix's or
 * merge's (1), and one nested matrix's or merge's (2). Anything deeper is refused when generating.
 */
export const MAX_GENERATOR_DEPTH = 2;

/** One generator entry found by {@link walkGenerators}. */
export interface GeneratorEntry {
  /** The generator's key in its entry (`git`, `clusters`, `matrix`, ...). */
  readonly kind: string;
  /** The generator's own spec (the value under `kind`). */
  readonly spec: unknown;
  /** Depth of the `generators` list the entry is in. */
  readonly depth: number;
}

type Json = Record<string, unknown>;
const objectOf = (value: unknown): Json => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});

/**
 * Every generator of `spec.generators`, nested ones included, to {@link MAX_GENERATOR_DEPTH}; lenient:
 * malformed entries are skipped, never thrown on (validation is the generators' job).
 */
export function walkGenerators(spec: unknown, depth = 0): GeneratorEntry[] {
  const generators = objectOf(spec).generators;
  if (!Array.isArray(generators) || depth > MAX_GENERATOR_DEPTH) return [];
  return generators.flatMap((raw) => {
    const entry = objectOf(raw);
    const own = Object.entries(entry)
      .filter(([kind, value]) => kind !== 'selector' && value !== undefined && value !== null)
      .map(([kind, value]) => ({ kind, spec: value, depth }));
    return [...own, ...COMBINERS.flatMap((combiner) => walkGenerators(entry[combiner], depth + 1))];
  });
}

/** The specs of every generator of one kind (`git`, `clusters`, ...), nested ones included. */
export function generatorsOfKind(spec: unknown, kind: string): unknown[] {
  return walkGenerators(spec)
    .filter((entry) => entry.kind === kind)
    .map((entry) => entry.spec);
}
