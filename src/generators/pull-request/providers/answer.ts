import { nilSlice } from '../../../templating/plain-values.js';
import type { ApiResponse } from '../../../scm/http/api-client.js';
import { ScmApiError } from '../../../scm/http/errors.js';

// Readers of the providers' JSON answers. A field that is missing or of another type reads as Go's
// zero value ('' or 0), as the SDKs' decoding leaves it; only an answer of the wrong shape is an error.

/** A JSON object as a record, or an empty one. */
export function record(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The value at `path` (`['head', 'ref']`) inside nested objects, undefined where a step is missing. */
export function at(value: unknown, ...path: readonly string[]): unknown {
  return path.reduce<unknown>((current, key) => record(current)[key], value);
}

/** The string at `path`, '' when absent. */
export function text(value: unknown, ...path: readonly string[]): string {
  const found = at(value, ...path);
  return typeof found === 'string' ? found : '';
}

/** The whole number at `path` (fractions cut, as Go's decoding into an int does), 0 when absent. */
export function whole(value: unknown, ...path: readonly string[]): number {
  const found = at(value, ...path);
  return typeof found === 'number' && Number.isFinite(found) ? Math.trunc(found) : 0;
}

/** The names of a list of label objects (`[{name: …}]`), skipping entries without one. */
export function labelNames(labels: unknown): string[] {
  return Array.isArray(labels) ? labels.flatMap((label) => (typeof record(label)['name'] === 'string' ? [record(label)['name'] as string] : [])) : [];
}

/** True when every label of `wanted` is among `present` (Argo CD's client-side label filter). */
export function hasAllLabels(wanted: readonly string[], present: readonly string[]): boolean {
  return wanted.every((label) => present.includes(label));
}

/** The page's list of entries: the body itself, or its `key` member; anything else is an error naming the URL. */
export function entries(page: ApiResponse, key?: string): readonly unknown[] {
  const list = key === undefined ? page.body : record(page.body)[key];
  if (Array.isArray(list)) return list;
  const what = key === undefined ? 'a JSON list' : `a JSON object with a "${key}" list`;
  throw new ScmApiError(`${page.url} answered ${page.status} with something other than ${what}`, page.status);
}

/**
 * `labels`, or a nil list when there are none: Argo CD's GitHub and Gitea providers build the list by appending to
 * a nil slice, so a pull request without labels has `labels` nil there (`toJson .labels` prints null, not []).
 */
export function orNil(labels: string[]): string[] {
  return labels.length === 0 ? nilSlice() : labels;
}
