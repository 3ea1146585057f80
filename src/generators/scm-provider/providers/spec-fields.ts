// Reading the parts every provider spec shares: the set of known fields, Secret and ConfigMap references,
// API URLs and booleans with a default of true.
import type { ConfigMapKeyRef, SecretKeyRef } from '../../../scm/provider.js';
import { GeneratorSpecError, readBoolean, readObject, readOptionalString, readString, type JsonObject } from '../../spec-reading.js';

/** The provider's object; a field it does not know is an error, since a misspelt one would silently change what is listed. */
export function readKnownFields(raw: unknown, field: string, known: readonly string[]): JsonObject {
  const object = readObject(raw, field);
  for (const key of Object.keys(object)) {
    if (!known.includes(key)) throw new GeneratorSpecError(`${field}.${key}`, `is not a known field (known: ${known.join(', ')})`);
  }
  return object;
}

/** A required `{secretName, key}` reference. */
export function readSecretRef(value: unknown, field: string): SecretKeyRef {
  const object = readKnownFields(value, field, ['secretName', 'key']);
  return { secretName: readString(object['secretName'], `${field}.secretName`), key: readString(object['key'], `${field}.key`) };
}

/** An optional `{secretName, key}` reference (absent or null = undefined). */
export function readOptionalSecretRef(value: unknown, field: string): SecretKeyRef | undefined {
  return value === undefined || value === null ? undefined : readSecretRef(value, field);
}

/** An optional `{configMapName, key}` reference. */
export function readOptionalConfigMapRef(value: unknown, field: string): ConfigMapKeyRef | undefined {
  if (value === undefined || value === null) return undefined;
  const object = readKnownFields(value, field, ['configMapName', 'key']);
  return { configMapName: readString(object['configMapName'], `${field}.configMapName`), key: readString(object['key'], `${field}.key`) };
}

/** An optional http(s) URL as written ('' when absent); anything else would only fail later, at every reconcile. */
export function readOptionalApiUrl(value: unknown, field: string): string {
  const text = readOptionalString(value, field);
  if (text !== '') checkApiUrl(text, field);
  return text;
}

/** A required http(s) URL, as written. */
export function readApiUrl(value: unknown, field: string): string {
  return checkApiUrl(readString(value, field), field);
}

function checkApiUrl(text: string, field: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new GeneratorSpecError(field, `must be an absolute http or https URL, got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new GeneratorSpecError(field, `must be an http or https URL, got ${JSON.stringify(text)}`);
  return text;
}

/** An optional boolean whose absence means true (GitLab's `includeSharedProjects`). */
export function readBooleanDefaultTrue(value: unknown, field: string): boolean {
  return value === undefined || value === null ? true : readBoolean(value, field);
}
