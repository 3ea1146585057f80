import { TemplateProblem } from './template-problem.js';
import { isEmpty } from './functions-data.js';
import { kindName } from './functions-lists.js';
import { goCompareStrings } from './go-strings.js';
import { fn, type FunctionTable } from './template-function.js';
import { isCreated, isForbiddenName, isPlainMap, markCreated, MissingValue, stringValue } from './plain-values.js';

/**
 * sprig's dict functions. `set`, `unset`, `merge` and `mergeOverwrite` change their map in place, as Go
 * does, when the template made that map (`dict`, `fromJson`, ...). A parameter map is never changed: they
 * change a copy and return it, so the same expression renders as in Argo CD, but later references to the
 * parameter still see its original value (in Argo CD they would see the change).
 */

type Dict = Record<string, unknown>;

/** A map argument (Go's map[string]interface{}); nil is an empty map, anything else an error. */
function dictArg(value: unknown, fn: string): Dict {
  if (value === null || value === undefined || value instanceof MissingValue) return {};
  if (!isPlainMap(value)) throw new TemplateProblem(`${fn}: expected a map, got ${kindName(value)}`);
  return value;
}

/** The map itself if the template made it, else a copy that the template now owns. */
function writable(map: Dict): Dict {
  return isCreated(map) ? map : markCreated({ ...map });
}

function keyArg(key: unknown, fn: string): string {
  const name = stringValue(key);
  if (isForbiddenName(name)) throw new TemplateProblem(`${fn}: the key '${name}' is not allowed`);
  return name;
}

/**
 * mergo's Merge of one map[string]interface{} into another: a key is filled when the destination lacks it
 * or holds an empty value; maps merge recursively; with `overwrite` every source value wins, except that a
 * nested map merges into a nested map and a nil source value only replaces with overwrite.
 */
function mergeInto(dst: Dict, src: Dict, overwrite: boolean): void {
  for (const key of Object.keys(src)) {
    const s = src[key];
    const has = Object.hasOwn(dst, key);
    const d = has ? dst[key] : undefined;
    if (s === null || s === undefined || s instanceof MissingValue) {
      if (overwrite) dst[key] = null;
      continue;
    }
    if (isPlainMap(s) && isPlainMap(d)) {
      const target = writable(d);
      dst[key] = target;
      mergeInto(target, s, overwrite);
      if (!isEmpty(target)) continue;
    } else if (Array.isArray(s) && !overwrite && has && !isEmpty(d)) continue;
    if (overwrite || !has || isEmpty(d)) dst[key] = s;
  }
}

/** sprig `merge` / `mergeOverwrite dst src...`: merges each source into dst and returns dst. */
function merge(overwrite: boolean, name: string) {
  return (dst: unknown, ...sources: unknown[]): Dict => {
    const out = writable(dictArg(dst, name));
    for (const src of sources) mergeInto(out, dictArg(src, name), overwrite);
    return out;
  };
}

/** copystructure.Copy of template data: new lists and maps all the way down. */
export function deepCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(deepCopy);
  if (isPlainMap(value)) return markCreated(Object.fromEntries(Object.keys(value).map((k) => [k, deepCopy(value[k])])));
  return value instanceof MissingValue ? null : value;
}

/** sprig `deepCopy`: copystructure fails on nil. */
function copyOf(value: unknown): unknown {
  if (value === null || value === undefined || value instanceof MissingValue)
    throw new TemplateProblem('deepCopy error: reflect: call of reflect.Value.Type on zero Value');
  return deepCopy(value);
}

/** sprig `set map key value`. */
function set(map: unknown, key: unknown, value: unknown): Dict {
  if (map === null || map === undefined || map instanceof MissingValue) throw new TemplateProblem('set: assignment to entry in nil map');
  const out = writable(dictArg(map, 'set'));
  out[keyArg(key, 'set')] = value;
  return out;
}

/** sprig `unset map key`. */
function unset(map: unknown, key: unknown): Dict {
  const out = writable(dictArg(map, 'unset'));
  delete out[stringValue(key)];
  return out;
}

/** sprig `pick map key...` / `omit map key...`: a new map with only, or without, those keys. */
function select(map: unknown, keys: unknown[], keep: boolean, name: string): Dict {
  const source = dictArg(map, name);
  const wanted = new Set(keys.map(stringValue));
  return markCreated(
    Object.fromEntries(
      Object.keys(source)
        .filter((k) => wanted.has(k) === keep)
        .map((k) => [k, source[k]]),
    ),
  );
}

/** The dict functions by name. */
export const DICT_FUNCTIONS: FunctionTable = {
  set: fn(set),
  unset: fn(unset),
  pick: fn((map, ...keys) => select(map, keys, true, 'pick')),
  omit: fn((map, ...keys) => select(map, keys, false, 'omit')),
  merge: fn(merge(false, 'merge')),
  mustMerge: fn(merge(false, 'mustMerge')),
  mergeOverwrite: fn(merge(true, 'mergeOverwrite')),
  mustMergeOverwrite: fn(merge(true, 'mustMergeOverwrite')),
  // Go's map order is random; here keys come sorted, so `keys` and `values` are deterministic.
  keys: fn((...maps) => maps.flatMap((m) => Object.keys(dictArg(m, 'keys'))).sort(goCompareStrings)),
  values: fn((map) => {
    const d = dictArg(map, 'values');
    return Object.keys(d)
      .sort(goCompareStrings)
      .map((k) => d[k]);
  }),
  pluck: fn((key, ...maps) => maps.map((m) => dictArg(m, 'pluck')).flatMap((m) => (Object.hasOwn(m, stringValue(key)) ? [m[stringValue(key)]] : []))),
  hasKey: fn((map, key) => Object.hasOwn(dictArg(map, 'hasKey'), stringValue(key))),
  deepCopy: fn(copyOf),
  mustDeepCopy: fn(copyOf),
};
