import type { V1Secret } from '@kubernetes/client-node';
import { IN_CLUSTER_NAME, IN_CLUSTER_SERVER, isClusterSecret } from '../../generators/cluster-secrets.js';
import { secretValue } from '../../model/secrets.js';
import { goQuote } from '../../templating/functions-text.js';

/**
 * Argo CD's lookup of an Application's destination cluster (v3.2.6 util/argo/argo.go GetDestinationCluster over
 * util/db/cluster.go GetCluster and GetClusterServersByName), with Argo CD's error texts, so a refusal here
 * reads like the one Argo CD would report.
 */

/** The clusters Argo CD knows, indexed as its Secrets informer indexes them (byClusterURL, byClusterName). */
export interface ClusterIndex {
  /** Servers of the cluster Secrets, trailing slashes trimmed (Argo CD's URL index key). */
  readonly servers: ReadonlySet<string>;
  /** Cluster Secrets by their `name` key (only Secrets that have one), as their servers with trailing slashes trimmed. */
  readonly serversByName: ReadonlyMap<string, readonly string[]>;
}

/** Argo CD's ErrDestinationMissing: a destination with neither a server nor a name. */
export const DESTINATION_MISSING = 'Destination server missing from app spec';

const trimTrailingSlashes = (server: string): string => server.replace(/\/+$/, '');

/** Indexes the cluster Secrets (other Secrets are ignored); the local cluster needs no Secret and is added by the lookup. */
export function indexClusters(secrets: readonly V1Secret[]): ClusterIndex {
  const servers = new Set<string>();
  const serversByName = new Map<string, string[]>();
  for (const secret of secrets.filter(isClusterSecret)) {
    // Argo CD's indexers read the raw keys: no `server` key, no URL entry; no `name` key, no name entry
    // (unlike the clusters generator, which names such a cluster by its server).
    const server = secretValue(secret, 'server');
    const name = secretValue(secret, 'name');
    if (server !== undefined) servers.add(trimTrailingSlashes(server));
    if (name !== undefined) serversByName.set(name, [...(serversByName.get(name) ?? []), trimTrailingSlashes(server ?? '')]);
  }
  return { servers, serversByName };
}

/** gRPC's NotFound status text, as Argo CD's cluster store returns it. */
const notFound = (server: string): string => `rpc error: code = NotFound desc = cluster ${goQuote(server)} not found`;

/** GetCluster: a Secret with this exact server, else the local cluster by its server URL. */
function clusterByServer(server: string, clusters: ClusterIndex): string | undefined {
  return clusters.servers.has(server) || server === IN_CLUSTER_SERVER ? undefined : notFound(server);
}

/** GetClusterServersByName: the local cluster answers to `in-cluster` unless a Secret describes it (and may rename it). */
function serversNamed(name: string, clusters: ClusterIndex): readonly string[] {
  if (!clusters.servers.has(IN_CLUSTER_SERVER) && name === IN_CLUSTER_NAME) return [IN_CLUSTER_SERVER];
  return clusters.serversByName.get(name) ?? [];
}

/**
 * Why Argo CD would not find the cluster of `destination`, in Argo CD's words (without its "application
 * destination spec is invalid: " prefix), or undefined when the destination names exactly one known cluster.
 * Values that are not strings count as empty, as a missing field would.
 */
export function destinationClusterProblem(destination: { readonly server?: unknown; readonly name?: unknown }, clusters: ClusterIndex): string | undefined {
  const server = typeof destination.server === 'string' ? destination.server : '';
  const name = typeof destination.name === 'string' ? destination.name : '';
  if (name !== '' && server !== '') return `application destination can't have both name and server defined: ${name} ${server}`;
  if (server !== '') {
    const problem = clusterByServer(server, clusters);
    return problem === undefined ? undefined : `error getting cluster by server ${goQuote(server)}: ${problem}`;
  }
  if (name === '') return DESTINATION_MISSING;
  const servers = serversNamed(name, clusters);
  if (servers.length === 0) return `there are no clusters with this name: ${name}`;
  // Argo CD lists them in its index's (map) order; sorted here, so the message is the same on every run.
  if (servers.length > 1) return `there are ${servers.length} clusters with the same name: [${[...servers].sort().join(' ')}]`;
  const problem = clusterByServer(servers[0] ?? '', clusters);
  return problem === undefined ? undefined : `error getting cluster by URL: ${problem}`;
}
