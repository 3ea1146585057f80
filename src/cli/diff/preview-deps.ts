import type { GenerateDeps } from '../../controller/reconcile/generate.js';
import type { PreviewDeps } from '../../controller/reconcile/preview.js';
import type { SyncPolicy } from '../../model/sync-policy.js';
import { defaultAppProject, DEFAULT_PROJECT } from '../../tenancy/default-project.js';
import type { AppProjectSpec } from '../../tenancy/project.js';
import type { ApplicationQuotas } from '../../tenancy/quotas.js';

/** The controller settings a preview assumes: its namespace, sync policy, deletion guard and quotas (its flags' defaults unless given). */
export interface ControllerAssumptions {
  readonly controllerNamespace: string;
  readonly policy: SyncPolicy;
  readonly enablePolicyOverride: boolean;
  readonly maxDeleteShare: number;
  /** `--enable-progressive-syncs`: only then is a RollingSync strategy read (and a malformed one refused). */
  readonly progressiveSyncs: boolean;
  readonly quotas: ApplicationQuotas;
}

/**
 * AppProjects by name from manifests: every `kind: AppProject` document of the controller's namespace (or with
 * none), later documents winning; Argo CD's `default` AppProject unless one is given.
 */
export function projectsIn(documents: readonly unknown[], controllerNamespace: string): Map<string, AppProjectSpec> {
  const projects = new Map<string, AppProjectSpec>([[DEFAULT_PROJECT, defaultAppProject(controllerNamespace).spec]]);
  for (const doc of documents) {
    const object = doc as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown }; spec?: unknown } | null;
    if (object?.kind !== 'AppProject' || typeof object.metadata?.name !== 'string') continue;
    const namespace = object.metadata.namespace;
    if (namespace !== undefined && namespace !== controllerNamespace) continue;
    projects.set(object.metadata.name, object.spec ?? {});
  }
  return projects;
}

/**
 * What a preview runs through: the generators' dependencies for every ApplicationSet, platform's and tenants'
 * alike (offline there are only the `--clusters` file's credentials), and the controller's tenancy settings.
 */
export function previewDeps(generate: GenerateDeps, projects: ReadonlyMap<string, AppProjectSpec>, assume: ControllerAssumptions): PreviewDeps {
  const plugins = generate.plugins;
  const decisions = generate.decisionResources;
  return {
    ...generate,
    controllerNamespace: assume.controllerNamespace,
    projects: (name) => projects.get(name),
    tenantGit: () => generate.git,
    tenantScm: () => generate.scm,
    ...(plugins ? { tenantPlugins: () => plugins } : {}),
    ...(decisions ? { tenantDecisionResources: (tenant) => decisions(tenant.namespace) } : {}),
    quotas: assume.quotas,
    settings: {
      policy: assume.policy,
      enablePolicyOverride: assume.enablePolicyOverride,
      maxDeleteShare: assume.maxDeleteShare,
      progressiveSyncs: assume.progressiveSyncs,
    },
  };
}
