import type { ConfigMapKeyRef, SecretKeyRef } from '../../../scm/provider.js';
import { GeneratorSpecError, readArray, readObject, readOptionalString, readString, type JsonObject } from '../../spec-reading.js';

/** The provider's object, after checking it holds no field Argo CD's spec type lacks (nothing is silently ignored). */
export function readProviderObject(raw: unknown, field: string, known: readonly string[]): JsonObject {
  const object = readObject(raw, field);
  for (const key of Object.keys(object)) {
    if (!known.includes(key)) throw new GeneratorSpecError(`${field}.${key}`, `is not a field here (known: ${known.join(', ')})`);
  }
  return object;
}

/** An optional `{secretName, key}` reference to a Secret key; both members are required when it is given. */
export function readSecretRef(raw: unknown, field: string): SecretKeyRef | undefined {
  if (raw === undefined || raw === null) return undefined;
  const object = readProviderObject(raw, field, ['secretName', 'key']);
  return { secretName: readString(object['secretName'], `${field}.secretName`), key: readString(object['key'], `${field}.key`) };
}

/** A `{secretName, key}` reference that must be there. */
export function readRequiredSecretRef(raw: unknown, field: string): SecretKeyRef {
  const ref = readSecretRef(raw, field);
  if (!ref) throw new GeneratorSpecError(field, 'is required (an object with secretName and key)');
  return ref;
}

/** An optional `{configMapName, key}` reference to a ConfigMap key (`caRef`). */
export function readConfigMapRef(raw: unknown, field: string): ConfigMapKeyRef | undefined {
  if (raw === undefined || raw === null) return undefined;
  const object = readProviderObject(raw, field, ['configMapName', 'key']);
  return { configMapName: readString(object['configMapName'], `${field}.configMapName`), key: readString(object['key'], `${field}.key`) };
}

/** An optional list of label names. */
export function readLabels(raw: unknown, field: string): readonly string[] {
  return readArray(raw, field).map((label, index) => {
    if (typeof label !== 'string') throw new GeneratorSpecError(`${field}[${index}]`, 'must be a string');
    return label;
  });
}

/** The spec's `api`: '' when absent, else an absolute http(s) URL. */
export function readApiUrl(raw: unknown, field: string): string {
  const api = readOptionalString(raw, field);
  if (api === '') return api;
  let url: URL;
  try {
    url = new URL(api);
  } catch {
    throw new GeneratorSpecError(field, `must be an absolute URL, got ${JSON.stringify(api)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new GeneratorSpecError(field, `must be an http or https URL, got ${JSON.stringify(api)}`);
  return api;
}

/** An `api` that Argo CD cannot do without (Gitea, Bitbucket Server). */
export function readRequiredApiUrl(raw: unknown, field: string): string {
  const api = readApiUrl(raw, field);
  if (api === '') throw new GeneratorSpecError(field, 'is required: the URL of the server');
  return api;
}
