import { isDeepStrictEqual } from 'node:util';
import { IN_CLUSTER_NAME, IN_CLUSTER_SERVER } from '../../generators/cluster-secrets.js';
import { SECRET_TYPE_LABEL } from '../../model/secrets.js';
import { Reason } from '../status/conditions.js';

/**
 * Which ApplicationSets a change of an AppProject or a cluster Secret can fix or break through the checks of
 * generated Applications (project exists, destination names a known cluster, a tenant's project rules), so the
 * fix arrives with the event instead of the next resync.
 */

/** What routing reads of an object: its metadata, spec and status, untyped. */
export interface Routed {
  readonly metadata?: { readonly name?: string; readonly labels?: Readonly<Record<string, string>> };
  readonly spec?: unknown;
  readonly status?: unknown;
  readonly data?: Readonly<Record<string, string>>;
  readonly stringData?: Readonly<Record<string, string>>;
}

/** Every `spec.project` of the ApplicationSet's template and of the generators' own templates, nested ones included. */
export function templateProjects(spec: unknown): unknown[] {
  const found: unknown[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    for (const [key, child] of Object.entries(value)) {
      const project = key === 'template' ? (child as { spec?: { project?: unknown } } | null)?.spec?.project : undefined;
      if (project !== undefined) found.push(project);
      visit(child);
    }
  };
  const { template, generators } = (spec ?? {}) as { template?: unknown; generators?: unknown };
  visit({ template, generators });
  return found;
}

/**
 * True if a change of the AppProject `name` concerns this ApplicationSet: a template names it, or names its
 * project through a template expression (which may render to any project).
 */
export function projectChangeConcerns(spec: unknown, name: string): boolean {
  return templateProjects(spec).some((project) => typeof project !== 'string' || project === name || project.includes('{{'));
}

/** True if an AppProject update changed what the checks read (its existence does not change on update; its spec may). */
export function projectUpdateMatters(before: Routed, after: Routed): boolean {
  return !isDeepStrictEqual(before.spec, after.spec);
}

/** True if the ApplicationSet's last reconcile was refused because of its generated Applications. */
export function refusedByValidation(appset: Routed): boolean {
  const conditions = (appset.status as { conditions?: Array<{ type?: string; status?: string; reason?: string }> } | undefined)?.conditions ?? [];
  return conditions.some((c) => c.type === 'ErrorOccurred' && c.status === 'True' && c.reason === Reason.ValidationError);
}

/** The servers and names a cluster Secret version makes known (none for another Secret, or none at all). */
export interface ClusterIdentity {
  readonly servers: readonly string[];
  readonly names: readonly string[];
}

const NO_CLUSTER: ClusterIdentity = { servers: [], names: [] };

/** One raw key of a Secret, from `data` (base64) or `stringData`. */
function value(secret: Routed, key: string): string | undefined {
  const encoded = secret.data?.[key];
  return encoded !== undefined ? Buffer.from(encoded, 'base64').toString('utf8') : secret.stringData?.[key];
}

/**
 * The destinations a cluster Secret version answers to. A Secret for the local server also stands for the
 * name `in-cluster`: it may rename the local cluster, and destinations by that name depend on it.
 */
export function clusterIdentity(secret: Routed | undefined): ClusterIdentity {
  if (secret?.metadata?.labels?.[SECRET_TYPE_LABEL] !== 'cluster') return NO_CLUSTER;
  const server = value(secret, 'server')?.replace(/\/+$/, '');
  const name = value(secret, 'name');
  const names = [name, server === IN_CLUSTER_SERVER ? IN_CLUSTER_NAME : undefined].filter((n): n is string => n !== undefined && n !== '');
  return { servers: server ? [server] : [], names };
}

/** True if the two versions answer to the same destinations (then no destination check can change). */
export function sameIdentity(a: ClusterIdentity, b: ClusterIdentity): boolean {
  return isDeepStrictEqual(a, b);
}

/** True if the Application's destination names one of the clusters, by server (as written) or by name. */
export function destinationConcerns(app: Routed, clusters: readonly ClusterIdentity[]): boolean {
  const destination = (app.spec as { destination?: { server?: unknown; name?: unknown } } | undefined)?.destination;
  const server = typeof destination?.server === 'string' ? destination.server.replace(/\/+$/, '') : '';
  const name = typeof destination?.name === 'string' ? destination.name : '';
  return clusters.some((c) => (server !== '' && c.servers.includes(server)) || (name !== '' && c.names.includes(name)));
}
