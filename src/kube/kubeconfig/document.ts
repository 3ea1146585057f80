import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import { KubeConfigError } from './errors.js';

/** One named entry of a kubeconfig list (a cluster, user or context), its fields as written. */
export interface NamedEntry {
  readonly name: string;
  readonly fields: Readonly<Record<string, unknown>>;
  /** Directory of the file it came from: relative paths in it resolve against this. */
  readonly baseDir: string;
  /** The file it came from, for error messages. */
  readonly source: string;
}

/** A kubeconfig file read into its named entries; only `current-context` besides the three lists matters. */
export interface KubeConfigDocument {
  readonly clusters: ReadonlyMap<string, NamedEntry>;
  readonly users: ReadonlyMap<string, NamedEntry>;
  readonly contexts: ReadonlyMap<string, NamedEntry>;
  readonly currentContext: string | undefined;
}

/** Parses kubeconfig YAML (or JSON) from `source`; relative paths of its entries resolve against the file's directory. */
export function parseKubeConfig(text: string, source: string): KubeConfigDocument {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    throw new KubeConfigError(`${source}: not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  if (raw === null || raw === undefined) raw = {}; // an empty file is an empty config, as for kubectl
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new KubeConfigError(`${source}: a kubeconfig must be a mapping`);
  const doc = raw as Record<string, unknown>;
  const baseDir = dirname(resolve(source));
  const current = doc['current-context'];
  if (current !== undefined && current !== null && typeof current !== 'string') throw new KubeConfigError(`${source}: current-context must be a string`);
  return {
    clusters: entries(doc, 'clusters', 'cluster', source, baseDir),
    users: entries(doc, 'users', 'user', source, baseDir),
    contexts: entries(doc, 'contexts', 'context', source, baseDir),
    currentContext: current || undefined,
  };
}

function entries(doc: Record<string, unknown>, list: string, key: string, source: string, baseDir: string): Map<string, NamedEntry> {
  const value = doc[list];
  const map = new Map<string, NamedEntry>();
  if (value === undefined || value === null) return map;
  if (!Array.isArray(value)) throw new KubeConfigError(`${source}: ${list} must be a list`);
  for (const [i, item] of value.entries()) {
    const entry = item as Record<string, unknown> | null;
    const name = entry?.name;
    if (typeof name !== 'string' || name === '') throw new KubeConfigError(`${source}: ${list}[${i}] has no name`);
    const fields = entry?.[key] ?? {};
    if (typeof fields !== 'object' || Array.isArray(fields)) throw new KubeConfigError(`${source}: ${list}[${i}] (${name}).${key} must be a mapping`);
    // Within one file, as in kubectl, a later entry of the same name replaces an earlier one.
    map.set(name, { name, fields: fields as Record<string, unknown>, baseDir, source });
  }
  return map;
}

/**
 * Merges documents as kubectl merges the files of $KUBECONFIG: the first file to define a cluster, user or
 * context by a name wins, and so does the first file that sets current-context.
 */
export function mergeKubeConfigs(documents: readonly KubeConfigDocument[]): KubeConfigDocument {
  const pick = (list: 'clusters' | 'users' | 'contexts'): Map<string, NamedEntry> => {
    const merged = new Map<string, NamedEntry>();
    for (const doc of documents) for (const [name, entry] of doc[list]) if (!merged.has(name)) merged.set(name, entry);
    return merged;
  };
  return {
    clusters: pick('clusters'),
    users: pick('users'),
    contexts: pick('contexts'),
    currentContext: documents.find((d) => d.currentContext)?.currentContext,
  };
}

/** `path` of `entry` as an absolute path: a relative one is relative to the kubeconfig file that holds it. */
export function entryPath(entry: NamedEntry, path: string): string {
  return isAbsolute(path) ? path : resolve(entry.baseDir, path);
}
