import type { ParamSet } from '../model/params.js';
import type { GeneratorContext } from './generator.js';
import { goTypedValue } from './go-typed.js';

/**
 * Adds a generator's `values` to `params` as `values.<key>`, each value first interpolated with
 * `params` (so `{{name}}` in a clusters value is that cluster's name). As in Argo CD, values see
 * the generator's own params but not each other, and unknown references stay verbatim.
 */
export function withTemplatedValues(params: ParamSet, values: Readonly<Record<string, string>>, ctx: GeneratorContext): ParamSet {
  const keys = Object.keys(values);
  if (keys.length === 0) return params;
  const rendered: Record<string, string> = {};
  for (const key of keys) rendered[key] = ctx.interpolate(values[key] ?? '', params, { allowUnresolved: true });
  return { ...params, values: goTypedValue(rendered) };
}
