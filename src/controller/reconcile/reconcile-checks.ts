import type { V1Secret } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { GitReader } from '../../git/git-reader.js';
import type { DecisionResourceAccess } from '../../generators/decision-resources.js';
import { parseClusterSecret } from '../../generators/cluster-secrets.js';
import type { RenderedApplication } from '../../model/applicationset-types.js';
import type { ScmAccess } from '../../scm/access.js';
import { noPluginAccess } from '../../scm/plugin/no-access.js';
import type { PluginAccess } from '../../scm/plugin/access.js';
import { isClusterPermitted } from '../../tenancy/project.js';
import { checkApplicationQuotas, NO_QUOTAS, type ApplicationQuotas } from '../../tenancy/quotas.js';
import type { RepoUrlAllowances } from '../../tenancy/repo-url-safety.js';
import { admitTenant, tenantGitReader, type ProjectLookup, type TenantContext } from '../../tenancy/tenant-policy.js';
import type { ApplicationSetObject } from './applicationset.js';
import type { GenerateDeps } from './generate.js';
import { assertApplicationsValid, InvalidApplicationsError, VALIDATION_RETRY_MS } from './validate-applications.js';
import type { RenderMemo } from '../../templating/render-memo.js';

/**
 * The rules one reconcile applies before it plans (tenant admission and scoping, Argo CD's validation, quotas),
 * shared by the reconciler and `appset diff` so a preview refuses exactly what the controller refuses.
 */

/** What the checks read: the tenancy settings and the tenant-scoped readers. */
export interface CheckDeps extends GenerateDeps {
  /** The controller's own namespace: ApplicationSets there are the platform's; all others are tenants'. */
  readonly controllerNamespace: string;
  /** The replica's remembered renders (a parameter set rendered before with the same template is not rendered again); absent: every render runs. */
  readonly renderMemo?: RenderMemo;
  /** AppProjects of the controller's namespace by name. */
  readonly projects: ProjectLookup;
  /** What tenants' repository URLs may reach beyond remote hosts. */
  readonly tenantRepoAllowances?: RepoUrlAllowances;
  /** The Git reader of one tenant: only its project's (or shared) credentials, only addresses it may reach. */
  readonly tenantGit: (tenant: TenantContext) => GitReader;
  /** The SCM provider access of one tenant: only its project's (or shared) Secrets, only hosts and addresses it may reach. */
  readonly tenantScm: (tenant: TenantContext) => ScmAccess;
  /** The plugin access of one tenant: only its project's (or shared) ConfigMaps and Secrets, only addresses it may reach. */
  readonly tenantPlugins?: (tenant: TenantContext) => PluginAccess;
  /** The duck-typed resource access of one tenant: only its own namespace, only ConfigMaps scoped to its project (or shared). */
  readonly tenantDecisionResources?: (tenant: TenantContext) => DecisionResourceAccess;
  /** Application quotas of tenant namespaces (none when absent). */
  readonly quotas?: ApplicationQuotas;
}

/** The tenant an ApplicationSet outside the controller's namespace acts for; undefined for the platform's own. */
export function admit(deps: CheckDeps, appset: ApplicationSetObject): TenantContext | undefined {
  if (appset.metadata.namespace === deps.controllerNamespace) return undefined;
  return admitTenant(appset.metadata.namespace, appset.spec.template.spec?.project, deps.controllerNamespace, deps.projects);
}

/** Generator dependencies narrowed to what the tenant may reach: its repositories and its clusters. */
export function tenantScoped(deps: CheckDeps, tenant: TenantContext): GenerateDeps {
  const tenantDecisions = deps.tenantDecisionResources;
  return {
    ...deps,
    git: tenantGitReader(deps.tenantGit(tenant), tenant, deps.tenantRepoAllowances),
    scm: deps.tenantScm(tenant),
    // Never the platform's access: without a tenant access, a tenant's plugin generators are refused.
    plugins: deps.tenantPlugins?.(tenant) ?? noPluginAccess('plugin generators are not available to tenants here'),
    clusterSecrets: () => deps.clusterSecrets().filter((secret) => isClusterPermitted(tenant.project, clusterOf(secret))),
    // Never the platform's access either: without a tenant access, a tenant's clusterDecisionResource generators fail.
    decisionResources: tenantDecisions ? () => tenantDecisions(tenant) : undefined,
  };
}

/** The cluster a Secret describes; a malformed Secret names no cluster (the generator reports it). */
function clusterOf(secret: V1Secret): { server?: string; name?: string } {
  try {
    const cluster = parseClusterSecret(secret);
    return { server: cluster.server, name: cluster.name };
  } catch {
    return {};
  }
}

/**
 * Argo CD's checks of the generated Applications (project exists, destination names a known cluster), for the
 * platform's ApplicationSets and tenants' alike, against every cluster Secret: what a tenant may deploy to is
 * the tenant check's business, whether the cluster exists is this one's.
 */
export function validateApplications(
  deps: CheckDeps,
  appset: ApplicationSetObject,
  rendered: readonly RenderedApplication[],
  requeueAfterMs: number | undefined,
  log: Logger,
): void {
  const world = { projectExists: (name: string) => deps.projects(name) !== undefined, clusterSecrets: deps.clusterSecrets() };
  try {
    assertApplicationsValid(
      appset.metadata.name,
      rendered.map((r) => r.application),
      world,
      { requeueAfterMs: requeueAfterMs ?? VALIDATION_RETRY_MS },
    );
  } catch (error) {
    if (error instanceof InvalidApplicationsError) log.debug({ invalidApplications: error.problems }, 'generated Applications are invalid');
    throw error;
  }
}

/** How many Applications a tenant namespace holds now, and how many of them this ApplicationSet owns. */
export interface NamespaceCount {
  readonly namespace: string;
  readonly inNamespace: number;
  readonly owned: number;
}

/** Refuses the whole reconcile when the desired Applications would break a quota (tenants only). */
export function checkQuotas(deps: CheckDeps, count: NamespaceCount, desired: number): void {
  checkApplicationQuotas(deps.quotas ?? NO_QUOTAS, { namespace: count.namespace, desired, othersInNamespace: count.inNamespace - count.owned });
}
