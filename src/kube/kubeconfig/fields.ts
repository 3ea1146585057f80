import type { NamedEntry } from './document.js';
import { KubeConfigError } from './errors.js';

/** `kind "name" (file)`: how errors name an entry. */
export function describeEntry(kind: string, entry: NamedEntry): string {
  return `${kind} ${JSON.stringify(entry.name)} (${entry.source})`;
}

/**
 * Throws when `entry` sets one of the kubeconfig fields this client does not implement: such a setting is
 * never ignored. Fields kubeconfig does not define are ignored, as kubectl ignores them (client-node's
 * exportConfig writes a `name` into each context, for one).
 */
export function rejectUnsupportedFields(kind: string, entry: NamedEntry, unsupported: ReadonlySet<string>): void {
  for (const field of Object.keys(entry.fields)) {
    const value = entry.fields[field];
    if (unsupported.has(field) && value !== undefined && value !== null && value !== '') {
      throw new KubeConfigError(`${describeEntry(kind, entry)}: field "${field}" is not supported by this controller`);
    }
  }
}

/** The string field `field` of `entry`, undefined when absent or empty. */
export function stringField(kind: string, entry: NamedEntry, field: string): string | undefined {
  const value = entry.fields[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new KubeConfigError(`${describeEntry(kind, entry)}: field "${field}" must be a string`);
  return value;
}

/** The boolean field `field` of `entry`, false when absent. */
export function booleanField(kind: string, entry: NamedEntry, field: string): boolean {
  const value = entry.fields[field];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new KubeConfigError(`${describeEntry(kind, entry)}: field "${field}" must be true or false`);
  return value;
}

/** The list-of-strings field `field` of `entry`, empty when absent. */
export function stringListField(kind: string, entry: NamedEntry, field: string): string[] {
  const value = entry.fields[field];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new KubeConfigError(`${describeEntry(kind, entry)}: field "${field}" must be a list of strings`);
  }
  return value as string[];
}

/** Decodes the base64 field `field` of `entry` (a `...-data` field) to text. */
export function base64Field(kind: string, entry: NamedEntry, field: string): string | undefined {
  const value = stringField(kind, entry, field);
  if (value === undefined) return undefined;
  if (!/^[A-Za-z0-9+/=\s_-]*$/.test(value)) throw new KubeConfigError(`${describeEntry(kind, entry)}: field "${field}" is not base64`);
  return Buffer.from(value, 'base64').toString('utf8');
}
