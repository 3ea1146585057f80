import { TerminalError } from '../model/action.js';
import { AppsetError } from '../model/errors.js';
import type { LabelSelector } from './label-selector.js';

/** A duck-typed resource collection, as a clusterDecisionResource ConfigMap names it (`kind` is the plural resource name, as in Argo CD). */
export interface DecisionResourceType {
  readonly group: string;
  readonly version: string;
  /** The resource of the API path (`placementdecisions`): Argo CD puts the ConfigMap's `kind` there as it is. */
  readonly resource: string;
}

/** Which objects of a {@link DecisionResourceType} a generator reads: one by name, or those a label selector matches. */
export type DecisionSelection = { readonly name: string } | { readonly labelSelector: LabelSelector };

/** A duck-typed object as far as the generator reads it. */
export interface DecisionObject {
  readonly metadata?: { readonly name?: string; readonly namespace?: string; readonly labels?: Readonly<Record<string, string>> };
  readonly status?: unknown;
}

/**
 * What the clusterDecisionResource generator reads, bound to one ApplicationSet: ConfigMaps of the controller's
 * namespace (as Argo CD) and duck-typed objects of the ApplicationSet's own namespace (Argo CD reads the
 * controller's namespace, which is the same for the platform's ApplicationSets; a tenant reads only its own).
 */
export interface DecisionResourceAccess {
  /** The namespace the objects are listed in, for messages. */
  readonly namespace: string;
  /**
   * The `data` of ConfigMap `name` of the controller's namespace; undefined when it does not exist. Throws a
   * {@link DecisionResourceRefused} when this ApplicationSet may not use that ConfigMap.
   */
  configMapData(name: string, signal: AbortSignal): Promise<Readonly<Record<string, string>> | undefined>;
  /** The objects of `type` in {@link namespace} that `selection` picks, in the API server's order (by name). */
  list(type: DecisionResourceType, selection: DecisionSelection, signal: AbortSignal): Promise<readonly DecisionObject[]>;
}

/**
 * A duck-typed resource or its ConfigMap could not be read or is unusable. Retried with backoff: the platform's
 * ConfigMap or the resource may appear or be fixed without the ApplicationSet changing (and their watch requeues it).
 */
export class DecisionResourceError extends AppsetError {
  override readonly name: string = 'DecisionResourceError';
}

/** A read the tenancy rules refused before it was made. Terminal: only a change of the ApplicationSet or the ConfigMap lifts it. */
export class DecisionResourceRefused extends TerminalError {
  override readonly name: string = 'DecisionResourceRefused';
}

/** The `kind` and `apiVersion` of a clusterDecisionResource ConfigMap as the resource they name; undefined unless Argo CD accepts them. */
export function decisionResourceTypeOf(data: Readonly<Record<string, string>>): DecisionResourceType | undefined {
  const apiVersion = data['apiVersion'] ?? '';
  const kind = data['kind'] ?? '';
  // As Argo CD: a group is required (`v1` alone is refused), everything after the first slash is the version.
  const slash = apiVersion.indexOf('/');
  if (kind === '' || slash < 1) return undefined;
  return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1), resource: kind };
}

/** `resource.group` with its version, for messages and logs (`placementdecisions.cluster.open-cluster-management.io/v1beta1`). */
export function describeDecisionType(type: DecisionResourceType): string {
  return `${type.resource}.${type.group}/${type.version}`;
}
