import { parseYaml11 as parseYaml11Text } from '../model/yaml11.js';
import { TemplateProblem } from './template-problem.js';
import { goQuote, intArg } from './functions-text.js';
import { goFormat, GoObject, goTruthy, isForbiddenName, isNilSlice, isPlainMap, markCreated, MissingValue, ownValue, stringValue } from './plain-values.js';
import { goCompareStrings } from './go-strings.js';
import { goSplitN } from './functions-strings.js';
import { GoYamlError } from './go-yaml-decode.js';
import { goYamlMarshal } from './go-yaml-emit.js';

/** Data, list, comparison and formatting functions (sprig and Go builtins). Pure and bounded. */

/** sprig `empty`: nil, "", 0, false, empty list or map. */
export function isEmpty(value: unknown): boolean {
  return !goTruthy(value);
}

/** A value json.Marshal refuses (NaN, infinities): sprig's toJson prints "" for it, the must* forms fail. */
export class JsonError extends TemplateProblem {}

/** Go's encoding of a JSON string: `<`, `>`, `&` escaped unless raw, U+2028/U+2029 always escaped. */
function jsonString(text: string, htmlEscape: boolean): string {
  const json = JSON.stringify(text)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return htmlEscape ? json.replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026') : json;
}

/** One value as json.Marshal (or MarshalIndent with `indent`) writes it: map keys in Go's order. */
function writeJson(value: unknown, indent: string, prefix: string, htmlEscape: boolean): string {
  if (value === null || value === undefined || value instanceof MissingValue || isNilSlice(value)) return 'null';
  if (typeof value === 'string') return jsonString(value, htmlEscape);
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new JsonError(`json: unsupported value: ${goFormat(value)}`);
    return Object.is(value, -0) ? '-0' : JSON.stringify(value);
  }
  if (value instanceof GoObject) return writeJson(value.goJson(), indent, prefix, htmlEscape);
  const inner = prefix + indent;
  const [open, sep, close] = indent ? [`\n${inner}`, `,\n${inner}`, `\n${prefix}`] : ['', ',', ''];
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[${open}${value.map((v) => writeJson(v, indent, inner, htmlEscape)).join(sep)}${close}]`;
  }
  if (isPlainMap(value)) {
    const keys = Object.keys(value).sort(goCompareStrings);
    if (keys.length === 0) return '{}';
    const colon = indent ? ': ' : ':';
    return `{${open}${keys.map((k) => jsonString(k, htmlEscape) + colon + writeJson(value[k], indent, inner, htmlEscape)).join(sep)}${close}}`;
  }
  throw new JsonError(`json: unsupported value: ${goFormat(value)}`);
}

/** Go's json.Marshal of a value: sorted map keys, `<`, `>`, `&` escaped; `indent` as MarshalIndent. */
export function goJson(value: unknown, indent = '', htmlEscape = true): string {
  return writeJson(value, indent, '', htmlEscape);
}

/** Plain JSON data for the YAML writer: Go integers stay bigints (int64, exact), Go objects become their JSON value. */
function yamlData(value: unknown): unknown {
  if (value instanceof MissingValue || value === undefined || isNilSlice(value)) return null;
  if (value instanceof GoObject) return yamlData(value.goJson());
  if (Array.isArray(value)) return value.map(yamlData);
  if (isPlainMap(value)) return Object.fromEntries(Object.keys(value).map((k) => [k, yamlData(value[k])]));
  return value;
}

/** Argo CD's `toYaml`: sigs.k8s.io/yaml's Marshal (go-yaml v2 output) without its final line break. */
export function toYaml(value: unknown): string {
  try {
    return goYamlMarshal(yamlData(value)).replace(/\n$/, '');
  } catch (error) {
    // Argo CD's template fails with the marshaling error (a NaN, a character YAML refuses, ...).
    if (error instanceof GoYamlError) throw new TemplateProblem(`toYaml: ${error.message}`);
    throw error;
  }
}

/**
 * YAML as Argo CD's fromYaml reads it (sigs.k8s.io/yaml over go-yaml v2): YAML 1.1, so `yes`/`no`/`on`/`off`
 * are booleans and `0755` is octal; go-yaml v2 reads dates as strings and has no base-60 numbers.
 */
function parseYaml11(text: unknown, fn: string): unknown {
  try {
    // go-yaml v2 keeps the last of repeated keys.
    return parseYaml11Text(stringValue(text), { maxAliasCount: 100, uniqueKeys: false });
  } catch (error) {
    throw new TemplateProblem(`${fn}: ${(error as Error).message.split('\n')[0] ?? ''}`);
  }
}

/** Argo CD's `fromYaml`: a YAML mapping (an empty document is an empty map). */
export function fromYaml(text: unknown): unknown {
  const parsed = parseYaml11(text, 'fromYaml');
  if (parsed === undefined || parsed === null) return {};
  if (!isPlainMap(parsed)) throw new TemplateProblem('fromYaml: the document is not a mapping');
  return markCreatedDeep(parsed);
}

/** Argo CD's `fromYamlArray`: a YAML sequence; an empty or null document is an empty list. */
export function fromYamlArray(text: unknown): unknown {
  const parsed = parseYaml11(text, 'fromYamlArray');
  if (parsed === undefined || parsed === null) return [];
  if (!Array.isArray(parsed)) throw new TemplateProblem('fromYamlArray: the document is not a sequence');
  return markCreatedDeep(parsed);
}

/** Marks every map inside freshly decoded data as made by the template (see markCreated). */
export function markCreatedDeep<T>(value: T): T {
  if (Array.isArray(value)) value.forEach(markCreatedDeep);
  else if (isPlainMap(value)) {
    markCreated(value);
    Object.values(value).forEach(markCreatedDeep);
  }
  return value;
}

/** sprig `fromJson`. */
export function fromJson(text: unknown): unknown {
  try {
    return markCreatedDeep(JSON.parse(stringValue(text)) as unknown);
  } catch {
    throw new TemplateProblem(`fromJson: ${goQuote(stringValue(text))} is not valid JSON`);
  }
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

/** Go's builtin `len` (bytes for strings, like Go), a Go int. */
export function length(value: unknown): bigint {
  if (typeof value === 'string') return BigInt(Buffer.byteLength(value));
  if (Array.isArray(value)) return BigInt(value.length);
  if (isPlainMap(value)) return BigInt(Object.keys(value).length);
  throw new TemplateProblem(`len: ${goFormat(value)} has no length`);
}

/** A value with its Go type, for comparison errors (`float64 7`, `int 7`). */
function typed(value: unknown): string {
  const type =
    typeof value === 'number' ? 'float64' : typeof value === 'bigint' ? 'int' : typeof value === 'string' ? 'string' : typeof value === 'boolean' ? 'bool' : '';
  return type ? `${type} ${type === 'string' ? goQuote(value as string) : goFormat(value)}` : goFormat(value);
}

/** Go's `eq a b...`: true if a equals any of the others; values of different kinds are an error. */
export function eq(first: unknown, ...others: unknown[]): boolean {
  return others.some((other) => {
    if (first === null || first === undefined || other === null || other === undefined) return first === other;
    if (typeof first !== typeof other) throw new TemplateProblem(`eq: incompatible types for comparison: ${typed(first)} and ${typed(other)}`);
    return first === other;
  });
}

/** Go's ordered comparisons (`lt`, `le`, `gt`, `ge`) over numbers or strings. */
export function compare(a: unknown, b: unknown, fn: string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  throw new TemplateProblem(`${fn}: incompatible types for comparison: ${typed(a)} and ${typed(b)}`);
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
        return typeof v === 'bigint' ? v.toString() : typeof v === 'number' ? String(Math.trunc(v)) : `%!d(${goFormat(v)})`;
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
  const out: Record<string, unknown> = markCreated({});
  for (let i = 0; i < pairs.length; i += 2) {
    const key = stringValue(pairs[i]);
    if (isForbiddenName(key)) throw new TemplateProblem(`dict: the key '${key}' is not allowed`);
    // A key without a value gets "", as in sprig; a nil value stays nil.
    out[key] = i + 1 < pairs.length ? (pairs[i + 1] instanceof MissingValue ? null : pairs[i + 1]) : '';
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
  const parts = goSplitN(stringValue(value), stringValue(separator), -1);
  return markCreated(Object.fromEntries(parts.map((p, i) => [`_${i}`, p])));
}
