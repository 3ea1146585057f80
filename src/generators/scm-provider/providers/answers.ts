// Reading provider answers, which are untyped JSON: a missing field reads as empty, a body of the wrong
// shape is an API error naming where it came from.
import type { ApiResponse } from '../../../scm/http/api-client.js';
import { ScmApiError } from '../../../scm/http/errors.js';

/** One JSON object of an answer. */
export type AnswerObject = Readonly<Record<string, unknown>>;

/** The answer's body as a list of objects (anything in it that is not an object is skipped, as the SDKs' decoders do). */
export function listOf(response: ApiResponse, body: unknown = response.body): AnswerObject[] {
  if (!Array.isArray(body)) throw malformed(response, 'a JSON list');
  return body.filter(isAnswerObject);
}

/** The list under `key` of an object answer (`values` on Bitbucket, `value` on Azure DevOps). */
export function listUnder(response: ApiResponse, key: string): AnswerObject[] {
  return listOf(response, objectOf(response)[key]);
}

/** The answer's body as one object. */
export function objectOf(response: ApiResponse): AnswerObject {
  if (!isAnswerObject(response.body)) throw malformed(response, 'a JSON object');
  return response.body;
}

/** The value at a path of keys, undefined where the path breaks. */
export function valueAt(object: AnswerObject, ...keys: string[]): unknown {
  let value: unknown = object;
  for (const key of keys) value = isAnswerObject(value) ? value[key] : undefined;
  return value;
}

/** The string at a path of keys, '' when absent or not a string. */
export function stringAt(object: AnswerObject, ...keys: string[]): string {
  const value = valueAt(object, ...keys);
  return typeof value === 'string' ? value : '';
}

/** The objects of the list at a path of keys (absent = none). */
export function objectsAt(object: AnswerObject, ...keys: string[]): AnswerObject[] {
  const value = valueAt(object, ...keys);
  return Array.isArray(value) ? (value as unknown[]).filter(isAnswerObject) : [];
}

/** The strings of the list at `key` (absent = none). */
export function stringsAt(object: AnswerObject, key: string): string[] {
  const value = object[key];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** A repository id as the provider gives it: a number on most, a string (UUID) on some. */
export function idAt(object: AnswerObject, key: string): string | number | undefined {
  const value = object[key];
  return typeof value === 'number' || typeof value === 'string' ? value : undefined;
}

/** True for a JSON object (not a list, not null). */
export function isAnswerObject(value: unknown): value is AnswerObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The error for an answer let through by `allowStatus` that turns out to be a failure after all. */
export function failedAnswer(response: ApiResponse, providerMessage: string | undefined): ScmApiError {
  const url = new URL(response.url);
  const detail = providerMessage ? `: ${providerMessage}` : '';
  return new ScmApiError(`GET ${url.host}${url.pathname} answered ${response.status}${detail}`, response.status, providerMessage);
}

function malformed(response: ApiResponse, expected: string): ScmApiError {
  const url = new URL(response.url);
  return new ScmApiError(`GET ${url.host}${url.pathname} answered ${response.status} with something other than ${expected}`, response.status);
}
