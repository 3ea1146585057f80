import type { V1ConfigMap } from '@kubernetes/client-node';
import {
  DecisionResourceRefused,
  type DecisionObject,
  type DecisionResourceAccess,
  type DecisionResourceType,
  type DecisionSelection,
} from '../generators/decision-resources.js';
import { formatLabelSelector } from '../generators/label-selector.js';
import { KubeApiError } from '../kube/transport/api-errors.js';
import { pathSegment } from '../kube/transport/request-url.js';
import type { KubeTransport } from '../kube/transport/transport.js';
import { SHARED_CREDENTIALS_LABEL } from '../model/secrets.js';
import { configMapUsableByProject } from '../tenancy/plugin-policy.js';
import type { TenantContext } from '../tenancy/tenant-policy.js';

/** The duck-typed resource access of one replica: the platform's (any namespace it is asked for), and one per tenant. */
export interface ReplicaDecisionResources {
  readonly platform: (namespace: string) => DecisionResourceAccess;
  readonly forTenant: (tenant: TenantContext) => DecisionResourceAccess;
}

/**
 * Reads ConfigMaps and duck-typed objects from the API server at each generation, as Argo CD does: a reconcile
 * woken by a change of the resource then sees that change without waiting for any cache (the watches of
 * decision-watches.ts only wake it), and a resource type the replica has never watched needs no warm-up.
 */
export function createReplicaDecisionResources(transport: KubeTransport, controllerNamespace: string): ReplicaDecisionResources {
  const readConfigMap = configMapGetter(transport, controllerNamespace);
  const access = (namespace: string, usable: (configMap: V1ConfigMap) => string | undefined): DecisionResourceAccess => ({
    namespace,
    async configMapData(name, signal) {
      const configMap = await readConfigMap(name, signal);
      if (!configMap) return undefined;
      const refused = usable(configMap);
      if (refused) throw new DecisionResourceRefused(refused);
      return configMap.data ?? {};
    },
    list: (type, selection, signal) => listObjects(transport, namespace, type, selection, signal),
  });
  return {
    platform: (namespace) => access(namespace, () => undefined),
    // Only the tenant's own namespace, whatever it asks; only ConfigMaps the platform scoped to its project or shared.
    forTenant: (tenant) =>
      access(tenant.namespace, (configMap) =>
        configMapUsableByProject(configMap, tenant.projectName)
          ? undefined
          : `ConfigMap ${controllerNamespace}/${configMap.metadata?.name ?? ''} may not be used by project ${tenant.projectName}: it needs "project: ${tenant.projectName}" in its data, or no project and the label ${SHARED_CREDENTIALS_LABEL}: "true"`,
      ),
  };
}

/** GETs one ConfigMap of `namespace`; undefined when it does not exist. */
function configMapGetter(transport: KubeTransport, namespace: string) {
  return async (name: string, signal: AbortSignal): Promise<V1ConfigMap | undefined> => {
    try {
      return await transport.request<V1ConfigMap>({
        method: 'GET',
        path: `/api/v1/namespaces/${pathSegment(namespace)}/configmaps/${pathSegment(name)}`,
        signal,
      });
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 404) return undefined;
      throw error;
    }
  };
}

/** The collection path of a duck-typed resource in one namespace, or in all when `namespace` is undefined. */
export function decisionCollectionPath(type: DecisionResourceType, namespace?: string): string {
  const base = `/apis/${pathSegment(type.group)}/${pathSegment(type.version)}`;
  return namespace === undefined ? `${base}/${pathSegment(type.resource)}` : `${base}/namespaces/${pathSegment(namespace)}/${pathSegment(type.resource)}`;
}

/** Lists as Argo CD does: a field selector on the name, or the label selector; no cache, no paging (a handful of objects). */
async function listObjects(
  transport: KubeTransport,
  namespace: string,
  type: DecisionResourceType,
  selection: DecisionSelection,
  signal: AbortSignal,
): Promise<readonly DecisionObject[]> {
  const query = 'name' in selection ? { fieldSelector: `metadata.name=${selection.name}` } : { labelSelector: formatLabelSelector(selection.labelSelector) };
  const list = await transport.request<{ items?: DecisionObject[] }>({ method: 'GET', path: decisionCollectionPath(type, namespace), query, signal });
  return list.items ?? [];
}
