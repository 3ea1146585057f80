import { readFileSync } from 'node:fs';
import type { V1ConfigMap, V1Secret } from '@kubernetes/client-node';
import type { ControllerConfig } from '../config/controller-config.js';
import { KubeApiError } from '../kube/transport/api-errors.js';
import { pathSegment } from '../kube/transport/request-url.js';
import type { KubeTransport } from '../kube/transport/transport.js';
import type { ScmAccess } from '../scm/access.js';
import { GitHubAppTokens } from '../scm/github-app.js';
import type { ApiRequestRecord } from '../scm/http/api-client.js';
import { ConditionalCache } from '../scm/http/conditional-cache.js';
import type { ConfigMapKeyRef } from '../scm/provider.js';
import { createScmAccess, type ScmAccessParts, type ScmPolicy } from '../scm/scm-access.js';
import { SharedAnswers, type EventCounter } from '../scm/shared-answers.js';
import type { RepoUrlAllowances } from '../tenancy/repo-url-safety.js';
import { platformScmPolicy, tenantScmPolicy, type ScmSettings } from '../tenancy/scm-policy.js';

/** The SCM provider access of one replica: the platform's, and one per tenant project. */
export interface ReplicaScm {
  readonly platform: ScmAccess;
  readonly forTenant: (project: string) => ScmAccess;
}

/** What the replica's SCM access is built from. */
export interface ReplicaScmParts {
  readonly config: Pick<ControllerConfig, 'namespace' | 'enableScmProviders' | 'allowedScmProviders' | 'scmRootCaPath' | 'scmAnswerReuseMs'>;
  readonly transport: KubeTransport;
  /** The SCM credential Secrets of the controller's namespace, from the Secrets cache. */
  readonly secrets: () => readonly V1Secret[];
  /** The counter a webhook advances per routing key (shared by the replicas). */
  readonly eventCounter: EventCounter;
  readonly tenantAllowances: RepoUrlAllowances;
  readonly onRequest?: (record: ApiRequestRecord) => void;
}

/**
 * One conditional-request cache, one set of shared answers and one GitHub App token cache for the whole
 * replica, so tenants and the platform asking the same question with the same credentials share the
 * answer (credentials are part of every key, so nobody receives an answer fetched with someone else's).
 */
export function createReplicaScm(parts: ReplicaScmParts): ReplicaScm {
  const { config } = parts;
  const settings: ScmSettings = { enabled: config.enableScmProviders, allowedApiUrls: config.allowedScmProviders };
  const common: Omit<ScmAccessParts, 'policy'> = {
    secrets: parts.secrets,
    namespace: config.namespace,
    configMapValue: configMapReader(parts.transport, config.namespace),
    ...(config.scmRootCaPath ? { rootCa: readFileSync(config.scmRootCaPath, 'utf8') } : {}),
    conditional: new ConditionalCache(),
    answers: new SharedAnswers(parts.eventCounter, { reuseMs: config.scmAnswerReuseMs }),
    githubApps: new GitHubAppTokens(),
    ...(parts.onRequest ? { onRequest: parts.onRequest } : {}),
  };
  const access = (policy: ScmPolicy): ScmAccess => createScmAccess({ ...common, policy });
  // One access per project, so its address rules (and the connection pool kept per rule) live as long as the replica.
  const tenants = new Map<string, ScmAccess>();
  const forTenant = (project: string): ScmAccess => {
    let tenant = tenants.get(project);
    if (!tenant) {
      tenant = access(tenantScmPolicy(settings, project, parts.tenantAllowances));
      tenants.set(project, tenant);
    }
    return tenant;
  };
  return { platform: access(platformScmPolicy(settings)), forTenant };
}

const CONFIG_MAP_REUSE_MS = 60_000;

/** Reads `caRef` ConfigMaps of the controller's namespace, each kept a minute (CA bundles change rarely). */
function configMapReader(transport: KubeTransport, namespace: string): ScmAccessParts['configMapValue'] {
  const cache = new Map<string, { at: number; data: Readonly<Record<string, string>> | undefined }>();
  return async (ref: ConfigMapKeyRef, signal) => {
    const held = cache.get(ref.configMapName);
    if (held && Date.now() - held.at < CONFIG_MAP_REUSE_MS) return held.data?.[ref.key];
    let data: Readonly<Record<string, string>> | undefined;
    try {
      const map = await transport.request<V1ConfigMap>({
        method: 'GET',
        path: `/api/v1/namespaces/${pathSegment(namespace)}/configmaps/${pathSegment(ref.configMapName)}`,
        signal,
      });
      data = map.data ?? {};
    } catch (error) {
      if (!(error instanceof KubeApiError && error.status === 404)) throw error;
    }
    cache.set(ref.configMapName, { at: Date.now(), data });
    return data?.[ref.key];
  };
}
