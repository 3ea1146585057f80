import type { ParamSet, ParamValue } from '../model/params.js';
import { GeneratorSpecError, isObject } from './spec-reading.js';
import { goTypedValue, isGoTyped } from './go-typed.js';
import { goFormat, goNumber } from '../templating/plain-values.js';

/** Deepest nesting of parameters accepted: real configuration is shallow, and a bound keeps recursion (and field names) small. */
export const MAX_PARAM_DEPTH = 100;

/**
 * Checks that data read from a spec or a file is plain JSON-like data and returns it as a param
 * value; anything else (a Date, a function, a non-finite number, nesting beyond MAX_PARAM_DEPTH) is
 * refused with the field named.
 */
export function toParamValue(value: unknown, field: string, depth = 0): ParamValue {
  if (depth > MAX_PARAM_DEPTH) throw new GeneratorSpecError(field, `parameters are nested deeper than ${MAX_PARAM_DEPTH} levels`);
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new GeneratorSpecError(field, 'numbers must be finite');
    return value;
  }
  if (Array.isArray(value)) return value.map((v, i) => toParamValue(v, `${field}[${i}]`, depth + 1));
  if (isObject(value) && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toParamValue(v, `${field}.${k}`, depth + 1)]));
  }
  throw new GeneratorSpecError(field, `is not plain data (${Object.prototype.toString.call(value)})`);
}

/** `value` as a param set (an object), or a spec error naming `field`. */
export function toParamSet(value: unknown, field: string): ParamSet {
  const converted = value === undefined ? {} : toParamValue(value, field);
  if (!isParamSet(converted)) throw new GeneratorSpecError(field, 'must be an object of parameters');
  return converted;
}

/** True for a nested object of params. */
export function isParamSet(value: ParamValue | undefined): value is ParamSet {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at a dotted path (`path.basename`), or undefined. */
export function paramAt(params: ParamSet, dotted: string): ParamValue | undefined {
  let current: ParamValue | undefined = params;
  for (const key of dotted.split('.')) {
    if (!isParamSet(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

/**
 * Flattens params to `dotted.key → string` (arrays as `key.0`), the label view a post-selector
 * matches against, as Argo CD flattens params for `selector`: values printed as Go's `%v` (`<nil>`,
 * `2.5e+06`), and a typed Go map or list ({@link isGoTyped}) kept whole (`map[env:prod]`).
 */
export function flattenParams(params: ParamValue, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  if (prefix !== '' && isGoTyped(params)) {
    out[prefix] = goFormat(params);
  } else if (Array.isArray(params)) {
    params.forEach((v: ParamValue, i) => flattenParams(v, prefix === '' ? String(i) : `${prefix}.${i}`, out));
  } else if (isParamSet(params)) {
    for (const [key, value] of Object.entries(params)) flattenParams(value, prefix === '' ? key : `${prefix}.${key}`, out);
  } else if (prefix !== '' && typeof params === 'number') {
    out[prefix] = goNumber(params);
  } else if (prefix !== '' && typeof params === 'boolean') {
    out[prefix] = String(params);
  } else if (prefix !== '' && typeof params === 'string') {
    out[prefix] = params;
  } else if (prefix !== '' && params === null) {
    out[prefix] = '<nil>';
  }
  return out;
}

/**
 * Combines two param sets for a matrix: nested objects merge; the same leaf in both must have the
 * same value, otherwise it is an error naming the key (Argo CD's fasttemplate rule; silently
 * preferring one side would produce Applications nobody asked for). Use `pathParamPrefix` to keep
 * two Git generators' `path` apart.
 */
export function combineParamSets(a: ParamSet, b: ParamSet, prefix = ''): ParamSet {
  const out: Record<string, ParamValue> = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const name = prefix === '' ? key : `${prefix}.${key}`;
    const existing = out[key];
    if (existing === undefined || !Object.hasOwn(out, key)) out[key] = value;
    else if (isParamSet(existing) && isParamSet(value)) out[key] = combineParamSets(existing, value, name);
    else if (JSON.stringify(existing) !== JSON.stringify(value)) {
      throw new GeneratorSpecError(
        'matrix',
        `both generators set parameter "${name}" to different values (${JSON.stringify(existing)} and ${JSON.stringify(value)}); use pathParamPrefix or rename one`,
      );
    }
  }
  return out;
}

/** Deep merge where `override` wins on every leaf it sets (Argo CD's merge generator). */
export function overrideParamSet(base: ParamSet, override: ParamSet): ParamSet {
  const out: Record<string, ParamValue> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const existing = out[key];
    // Merged into a typed Go map, the result stays one (mergo writes into the existing map).
    out[key] = isParamSet(existing) && isParamSet(value) ? keepGoTyped(existing, overrideParamSet(existing, value)) : value;
  }
  return out;
}

function keepGoTyped(from: ParamSet, to: ParamSet): ParamSet {
  return isGoTyped(from) ? goTypedValue(to) : to;
}
