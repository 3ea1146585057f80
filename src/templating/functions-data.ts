import yaml from 'js-yaml';
import { TemplateProblem } from './template-problem.js';
import { goQuote, intArg } from './functions-text.js';
import { goFormat, goTruthy, isForbiddenName, isPlainMap, MissingValue, ownValue, stringValue } from './plain-values.js';

/** Data, list, comparison and formatting functions (sprig and Go builtins). Pure and bounded. */

/** sprig `empty`: nil, "", 0, false, empty list or map. */
export function isEmpty(value: unknown): boolean {
  return !goTruthy(value);
}

/** Go's json.Marshal of a value: sorted map keys, `<`, `>`, `&` escaped; `indent` as MarshalIndent. */
export function goJson(value: unknown, indent = '', htmlEscape = true): string {
  const sorted = sortKeys(value);
  const text = indent ? JSON.stringify(sorted, null, indent) : JSON.stringify(sorted);
  const json = text ?? 'null';
  return htmlEscape ? json.replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026') : json;
}

function sortKeys(value: unknown): unknown {
  if (value instanceof MissingValue || value === undefined) return null;
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isPlainMap(value))
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys(value[k])]),
    );
  return value;
}

/** Argo CD's `toYaml`: YAML with sorted keys and no trailing newline. */
export function toYaml(value: unknown): string {
  return yaml.dump(sortKeys(value), { sortKeys: true, lineWidth: -1, noRefs: true }).replace(/\n$/, '');
}

/** Argo CD's `fromYaml`: a YAML mapping (JSON-compatible schema only: no custom tags). */
export function fromYaml(text: unknown): unknown {
  const parsed = yaml.load(stringValue(text), { schema: yaml.JSON_SCHEMA });
  if (parsed === undefined || parsed === null) return {};
  if (!isPlainMap(parsed)) throw new TemplateProblem('fromYaml: the document is not a mapping');
  return parsed;
}

/** sprig `fromJson`. */
export function fromJson(text: unknown): unknown {
  try {
    return JSON.parse(stringValue(text)) as unknown;
  } catch {
    throw new TemplateProblem(`fromJson: ${goQuote(stringValue(text))} is not valid JSON`);
  }
}

/** The elements of a list argument (sprig's strslice/list coercion). */
export function listOf(value: unknown, fn: string): unknown[] {
  if (value === undefined || value === null || value instanceof MissingValue) return [];
  if (Array.isArray(value)) return value as unknown[];
  if (typeof value === 'string') return [value];
  throw new TemplateProblem(`${fn}: expected a list, got ${goFormat(value)}`);
}

/** Go's builtin `index coll key...`: map keys and list positions, missing map keys give nil. */
export function index(collection: unknown, ...keys: unknown[]): unknown {
  let current = collection;
  for (const key of keys) {
    if (current instanceof MissingValue) return current;
    if (Array.isArray(current)) {
      const i = intArg(key, 'index');
      if (i < 0 || i >= current.length) throw new TemplateProblem(`index: position ${i} is out of range (the list has ${current.length} elements)`);
      current = current[i] as unknown;
    } else if (isPlainMap(current)) {
      const name = stringValue(key);
      if (isForbiddenName(name)) throw new TemplateProblem(`index: access to '${name}' is not allowed`);
      current = Object.hasOwn(current, name) ? current[name] : new MissingValue(`index ... ${goQuote(name)}`);
    } else if (current === null || current === undefined) {
      throw new TemplateProblem(`index: cannot index nil with ${goQuote(stringValue(key))}`);
    } else throw new TemplateProblem(`index: cannot index ${goFormat(current)} with ${goQuote(stringValue(key))}`);
  }
  return current;
}

/** Go's builtin `len` (bytes for strings, like Go). */
export function length(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (Array.isArray(value)) return value.length;
  if (isPlainMap(value)) return Object.keys(value).length;
  throw new TemplateProblem(`len: ${goFormat(value)} has no length`);
}

/** Go's `eq a b...`: true if a equals any of the others; values of different kinds are an error. */
export function eq(first: unknown, ...others: unknown[]): boolean {
  return others.some((other) => {
    if (first === null || first === undefined || other === null || other === undefined) return first === other;
    if (typeof first !== typeof other) throw new TemplateProblem(`eq: incompatible types for comparison: ${goFormat(first)} and ${goFormat(other)}`);
    return first === other;
  });
}

/** Go's ordered comparisons (`lt`, `le`, `gt`, `ge`) over numbers or strings. */
export function compare(a: unknown, b: unknown, fn: string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  throw new TemplateProblem(`${fn}: incompatible types for comparison: ${goFormat(a)} and ${goFormat(b)}`);
}

/** Go's `print` (fmt.Sprint): a space between operands when neither is a string. */
export function goSprint(...values: unknown[]): string {
  let out = '';
  values.forEach((v, i) => {
    if (i > 0 && typeof v !== 'string' && typeof values[i - 1] !== 'string') out += ' ';
    out += goFormat(v);
  });
  return out;
}

/** Go's `printf` for the verbs manifests use: %s %v %d %q %t %f %%. */
export function goSprintf(format: unknown, ...values: unknown[]): string {
  let next = 0;
  return stringValue(format).replace(/%([-+# 0]*\d*(?:\.\d+)?)([a-zA-Z%])/g, (whole, _flags: string, verb: string) => {
    if (verb === '%') return '%';
    if (next >= values.length) return `%!${verb}(MISSING)`;
    const v = values[next++];
    switch (verb) {
      case 's':
      case 'v':
        return goFormat(v);
      case 'd':
        return typeof v === 'number' ? String(Math.trunc(v)) : `%!d(${goFormat(v)})`;
      case 'q':
        return goQuote(stringValue(v));
      case 't':
        return typeof v === 'boolean' ? String(v) : `%!t(${goFormat(v)})`;
      case 'f':
        return typeof v === 'number' ? v.toFixed(6) : `%!f(${goFormat(v)})`;
      default:
        throw new TemplateProblem(`printf: the verb '${whole}' is not supported`);
    }
  });
}

/** sprig `dict k v ...`. */
export function dict(...pairs: unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < pairs.length; i += 2) {
    const key = stringValue(pairs[i]);
    if (isForbiddenName(key)) throw new TemplateProblem(`dict: the key '${key}' is not allowed`);
    out[key] = pairs[i + 1] ?? '';
  }
  return out;
}

/** sprig `get map key`: the value or "". */
export function get(map: unknown, key: unknown): unknown {
  if (!isPlainMap(map)) return '';
  return ownValue(map, stringValue(key)) ?? '';
}

/** sprig `split sep s`: a map `_0`, `_1`, ... of the parts. */
export function split(separator: unknown, value: unknown): Record<string, string> {
  const parts = stringValue(value).split(stringValue(separator));
  return Object.fromEntries(parts.map((p, i) => [`_${i}`, p]));
}

/** A number argument for arithmetic (sprig's toInt64 accepts numeric strings). */
export function num(value: unknown, fn: string): number {
  return intArg(value, fn);
}
