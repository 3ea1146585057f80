import { TemplateProblem } from './template-problem.js';
import { goDeepEqual } from './functions-lists.js';
import { fn, type FunctionTable } from './template-function.js';
import { GoObject, isPlainMap, MissingValue, stringValue } from './plain-values.js';

/**
 * sprig's reflection functions. Strings, numbers (float64), booleans and nil have one Go type here, but an
 * integer may be Go's int or int64, a list `[]interface {}`, `[]string` or `[]int`, and a map
 * `map[string]interface {}` or `map[string]string`, depending on what produced it in Argo CD. An answer
 * that depends on which is refused with an error rather than guessed.
 */

/** The Go type names a value may have: one when it is known, several when it is not. */
function typeCandidates(value: unknown): { names: string[]; prefix?: string } {
  if (value === null || value === undefined || value instanceof MissingValue) return { names: ['<nil>'] };
  if (typeof value === 'string') return { names: ['string'] };
  if (typeof value === 'number') return { names: ['float64'] };
  if (typeof value === 'boolean') return { names: ['bool'] };
  if (typeof value === 'bigint') return { names: ['int', 'int64'] };
  if (value instanceof GoObject) return { names: [value.goType] };
  if (Array.isArray(value)) return { names: [], prefix: '[]' };
  if (isPlainMap(value)) return { names: [], prefix: 'map[' };
  return { names: [typeof value] };
}

function ambiguous(fn: string, value: unknown): TemplateProblem {
  const what =
    typeof value === 'bigint'
      ? `the integer ${value} (Go's int or int64)`
      : Array.isArray(value)
        ? 'a list (its Go element type)'
        : 'a map (its Go value type)';
  return new TemplateProblem(`${fn}: cannot tell the Go type of ${what}; this renderer does not track it, so it refuses to guess`);
}

/** sprig `typeOf` (Go's %T). */
function typeOf(value: unknown): string {
  const { names } = typeCandidates(value);
  if (names.length !== 1) throw ambiguous('typeOf', value);
  return names[0] ?? '';
}

/** sprig `typeIs`/`typeIsLike`: false when no possible type matches, an error when only some do. */
function typeMatches(fn: string, targets: string[], value: unknown): boolean {
  const { names, prefix } = typeCandidates(value);
  const hits = targets.filter((t) => names.includes(t) || (prefix !== undefined && t.startsWith(prefix)));
  if (hits.length === 0) return false;
  if (names.length === 1) return true;
  throw ambiguous(fn, value);
}

/** reflect's Kind names a value may have. */
function kindCandidates(value: unknown): string[] {
  if (value === null || value === undefined || value instanceof MissingValue) return ['invalid'];
  if (typeof value === 'bigint') return ['int', 'int64'];
  if (typeof value === 'number') return ['float64'];
  if (Array.isArray(value)) return ['slice'];
  if (value instanceof GoObject) return [value.goType.startsWith('*') ? 'ptr' : 'struct'];
  if (isPlainMap(value)) return ['map'];
  return [typeof value === 'boolean' ? 'bool' : typeof value];
}

/** sprig `kindOf`. */
function kindOf(value: unknown): string {
  const kinds = kindCandidates(value);
  if (kinds.length !== 1) throw ambiguous('kindOf', value);
  return kinds[0] ?? '';
}

/** sprig `kindIs`. */
function kindIs(target: unknown, value: unknown): boolean {
  const kinds = kindCandidates(value);
  if (!kinds.includes(stringValue(target))) return false;
  if (kinds.length === 1) return true;
  throw ambiguous('kindIs', value);
}

/** True if the Go type of equal-looking values could still differ (integers, lists, maps inside). */
function typeUncertain(value: unknown): boolean {
  if (typeof value === 'bigint' || Array.isArray(value)) return true;
  return isPlainMap(value);
}

/** reflect.DeepEqual: unequal contents are never equal; equal ones are refused when their Go types could differ. */
function deepEqual(a: unknown, b: unknown): boolean {
  if (!goDeepEqual(a, b)) return false;
  if (a !== b && typeUncertain(a)) throw ambiguous('deepEqual', a);
  return true;
}

/** The reflection functions by name. */
export const TYPE_FUNCTIONS: FunctionTable = {
  typeOf: fn(typeOf),
  typeIs: fn((target, value) => typeMatches('typeIs', [stringValue(target)], value)),
  typeIsLike: fn((target, value) => typeMatches('typeIsLike', [stringValue(target), `*${stringValue(target)}`], value)),
  kindOf: fn(kindOf),
  kindIs: fn(kindIs),
  deepEqual: fn(deepEqual),
};
