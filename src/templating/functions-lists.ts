import { TemplateProblem } from './template-problem.js';
import { isEmpty } from './functions-data.js';
import { intArg } from './functions-text.js';
import { toInt64 } from './go-cast.js';
import { fn, type FunctionTable } from './template-function.js';
import { GoObject, isPlainMap, MissingValue, nilSlice } from './plain-values.js';

/**
 * sprig's list functions. Each takes any Go slice and returns a new `[]interface{}`; given nil or a
 * non-list, sprig panics or (the must* forms) returns an error, and both stop Argo CD's render, so
 * here both forms throw the same error.
 */

/** reflect's Kind name of a value, for sprig's "Cannot ... on type X" messages. */
export function kindName(value: unknown): string {
  if (value === null || value === undefined || value instanceof MissingValue) return 'invalid';
  if (Array.isArray(value)) return 'slice';
  if (typeof value === 'number') return 'float64';
  if (typeof value === 'bigint') return 'int';
  if (value instanceof GoObject) return 'ptr';
  if (isPlainMap(value)) return 'map';
  return typeof value;
}

/** The elements of a list argument, or sprig's error naming the value's kind. */
function items(value: unknown, what: string): unknown[] {
  if (Array.isArray(value)) return value as unknown[];
  if (value === null || value === undefined || value instanceof MissingValue) throw new TemplateProblem(`${what}: the list is nil`);
  throw new TemplateProblem(`Cannot ${what} on type ${kindName(value)}`);
}

/** Go's reflect.DeepEqual over template values; a float64 never equals an integer. */
export function goDeepEqual(a: unknown, b: unknown): boolean {
  const nil = (v: unknown) => v === null || v === undefined || v instanceof MissingValue;
  if (nil(a) || nil(b)) return nil(a) && nil(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v: unknown, i) => goDeepEqual(v, b[i]));
  }
  if (a instanceof GoObject || b instanceof GoObject) {
    return (
      a === b ||
      (a instanceof GoObject &&
        b instanceof GoObject &&
        a.goType === b.goType &&
        a.goString() === b.goString() &&
        a.goField('Original') === b.goField('Original'))
    );
  }
  if (isPlainMap(a) || isPlainMap(b)) {
    if (!isPlainMap(a) || !isPlainMap(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && goDeepEqual(a[k], b[k]));
  }
  return a === b;
}

const contains = (list: unknown[], needle: unknown) => list.some((item) => goDeepEqual(needle, item));

/** sprig `slice list [start [end]]`: an empty list gives nil; bounds outside the list are an error. */
function slice(list: unknown, ...indices: unknown[]): unknown {
  const all = items(list, 'slice');
  if (all.length === 0) return null;
  const start = indices.length > 0 ? Number(toInt64(indices[0])) : 0;
  const end = indices.length > 1 ? Number(toInt64(indices[1])) : all.length;
  if (start < 0 || end > all.length || start > end) throw new TemplateProblem(`slice: index out of range [${start}:${end}] with length ${all.length}`);
  return all.slice(start, end);
}

/** sprig `chunk size list`: lists of `size` elements, the last one shorter. */
function chunk(size: unknown, list: unknown): unknown[][] {
  const all = items(list, 'chunk');
  const n = intArg(size, 'chunk');
  if (n <= 0) throw new TemplateProblem(`chunk: the size must be positive, not ${n}`);
  const out: unknown[][] = [];
  for (let i = 0; i < all.length; i += n) out.push(all.slice(i, i + n));
  return out;
}

/** sprig `concat list...`: the elements of every list; nil when there are none. */
function concat(...lists: unknown[]): unknown[] {
  const out = lists.flatMap((list) => items(list, 'concat'));
  return out.length === 0 ? nilSlice() : out;
}

/** sprig `dig key... default map`: walks nested maps by string keys; the default for a missing key. */
function dig(...args: unknown[]): unknown {
  if (args.length < 3) throw new TemplateProblem('dig needs at least three arguments');
  const keys = args.slice(0, -2);
  const fallback = args[args.length - 2];
  let current = args[args.length - 1];
  for (const key of keys) {
    if (typeof key !== 'string') throw new TemplateProblem(`dig: the key ${kindName(key)} is not a string`);
    if (!isPlainMap(current)) throw new TemplateProblem(`dig: ${kindName(current)} is not a map[string]interface {}`);
    if (!Object.hasOwn(current, key)) return fallback;
    current = current[key];
  }
  return current;
}

const listTable = (name: string, f: (...args: unknown[]) => unknown): FunctionTable => {
  const must = `must${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`;
  return { [name]: fn(f), [must]: fn(f) };
};

/** The list functions by name (each with its must* twin where sprig has one). */
export const LIST_FUNCTIONS: FunctionTable = {
  tuple: fn((...values) => values),
  ...listTable('append', (list, v) => [...items(list, 'push'), v]),
  ...listTable('push', (list, v) => [...items(list, 'push'), v]),
  ...listTable('prepend', (list, v) => [v, ...items(list, 'prepend')]),
  ...listTable('first', (list) => items(list, 'find first')[0] ?? null),
  ...listTable('last', (list) => items(list, 'find last').at(-1) ?? null),
  ...listTable('rest', (list) => (items(list, 'find rest').length === 0 ? nilSlice() : items(list, 'find rest').slice(1))),
  ...listTable('initial', (list) => (items(list, 'find initial').length === 0 ? nilSlice() : items(list, 'find initial').slice(0, -1))),
  ...listTable('reverse', (list) => [...items(list, 'find reverse')].reverse()),
  ...listTable('uniq', uniq),
  ...listTable('without', (list, ...omit) => items(list, 'find without').filter((v) => !contains(omit, v))),
  ...listTable('compact', (list) => items(list, 'compact').filter((v) => !isEmpty(v))),
  ...listTable('slice', slice),
  ...listTable('chunk', chunk),
  has: fn(hasNeedle),
  mustHas: fn(hasNeedle),
  concat: fn(concat),
  dig: fn(dig),
};

/** sprig `has needle list`: a nil list has nothing. */
function hasNeedle(needle: unknown, haystack: unknown): boolean {
  if (haystack === null || haystack === undefined || haystack instanceof MissingValue) return false;
  return contains(items(haystack, 'find has'), needle);
}

/** sprig `uniq`: the first of each group of deeply equal elements, in order. */
function uniq(list: unknown): unknown[] {
  const out: unknown[] = [];
  for (const v of items(list, 'find uniq')) if (!contains(out, v)) out.push(v);
  return out;
}
