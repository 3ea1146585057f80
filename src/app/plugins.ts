import type { V1ConfigMap, V1Secret } from '@kubernetes/client-node';
import type { ControllerConfig } from '../config/controller-config.js';
import { KubeApiError } from '../kube/transport/api-errors.js';
import { pathSegment } from '../kube/transport/request-url.js';
import type { KubeTransport } from '../kube/transport/transport.js';
import type { ApiRequestRecord } from '../scm/http/api-client.js';
import type { PluginAccess } from '../scm/plugin/access.js';
import { createPluginAccess, type PluginAccessParts, type PluginPolicy } from '../scm/plugin/plugin-access.js';
import { platformPluginPolicy, tenantPluginPolicy } from '../tenancy/plugin-policy.js';
import type { RepoUrlAllowances } from '../tenancy/repo-url-safety.js';

/** The longest one plugin call may take, whatever its ConfigMap's `requestTimeout` says: it holds a worker. */
export const MAX_PLUGIN_TIMEOUT_MS = 120_000;

/** The largest plugin answer read (4 MiB); a larger one is cut off while it arrives and refused. */
export const MAX_PLUGIN_RESPONSE_BYTES = 4 * 1024 * 1024;

/** The plugin access of one replica: the platform's, and one per tenant project. */
export interface ReplicaPlugins {
  readonly platform: PluginAccess;
  readonly forTenant: (project: string) => PluginAccess;
}

/** What the replica's plugin access is built from. */
export interface ReplicaPluginParts {
  readonly config: Pick<ControllerConfig, 'namespace'>;
  readonly transport: KubeTransport;
  readonly tenantAllowances: RepoUrlAllowances;
  readonly onRequest?: (record: ApiRequestRecord) => void;
}

/**
 * Plugin ConfigMaps and token Secrets are read from the API server at each call, as Argo CD reads them: they are
 * not labelled, so no cache holds them, and a call is rare (every requeue, 30 minutes by default).
 */
export function createReplicaPlugins(parts: ReplicaPluginParts): ReplicaPlugins {
  const { namespace } = parts.config;
  const common: Omit<PluginAccessParts, 'policy'> = {
    namespace,
    configMap: getter<V1ConfigMap>(parts.transport, namespace, 'configmaps'),
    secret: getter<V1Secret>(parts.transport, namespace, 'secrets'),
    maxTimeoutMs: MAX_PLUGIN_TIMEOUT_MS,
    maxResponseBytes: MAX_PLUGIN_RESPONSE_BYTES,
    ...(parts.onRequest ? { onRequest: parts.onRequest } : {}),
  };
  const access = (policy: PluginPolicy): PluginAccess => createPluginAccess({ ...common, policy });
  // One access per project, so its address rules (and the connection pool kept per rule) live as long as the replica.
  const tenants = new Map<string, PluginAccess>();
  const forTenant = (project: string): PluginAccess => {
    let tenant = tenants.get(project);
    if (!tenant) {
      tenant = access(tenantPluginPolicy(project, parts.tenantAllowances));
      tenants.set(project, tenant);
    }
    return tenant;
  };
  return { platform: access(platformPluginPolicy()), forTenant };
}

/** GETs one object of `resource` in `namespace`; undefined when it does not exist. */
function getter<T>(transport: KubeTransport, namespace: string, resource: 'configmaps' | 'secrets') {
  return async (name: string, signal: AbortSignal): Promise<T | undefined> => {
    try {
      return await transport.request<T>({ method: 'GET', path: `/api/v1/namespaces/${pathSegment(namespace)}/${resource}/${pathSegment(name)}`, signal });
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 404) return undefined;
      throw error;
    }
  };
}
