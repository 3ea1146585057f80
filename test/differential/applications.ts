import { isDeepStrictEqual } from 'node:util';

/** An Application reduced to what an ApplicationSet controller decides (what argocd-render prints). */
export interface ReducedApplication {
  apiVersion: unknown;
  kind: unknown;
  metadata: { name: string; namespace: string; labels?: unknown; annotations?: unknown; finalizers?: unknown };
  spec: unknown;
}

type Loose = { apiVersion?: unknown; kind?: unknown; metadata?: Record<string, unknown>; spec?: unknown };

/** Empty maps and lists are absent: Kubernetes drops them from metadata (omitempty), so they cannot differ. */
const present = (value: unknown): boolean =>
  value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0) && !(typeof value === 'object' && Object.keys(value).length === 0);

/** Reduces an Application as argocd-render does: apiVersion, kind, spec and the template's metadata fields. */
export function reduceApplication(app: unknown): ReducedApplication {
  const { apiVersion, kind, metadata = {}, spec } = app as Loose;
  const reduced: ReducedApplication = { apiVersion, kind, metadata: { name: String(metadata.name), namespace: String(metadata.namespace) }, spec };
  for (const key of ['labels', 'annotations', 'finalizers'] as const) {
    if (present(metadata[key])) reduced.metadata[key] = metadata[key];
  }
  return reduced;
}

/** `namespace/name` of an Application. */
export const keyOf = (app: ReducedApplication): string => `${app.metadata.namespace}/${app.metadata.name}`;

/** Reduces and sorts Applications by namespace then name. */
export function reduceAll(apps: readonly unknown[]): ReducedApplication[] {
  return apps.map(reduceApplication).sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
}

/** A value in a diff line: JSON, shortened; `(absent)` for a missing field. */
function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const json = JSON.stringify(value);
  return json.length > 200 ? `${json.slice(0, 197)}...` : json;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Appends one line per differing leaf under `path`: objects field by field, equal-length lists item by item. */
function diffValues(path: string, ours: unknown, theirs: unknown, out: string[]): void {
  if (isDeepStrictEqual(ours, theirs)) return;
  if (isRecord(ours) && isRecord(theirs)) {
    for (const key of [...new Set([...Object.keys(ours), ...Object.keys(theirs)])].sort()) diffValues(`${path}.${key}`, ours[key], theirs[key], out);
  } else if (Array.isArray(ours) && Array.isArray(theirs) && ours.length === theirs.length) {
    ours.forEach((item, i) => diffValues(`${path}[${i}]`, item, theirs[i], out));
  } else {
    out.push(`${path}: this project ${show(ours)}, Argo CD ${show(theirs)}`);
  }
}

/** Field-level differences between this project's Applications and Argo CD's, matched by namespace/name; empty when equal. */
export function diffApplications(ours: readonly ReducedApplication[], theirs: readonly ReducedApplication[]): string[] {
  const theirsByKey = new Map(theirs.map((app) => [keyOf(app), app]));
  const oursKeys = new Set(ours.map(keyOf));
  const lines: string[] = [];
  for (const app of ours) {
    const other = theirsByKey.get(keyOf(app));
    if (other) diffValues(keyOf(app), app, other, lines);
    else lines.push(`${keyOf(app)}: only this project renders it`);
  }
  for (const app of theirs) if (!oursKeys.has(keyOf(app))) lines.push(`${keyOf(app)}: only Argo CD renders it`);
  return lines;
}
