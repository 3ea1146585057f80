/** Plain-data helpers shared by the lookups, the helpers and the printer: no Handlebars here. */

/** A parameter that was referenced but does not exist; carried as a value so guards (`default`, `if`) can test it. */
export class MissingValue {
  constructor(
    /** The reference as the user wrote it, e.g. `.path.basename`. */
    readonly reference: string,
  ) {}
}

/**
 * A Go value with methods rather than a map (sprig's `semver` Version): printed by its String method,
 * its zero-argument methods read like fields (`.Major`), encoded to JSON as Go would.
 */
export abstract class GoObject {
  /** Go's `%T`, e.g. `*semver.Version`. */
  abstract readonly goType: string;
  /** What fmt prints (the String method). */
  abstract goString(): string;
  /** The value of a zero-argument method or exported field, or undefined if there is none. */
  abstract goField(name: string): unknown;
  /** The value json.Marshal would encode. */
  abstract goJson(): unknown;
}

/** Maps made by template functions during a render; only these may be changed in place (`set`, `merge`). */
const CREATED = new WeakSet<object>();

/** Records that `map` was made by a template function, so later functions may change it in place. */
export function markCreated<T extends object>(map: T): T {
  CREATED.add(map);
  return map;
}

/** True if `map` was made by a template function (not a parameter, which must never change). */
export function isCreated(map: object): boolean {
  return CREATED.has(map);
}

/** Empty lists that are Go nil slices (`rest` of an empty list...): printed as `[]`, but JSON `null`. */
const NIL_SLICES = new WeakSet<unknown[]>();

/** A new empty list standing for a Go nil slice. */
export function nilSlice<T>(): T[] {
  const list: T[] = [];
  NIL_SLICES.add(list);
  return list;
}

/** True if `list` stands for a Go nil slice. */
export function isNilSlice(list: unknown): boolean {
  return Array.isArray(list) && list.length === 0 && NIL_SLICES.has(list);
}

/** Names that reach JavaScript's object machinery instead of data; refused wherever a name is looked up. */
const FORBIDDEN_NAMES = new Set(['__proto__', 'constructor', 'prototype', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);

/** True if `name` would reach the prototype chain rather than parameter data. */
export function isForbiddenName(name: string): boolean {
  return FORBIDDEN_NAMES.has(name);
}

/** A JSON object (a parameter map), as opposed to an array, a scalar or null. */
export function isPlainMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof MissingValue) && !(value instanceof GoObject);
}

/** Own-property read of a map key; undefined when absent, never reaching the prototype. */
export function ownValue(map: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

/** Go's truthiness (text/template `if`): false, 0, "", nil, empty list or map are false. */
export function goTruthy(value: unknown): boolean {
  if (value === undefined || value === null || value instanceof MissingValue) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof GoObject) return true;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}

/** Formats a float the way Go's `%v` does (strconv 'g', shortest: `1e+06`, `1.5e-05`, `123456`). */
export function goNumber(value: number): string {
  if (Object.is(value, -0)) return '-0';
  if (value === 0 || (Number.isInteger(value) && Math.abs(value) < 1e6)) return String(value);
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? '+Inf' : '-Inf';
  const exponent = Math.floor(Math.log10(Math.abs(value)));
  if (exponent < -4 || exponent >= 6) {
    const [mantissa = '0', exp = '0'] = value.toExponential().split('e');
    const expNumber = Number(exp);
    const sign = expNumber < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(expNumber)).padStart(2, '0')}`;
  }
  return String(value);
}

/** Formats any parameter value as Go's `fmt` `%v` prints it in a template (`[a b]`, `map[k:v]`). */
export function goFormat(value: unknown): string {
  if (value === undefined || value === null || value instanceof MissingValue) return '<no value>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map((v) => goFormatNested(v)).join(' ')}]`;
  if (value instanceof GoObject) return value.goString();
  if (isPlainMap(value)) {
    const keys = Object.keys(value).sort();
    return `map[${keys.map((k) => `${k}:${goFormatNested(value[k])}`).join(' ')}]`;
  }
  return typeof value === 'bigint' ? value.toString() : Object.prototype.toString.call(value);
}

/** Inside a list or map Go prints nil as `<nil>`, not `<no value>`. */
function goFormatNested(value: unknown): string {
  return value === null || value === undefined ? '<nil>' : goFormat(value);
}

/** sprig's `toString`/strval: strings as they are, nil as empty, everything else as `%v`. */
export function stringValue(value: unknown): string {
  if (value === undefined || value === null || value instanceof MissingValue) return '';
  return goFormat(value);
}
