import type { ParamSet, ParamValue } from '../model/params.js';
import { goNumber } from '../templating/plain-values.js';
import { isParamSet } from './params.js';

/**
 * Argo CD's fasttemplate parameters in the form Argo CD holds them: one flat map. Generators here build
 * nested params (the form goTemplate needs); with fasttemplate, Argo CD's generators write dotted names
 * instead (`path.basename`, `values.env`, `metadata.labels.tier`, `features.0`), and its matrix, merge and
 * selectors work on those names. Converting every leaf generator's output once, before any of them runs,
 * makes a list element's `values.env: x` override a cluster's `values.env` exactly as in Argo CD.
 *
 * A path map (`path: {path, basename, segments, …}`) collapses as Argo CD names it: `path`, `path.basename`,
 * `path[0]` (empty segments get no name). Lists flatten as `name.0`; empty maps and lists give no names.
 */
export function toFasttemplateParams(set: ParamSet): ParamSet {
  const out: Record<string, ParamValue> = {};
  for (const [key, value] of Object.entries(set)) flattenInto(out, key, key, value);
  return out;
}

function isList(value: ParamValue | undefined): value is readonly ParamValue[] {
  return Array.isArray(value);
}

function flattenInto(out: Record<string, ParamValue>, name: string, key: string, value: ParamValue): void {
  if (isList(value)) {
    value.forEach((item, i) => flattenInto(out, `${name}.${i}`, String(i), item));
  } else if (isParamSet(value)) {
    if (key === 'path' && typeof value.path === 'string') {
      flattenPathParams(out, name, value);
      return;
    }
    for (const [sub, item] of Object.entries(value)) flattenInto(out, `${name}.${sub}`, sub, item);
  } else {
    out[name] = value;
  }
}

/** `path: {path, basename, segments, …}` as Argo CD's flat names: `path`, `path.basename`, `path[N]`. */
function flattenPathParams(out: Record<string, ParamValue>, name: string, params: ParamSet): void {
  out[name] = params.path ?? '';
  for (const [sub, item] of Object.entries(params)) {
    if (sub === 'path') continue;
    if (sub === 'segments' && isList(item)) {
      item.forEach((segment, i) => {
        if (segment !== '') out[`${name}[${i}]`] = segment;
      });
    } else {
      flattenInto(out, `${name}.${sub}`, sub, item);
    }
  }
}

/**
 * A git file's data as Argo CD's fasttemplate sees it: flattened to dotted names (`features.0`, `db.host`)
 * with every value printed as Go's `%v` prints what JSON decoding gave (`<nil>`, `true`, `2.5e+06`).
 */
export function fileParamsAsFasttemplate(set: ParamSet): ParamSet {
  const flat = toFasttemplateLeaves(set);
  return Object.fromEntries(Object.entries(flat).map(([name, value]) => [name, goValueText(value)]));
}

/** A value that is neither a list nor a map. */
type Scalar = string | number | boolean | null;

/** Plain dotted flattening (no path rule): file data is the user's, whatever its keys are called. */
function toFasttemplateLeaves(set: ParamSet): Record<string, Scalar> {
  const out: Record<string, Scalar> = {};
  const visit = (name: string, value: ParamValue): void => {
    if (isList(value)) value.forEach((item, i) => visit(`${name}.${i}`, item));
    else if (isParamSet(value)) for (const [key, item] of Object.entries(value)) visit(`${name}.${key}`, item);
    else out[name] = value;
  };
  for (const [key, value] of Object.entries(set)) visit(key, value);
  return out;
}

/** Go's `%v` of a decoded JSON scalar: numbers are float64 there. */
function goValueText(value: Scalar): string {
  if (value === null) return '<nil>';
  if (typeof value === 'number') return goNumber(value);
  return String(value);
}
