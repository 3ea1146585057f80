import type { ParamSet } from '../model/params.js';
import type { Generator } from './generator.js';
import { childRequeue, readChildGenerators } from './nested.js';
import { overrideParamSet } from './params.js';
import type { GeneratorRegistry } from './registry.js';
import { GeneratorSpecError, readArray, readObject, readString } from './spec-reading.js';

/**
 * The merge generator: the first child is the base; a param set of a later child whose `mergeKeys`
 * values equal a base set's overrides that base set's values. Base sets keep their order, later
 * sets matching no base set are dropped, and two sets with the same key values in one child are an
 * error (as Argo CD: which one should win would be a guess).
 */
export function createMergeGenerator(registry: GeneratorRegistry): Generator {
  return {
    name: 'merge',
    async generate(spec, ctx) {
      const children = readChildGenerators(spec, 'merge');
      if (children.length < 2) throw new GeneratorSpecError('merge.generators', `must hold at least two generators, got ${children.length}`);
      const mergeKeys = readMergeKeys(spec);
      const results = await Promise.all(children.map((c, i) => registry.generateEntry(c, ctx, `merge.generators[${i}]`)));
      const base = [...indexByKeys(results[0] ?? [], mergeKeys, 0).entries()];
      const overrides = results.slice(1).map((sets, i) => indexByKeys(sets, mergeKeys, i + 1));
      return base.map(([key, set]) =>
        overrides.reduce((acc, index) => {
          const match = index.get(key);
          return match ? overrideParamSet(acc, match) : acc;
        }, set),
      );
    },
    requeueAfterMs: (spec) => childRequeue(registry, readChildGenerators(spec, 'merge'), 'merge'),
  };
}

function readMergeKeys(spec: unknown): string[] {
  const keys = readArray(readObject(spec, 'merge').mergeKeys, 'merge.mergeKeys').map((k, i) => readString(k, `merge.mergeKeys[${i}]`));
  if (keys.length === 0) throw new GeneratorSpecError('merge.mergeKeys', 'must name at least one parameter');
  return [...new Set(keys)];
}

/**
 * How Argo CD reads a merge key: as one name of the param set. Fasttemplate parameters are flat (the
 * registry flattens them), so `path.basename` is one name; goTemplate parameters are nested maps, where
 * `path.basename` names nothing. A missing key reads as null.
 */
function mergeKeyValue(set: ParamSet, key: string): unknown {
  return Object.hasOwn(set, key) ? set[key] : null;
}

/** Param sets by the JSON of their merge-key values. */
function indexByKeys(sets: readonly ParamSet[], mergeKeys: readonly string[], child: number): Map<string, ParamSet> {
  const index = new Map<string, ParamSet>();
  for (const set of sets) {
    const key = JSON.stringify(mergeKeys.map((k) => mergeKeyValue(set, k) ?? null));
    if (index.has(key)) throw new GeneratorSpecError(`merge.generators[${child}]`, `two parameter sets have the same merge key values ${key}`);
    index.set(key, set);
  }
  return index;
}
