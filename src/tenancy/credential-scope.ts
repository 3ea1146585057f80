import type { V1Secret } from '@kubernetes/client-node';
import { SHARED_CREDENTIALS_LABEL, secretValue } from '../model/secrets.js';
import type { RepoAccess, ResolveAll } from '../git/repo-access.js';
import { refusedAddress, TENANT_DEFAULTS, type RepoUrlAllowances } from './repo-url-safety.js';

/**
 * True if a tenant ApplicationSet of AppProject `project` may use `secret` to read Git: the Secret is
 * scoped to that project (its `project` field, as Argo CD's project-scoped repositories), or it names no
 * project and the platform marked it shared. A Secret scoped to another project is never used, even when
 * marked shared; an unscoped, unmarked Secret is the platform's alone.
 */
export function secretUsableByProject(secret: V1Secret, project: string): boolean {
  const scope = secretValue(secret, 'project')?.trim();
  if (scope !== undefined && scope !== '') return scope === project;
  return secret.metadata?.labels?.[SHARED_CREDENTIALS_LABEL] === 'true';
}

/**
 * The Git access of a tenant of AppProject `project`: only Secrets {@link secretUsableByProject} allows,
 * and only hosts whose every resolved address the platform's allowances permit.
 */
export function tenantRepoAccess(project: string, allowances: RepoUrlAllowances = TENANT_DEFAULTS, resolve?: ResolveAll): RepoAccess {
  return {
    usesSecret: (secret) => secretUsableByProject(secret, project),
    refusedAddress: (address) => refusedAddress(address, allowances),
    ...(resolve ? { resolve } : {}),
  };
}
