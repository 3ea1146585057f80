import type { V1ConfigMap } from '@kubernetes/client-node';
import { SHARED_CREDENTIALS_LABEL } from '../model/secrets.js';
import type { PluginPolicy } from '../scm/plugin/plugin-access.js';
import { secretUsableByProject } from './credential-scope.js';
import { refusedAddress, refusedRepoUrl, type RepoUrlAllowances } from './repo-url-safety.js';

/** The platform's own ApplicationSets: any plugin ConfigMap and Secret of the controller's namespace, any address (as Argo CD). */
export function platformPluginPolicy(): PluginPolicy {
  return { usesConfigMap: () => true, usesSecret: () => true };
}

/**
 * A tenant of AppProject `project`, by the rule of Git and SCM credentials: a plugin ConfigMap and its token
 * Secret are used only when each is scoped to that project (its `project` key) or names no project and carries
 * the shared label; the `baseUrl` and every address it resolves to follow the rules of tenant Git URLs.
 */
export function tenantPluginPolicy(project: string, allowances: RepoUrlAllowances): PluginPolicy {
  return {
    usesConfigMap: (configMap) => configMapUsableByProject(configMap, project),
    usesSecret: (secret) => secretUsableByProject(secret, project),
    refusedUrl: (baseUrl) => (/^https?:\/\//i.test(baseUrl) ? refusedRepoUrl(baseUrl, allowances) : 'a plugin baseUrl must be http or https'),
    refusedAddress: (address) => refusedAddress(address, allowances),
  };
}

/** {@link secretUsableByProject} for a ConfigMap: its `project` key, or no project and the shared label. */
export function configMapUsableByProject(configMap: V1ConfigMap, project: string): boolean {
  const scope = configMap.data?.['project']?.trim();
  if (scope !== undefined && scope !== '') return scope === project;
  return configMap.metadata?.labels?.[SHARED_CREDENTIALS_LABEL] === 'true';
}
