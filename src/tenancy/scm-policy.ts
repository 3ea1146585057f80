import type { V1Secret } from '@kubernetes/client-node';
import { secretValue } from '../model/secrets.js';
import type { ScmPolicy } from '../scm/scm-access.js';
import { secretUsableByProject } from './credential-scope.js';
import { refusedAddress, refusedRepoUrl, type RepoUrlAllowances } from './repo-url-safety.js';

/** The SCM settings of the controller (`--enable-scm-providers`, `--allowed-scm-providers`). */
export interface ScmSettings {
  readonly enabled: boolean;
  readonly allowedApiUrls: readonly string[];
}

/** The platform's own ApplicationSets: Argo CD's rules (enabled, allowed URLs), every SCM Secret, any address. */
export function platformScmPolicy(settings: ScmSettings): ScmPolicy {
  return { ...settings, usesSecret: () => true, mayCarry: () => true };
}

/**
 * A tenant of AppProject `project`: the rules of tenant Git URLs for the API URL and every address it
 * resolves to, only Secrets of its project or shared with every tenant, and a shared (platform) Secret
 * only towards the provider's public API or a URL the platform listed in `--allowed-scm-providers` —
 * never to a host the tenant chose.
 */
export function tenantScmPolicy(settings: ScmSettings, project: string, allowances: RepoUrlAllowances): ScmPolicy {
  return {
    ...settings,
    refusedUrl: (apiUrl) => (/^https?:\/\//i.test(apiUrl) ? refusedRepoUrl(apiUrl, allowances) : 'an API URL must be http or https'),
    refusedAddress: (address) => refusedAddress(address, allowances),
    usesSecret: (secret) => secretUsableByProject(secret, project),
    mayCarry: (secret, connection) =>
      projectOwn(secret, project) || connection.customApiUrl === '' || settings.allowedApiUrls.includes(connection.customApiUrl),
  };
}

function projectOwn(secret: V1Secret, project: string): boolean {
  return secretValue(secret, 'project')?.trim() === project;
}
