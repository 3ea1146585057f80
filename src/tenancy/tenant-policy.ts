import type { GitReader } from '../git/git-reader.js';
import { isDestinationPermitted, isSourceNamespacePermitted, isSourcePermitted, type AppProjectSpec } from './project.js';
import { refusedRepoUrl, type RepoUrlAllowances } from './repo-url-safety.js';
import { TerminalError } from '../model/action.js';
import type { GeneratedApplication } from '../model/applicationset-types.js';

/**
 * A tenancy rule an ApplicationSet broke; the message names the rule and the value. Terminal (a refusal, not a
 * retry), and a TerminalError so that a generator reading through the tenant's Git reader passes it on as it is.
 */
export class TenancyViolation extends TerminalError {
  override readonly name = 'TenancyViolation';
}

/** Looks up an AppProject by name in the controller's namespace. */
export type ProjectLookup = (name: string) => AppProjectSpec | undefined;

/** The tenant context a tenant ApplicationSet is checked in, once it passed {@link admitTenant}. */
export interface TenantContext {
  readonly namespace: string;
  readonly projectName: string;
  readonly project: AppProjectSpec;
}

/**
 * Admits a tenant ApplicationSet before anything runs: `template.spec.project` must be a literal name
 * (not templated), the AppProject must exist in the controller's namespace and list the tenant's
 * namespace in `spec.sourceNamespaces`. Throws a TenancyViolation naming the rule.
 */
export function admitTenant(namespace: string, templateProject: unknown, controllerNamespace: string, projects: ProjectLookup): TenantContext {
  if (typeof templateProject !== 'string' || templateProject.trim() === '') {
    throw new TenancyViolation(`template.spec.project must name an AppProject for ApplicationSets outside ${controllerNamespace}`);
  }
  if (templateProject.includes('{{')) {
    throw new TenancyViolation(
      `template.spec.project must be a literal AppProject name, not a template ("${templateProject}"), for ApplicationSets outside ${controllerNamespace}`,
    );
  }
  const project = projects(templateProject);
  if (!project) throw new TenancyViolation(`AppProject ${templateProject} does not exist in namespace ${controllerNamespace}`);
  if (!isSourceNamespacePermitted(project, namespace)) {
    throw new TenancyViolation(`AppProject ${templateProject} does not list namespace ${namespace} in spec.sourceNamespaces`);
  }
  return { namespace, projectName: templateProject, project };
}

/** Refuses a repository a tenant's generators may not read: unsafe URL or outside the project's sourceRepos. */
export function checkTenantRepo(tenant: TenantContext, repoURL: string, allowances?: RepoUrlAllowances): void {
  const unsafe = refusedRepoUrl(repoURL, allowances);
  if (unsafe) throw new TenancyViolation(`repository ${JSON.stringify(repoURL)} is refused: ${unsafe}`);
  if (!isSourcePermitted(tenant.project, repoURL)) {
    throw new TenancyViolation(`repository ${repoURL} is not in the sourceRepos of AppProject ${tenant.projectName}`);
  }
}

/** A GitReader that checks every repository against the tenant's rules before any Git traffic. */
export function tenantGitReader(reader: GitReader, tenant: TenantContext, allowances?: RepoUrlAllowances): GitReader {
  const guard = (repoURL: string): void => checkTenantRepo(tenant, repoURL, allowances);
  return {
    resolveRevision: (repoURL, revision, signal, options) => (guard(repoURL), reader.resolveRevision(repoURL, revision, signal, options)),
    listDirectories: (repoURL, commit, signal) => (guard(repoURL), reader.listDirectories(repoURL, commit, signal)),
    listFiles: (repoURL, commit, signal) => (guard(repoURL), reader.listFiles(repoURL, commit, signal)),
    readFile: (repoURL, commit, path, signal) => (guard(repoURL), reader.readFile(repoURL, commit, path, signal)),
  };
}

/** What tenancy checks of a generated Application: its name and spec. */
export interface CheckedApplication {
  readonly metadata: Pick<GeneratedApplication['metadata'], 'name'>;
  readonly spec: Readonly<GeneratedApplication['spec']>;
}

/**
 * Checks every generated Application of a tenant: its project is the admitted one (a generator
 * template or patch cannot switch it), every source repository is in sourceRepos, and its
 * destination is in the project's destinations. Throws a TenancyViolation for the first breach.
 */
export function checkTenantApplications(tenant: TenantContext, applications: readonly CheckedApplication[]): void {
  for (const app of applications) {
    const spec = app.spec as {
      project?: unknown;
      source?: { repoURL?: unknown };
      sources?: Array<{ repoURL?: unknown }>;
      destination?: { server?: unknown; name?: unknown; namespace?: unknown };
    };
    const where = `Application ${app.metadata.name}`;
    if (spec.project !== tenant.projectName)
      throw new TenancyViolation(`${where}: spec.project is "${String(spec.project)}", but this ApplicationSet may only use AppProject ${tenant.projectName}`);
    for (const source of [spec.source, ...(spec.sources ?? [])].filter((s) => s !== undefined)) {
      const repoURL = typeof source.repoURL === 'string' ? source.repoURL : '';
      if (!isSourcePermitted(tenant.project, repoURL))
        throw new TenancyViolation(`${where}: source repository ${repoURL || '(none)'} is not in the sourceRepos of AppProject ${tenant.projectName}`);
    }
    const destination = { server: text(spec.destination?.server), name: text(spec.destination?.name), namespace: text(spec.destination?.namespace) };
    if (!isDestinationPermitted(tenant.project, destination)) {
      const target = destination.server ?? destination.name ?? '(none)';
      throw new TenancyViolation(
        `${where}: destination ${target} namespace ${destination.namespace ?? '(none)'} is not in the destinations of AppProject ${tenant.projectName}`,
      );
    }
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
