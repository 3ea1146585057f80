import type { Schema } from './schema.js';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The fields an object's root holds for the API machinery; the schema's pruning leaves them to ObjectMeta decoding. */
const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Removes from `object` (in place) every field its schema does not know, as the API server prunes a custom
 * resource, and returns their paths sorted: each is an `unknown field "path"` under strict field validation.
 * Below `x-kubernetes-preserve-unknown-fields` only the fields the schema does describe are walked.
 */
export function pruneUnknownFields(object: Record<string, unknown>, root: Schema): string[] {
  const paths: string[] = [];
  for (const [key, value] of Object.entries(object)) {
    if (META_FIELDS.has(key)) continue;
    walkKey(object, key, value, root, '', paths, root.preserveUnknownFields);
  }
  return paths.sort();
}

function prune(value: unknown, schema: Schema | undefined, path: string, paths: string[]): void {
  if (schema?.preserveUnknownFields) return skipPrune(value, schema, path, paths);
  if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) walkKey(value, key, item, schema, path, paths, false);
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) prune(item, schema?.items, `${path}[${i}]`, paths);
  }
}

/** One key of an object: walked with its schema, or recorded and removed (unless unknown fields are preserved here). */
function walkKey(
  object: Record<string, unknown>,
  key: string,
  value: unknown,
  schema: Schema | undefined,
  path: string,
  paths: string[],
  preserve: boolean,
): void {
  const child = path === '' ? key : `${path}.${key}`;
  const sub = schema?.properties?.get(key) ?? schema?.additionalProperties;
  if (sub) return prune(value, sub, child, paths);
  if (preserve) return;
  paths.push(child);
  delete object[key];
}

function skipPrune(value: unknown, schema: Schema, path: string, paths: string[]): void {
  if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) walkKey(value, key, item, schema, path, paths, true);
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) if (schema.items) skipPrune(item, schema.items, `${path}[${i}]`, paths);
  }
}

/** Drops, in place, every null the schema does not allow (no `nullable`): the API server treats such a field as absent. */
export function pruneNulls(value: unknown, schema: Schema | undefined): void {
  if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      const sub = schema?.properties?.get(key) ?? schema?.additionalProperties;
      if (item === null && sub && !sub.nullable) delete value[key];
      else pruneNulls(item, sub);
    }
  } else if (Array.isArray(value)) {
    for (const item of value) pruneNulls(item, schema?.items);
  }
}
