import type { ParamSet } from '../model/params.js';
import type { Generator } from './generator.js';
import { childRequeue, hasReferences, interpolateChild, readChildGenerators } from './nested.js';
import { combineParamSets, overrideParamSet } from './params.js';
import type { GeneratorRegistry } from './registry.js';
import { GeneratorSpecError } from './spec-reading.js';

/**
 * The matrix generator: the cartesian product of exactly two child generators. The second child's
 * fields may refer to the first child's params (`{{path.basename}}` in a git `repoURL`), so it runs
 * once per param set of the first, interpolated with it (or once, when it refers to nothing).
 * Two sets combine as in Argo CD: with fasttemplate the same name with two values is an error; with
 * goTemplate the maps merge deeply and the first child wins (Argo CD documents this as overriding one
 * child's parameters from the other).
 */
export function createMatrixGenerator(registry: GeneratorRegistry): Generator {
  return {
    name: 'matrix',
    async generate(spec, ctx) {
      const children = readChildGenerators(spec, 'matrix');
      if (children.length !== 2) throw new GeneratorSpecError('matrix.generators', `must hold exactly two generators, got ${children.length}`);
      const [firstChild, secondChild] = children;
      const first = await registry.generateEntry(firstChild, ctx, 'matrix.generators[0]');
      const independent = hasReferences(secondChild) ? undefined : await registry.generateEntry(secondChild, ctx, 'matrix.generators[1]');
      const combine = ctx.goTemplate ? firstChildWins : combineParamSets;
      const out: ParamSet[] = [];
      for (const left of first) {
        const right = independent ?? (await registry.generateEntry(interpolateChild(secondChild, left, ctx), ctx, 'matrix.generators[1]'));
        for (const r of right) out.push(combine(left, r));
      }
      return out;
    },
    requeueAfterMs: (spec) => childRequeue(registry, readChildGenerators(spec, 'matrix'), 'matrix'),
  };
}

/** goTemplate's combination: `right` deep-merged under `left` (the first child wins), keys in the first child's order. */
function firstChildWins(left: ParamSet, right: ParamSet): ParamSet {
  const merged = overrideParamSet(right, left);
  return { ...Object.fromEntries(Object.keys(left).map((key) => [key, merged[key]])), ...merged } as ParamSet;
}
