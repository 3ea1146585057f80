/** Plain-data helpers shared by the lookups, the helpers and the printer: no Handlebars here. */

/** A parameter that was referenced but does not exist; carried as a value so guards (`default`, `if`) can test it. */
export class MissingValue {
  constructor(
    /** The reference as the user wrote it, e.g. `.path.basename`. */
    readonly reference: string,
  ) {}
}

/** Names that reach JavaScript's object machinery instead of data; refused wherever a name is looked up. */
const FORBIDDEN_NAMES = new Set(['__proto__', 'constructor', 'prototype', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);

/** True if `name` would reach the prototype chain rather than parameter data. */
export function isForbiddenName(name: string): boolean {
  return FORBIDDEN_NAMES.has(name);
}

/** A JSON object (a parameter map), as opposed to an array, a scalar or null. */
export function isPlainMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof MissingValue);
}

/** Own-property read of a map key; undefined when absent, never reaching the prototype. */
export function ownValue(map: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

/** Go's truthiness (text/template `if`): false, 0, "", nil, empty list or map are false. */
export function goTruthy(value: unknown): boolean {
  if (value === undefined || value === null || value instanceof MissingValue) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}

/** Formats a float the way Go's `%v` does (strconv 'g', shortest: `1e+06`, `1.5e-05`, `123456`). */
export function goNumber(value: number): string {
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
