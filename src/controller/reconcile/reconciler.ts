import type { KubeObject, ReadonlyStore } from '../../kube/informer/index.js';
import type { PolicySettings } from '../plan/sync-policy.js';
import { effectivePolicy } from '../plan/sync-policy.js';
import { awaitChange, requeue, TerminalError, type Action } from '../../model/action.js';
import { allowsMassDeletion, identityOf, liveFieldRulesOf, type ApplicationSetObject } from './applicationset.js';
import { Reason } from '../status/conditions.js';
import { desiredApplication } from './desired-application.js';
import { executePlan, type ExecutionResult } from '../write/execute-plan.js';
import type { WritePool } from '../write/write-pool.js';
import { generate, type GenerateDeps, type Generated } from './generate.js';
import type { Application } from '../../model/objects.js';
import { planChanges, type Plan } from '../plan/plan.js';
import { recordEvent, reportStatus, someNames, type Reporter } from '../status/report.js';
import type { ReconcileContext, ReconcileFunction } from './runner.js';
import { renderApplicationSet } from '../../templating/render-applicationset.js';
import type { ApplicationWriter } from '../write/application-writer.js';
import type { RefreshClearer } from '../write/refresh-annotation.js';
import { REFRESH_ANNOTATION } from '../routing/triggers.js';
import { freshRefsGitReader } from './fresh-git.js';
import { asReconcileFailure, ReconcileFailure } from './failure.js';
import { OWNER_UID_INDEX } from '../routing/caches.js';
import type { V1Secret } from '@kubernetes/client-node';
import type { GitReader } from '../../git/git-reader.js';
import type { ScmAccess } from '../../scm/access.js';
import type { PluginAccess } from '../../scm/plugin/access.js';
import { noPluginAccess } from '../../scm/plugin/no-access.js';
import { isClusterPermitted } from '../../tenancy/project.js';
import { rolloutStage, startSyncs } from './rollout.js';
import { KubeApiError } from '../../kube/transport/api-errors.js';
import { parseClusterSecret } from '../../generators/cluster-secrets.js';
import type { RepoUrlAllowances } from '../../tenancy/repo-url-safety.js';
import { checkApplicationQuotas, NO_QUOTAS, type ApplicationQuotas } from '../../tenancy/quotas.js';
import { assertApplicationsValid, InvalidApplicationsError, VALIDATION_RETRY_MS } from './validate-applications.js';
import type { RenderedApplication } from '../../model/applicationset-types.js';
import { admitTenant, checkTenantApplications, tenantGitReader, type ProjectLookup, type TenantContext } from '../../tenancy/tenant-policy.js';
import type { ReconcileInputs, UnchangedInputsMemo } from './unchanged-inputs.js';

/** Everything a reconcile reads and writes through; all reads come from informer stores. */
export interface ReconcilerDeps extends GenerateDeps {
  /** ApplicationSets (read as {@link ApplicationSetObject}). */
  readonly applicationSets: ReadonlyStore<KubeObject>;
  /** Applications, indexed by {@link OWNER_UID_INDEX}. */
  readonly applications: ReadonlyStore<KubeObject>;
  readonly writer: ApplicationWriter;
  /** Writes in flight shared by this replica's reconciles (default: 20 per reconcile, not shared). */
  readonly writePool?: WritePool;
  readonly refresh: RefreshClearer;
  readonly reporter: Reporter;
  readonly settings: PolicySettings & {
    readonly maxDeleteShare: number;
    /** Argo CD's `--enable-progressive-syncs`: RollingSync strategies are carried out (otherwise their Applications sync as templated). */
    readonly progressiveSyncs?: boolean;
  };
  /** The controller's own namespace: ApplicationSets there are the platform's; all others are tenants'. */
  readonly controllerNamespace: string;
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
  /** Application quotas of tenant namespaces (none when absent). */
  readonly quotas?: ApplicationQuotas;
  /** Observes what each reconcile's writes did (for the metrics). */
  readonly observeWrites?: (result: ExecutionResult) => void;
  /**
   * Lets a reconcile whose inputs equal those of the last successful one stop after generating (absent:
   * every reconcile runs in full). Needs {@link cacheVersions}.
   */
  readonly unchangedInputs?: UnchangedInputsMemo;
  /** Versions of the caches a reconcile reads beyond ApplicationSets, Applications and Secrets (the AppProjects informer's). */
  readonly cacheVersions?: () => string;
  /** Counts a reconcile that stopped after generating because nothing had changed. */
  readonly observeUnchanged?: () => void;
}

/**
 * Builds the reconcile function: cache → generators → renderer → plan → writes → status. It returns an
 * Action or throws a {@link ReconcileFailure}, never anything else; the runner reports the failure.
 */
export function createReconciler(deps: ReconcilerDeps): ReconcileFunction {
  return async (key, ctx) => {
    const appset = deps.applicationSets.get(key) as unknown as ApplicationSetObject | undefined;
    if (!appset || appset.metadata.deletionTimestamp) return awaitChange(); // the garbage collector removes its Applications
    try {
      return await reconcileOne(deps, appset, ctx);
    } catch (error) {
      deps.unchangedInputs?.forget(appset); // the next reconcile runs in full, whatever its inputs
      throw asReconcileFailure(error, appset);
    }
  };
}

async function reconcileOne(deps: ReconcilerDeps, stored: ApplicationSetObject, ctx: ReconcileContext): Promise<Action> {
  // Replaced by the ApplicationSet as it stands after the rollout's status write, so later writes and failures use its resourceVersion.
  let appset = stored;
  const stage = async <T>(reason: string, parametersGenerated: boolean, action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      throw new ReconcileFailure({ reason, parametersGenerated }, error, appset);
    }
  };
  const tenant = await stage(Reason.ValidationError, false, () => Promise.resolve(admit(deps, appset)));
  const scoped = tenant ? tenantScoped(deps, tenant) : deps;
  const generateDeps = refreshRequested(appset) ? { ...scoped, git: freshRefsGitReader(scoped.git) } : scoped;
  const generated = await stage(Reason.ParamsGenerationError, false, () => generate(appset, generateDeps, ctx.signal, ctx.log));
  const inputs = unchangedInputsOf(deps, appset, tenant, generated);
  if (inputs && deps.unchangedInputs?.unchanged(inputs)) {
    deps.observeUnchanged?.();
    ctx.log.debug('inputs unchanged since the last successful reconcile: nothing rendered, planned or written');
    return actionAfter(generated);
  }
  // The replica's one template engine: its compiled-template cache outlives this reconcile.
  const rendered = await stage(Reason.RenderTemplateParamsError, true, () =>
    Promise.resolve(renderApplicationSet(appset, generated.outputs, { engine: deps.engine })),
  );
  if (tenant)
    await stage(Reason.ValidationError, true, () =>
      Promise.resolve(
        checkTenantApplications(
          tenant,
          rendered.map((r) => r.application),
        ),
      ),
    );
  await stage(Reason.ValidationError, true, () => Promise.resolve(validateApplications(deps, appset, rendered, generated.requeueAfterMs, ctx)));
  const rules = await stage(Reason.ValidationError, true, () => Promise.resolve(liveFieldRulesOf(appset)));
  const identity = identityOf(appset);
  const owned = deps.applications.byIndex(OWNER_UID_INDEX, identity.uid) as unknown as Application[];
  if (tenant) await stage(Reason.ValidationError, true, () => Promise.resolve(checkQuotas(deps, identity.namespace, rendered.length, owned.length)));
  const generatedApps = rendered.map((r) => desiredApplication(r.application, identity));
  const rollout = await stage(Reason.ValidationError, true, () =>
    rolloutStage(deps.reporter, deps.settings.progressiveSyncs === true, appset, generatedApps, owned, ctx.log),
  ).catch((error: unknown) => {
    if (!isConflict(error)) throw error;
    // Another replica moved the rollout on and this cache has not seen it yet: nothing was written; look again.
    ctx.log.debug('rollout status not written: the ApplicationSet changed since it was read');
    return undefined;
  });
  if (!rollout) return requeue(STALE_ROLLOUT_RETRY_MS);
  appset = rollout.appset;
  const plan = planChanges({
    appset: identity,
    desired: rollout.desired,
    owned,
    lookup: (name) => deps.applications.getByName(identity.namespace, name) as unknown as Application | undefined,
    policy: effectivePolicy(appset.spec.syncPolicy?.applicationsSync, deps.settings),
    rules,
    guard: { maxDeleteShare: deps.settings.maxDeleteShare, allowMassDeletion: allowsMassDeletion(appset) },
  });
  // Taken before the writes: the Applications this plan wants, as the cache holds them now.
  const remembered =
    inputs &&
    deps.unchangedInputs?.fingerprintOf(
      inputs,
      generatedApps.map((app) => app.metadata.name),
    );
  const result = await executePlan(plan, deps.writer, deps.writePool);
  deps.observeWrites?.(result);
  await announceChanges(deps, appset, result, ctx);
  const problem = firstProblem(plan, result, generated.requeueAfterMs);
  if (problem) throw new ReconcileFailure({ reason: problem.reason, parametersGenerated: true }, problem.error, appset);
  const syncFailure = (await startSyncs(deps.writer, identity.namespace, rollout.syncs, ctx.log))[0];
  if (syncFailure) {
    const detail = syncFailure.error instanceof Error ? syncFailure.error.message : String(syncFailure.error);
    throw new ReconcileFailure(
      { reason: Reason.UpdateApplicationError, parametersGenerated: true },
      new Error(`starting the sync of Application ${syncFailure.name} failed: ${detail}`),
      appset,
    );
  }
  await reportStatus(deps.reporter, appset, { kind: 'success' }, ownedAfter(owned, plan, result), ctx.log, rollout.report);
  if (refreshRequested(appset)) await deps.refresh.clear(appset.metadata);
  ctx.log.info(
    { created: result.created.length, updated: result.updated.length, deleted: result.deleted.length, unchanged: plan.unchanged.length },
    'reconciled',
  );
  if (remembered) deps.unchangedInputs?.remember(appset, remembered);
  return actionAfter(generated);
}

/** A successful reconcile's Action: run again when the generators' poll interval is up, or on a change. */
function actionAfter(generated: Generated): Action {
  return generated.requeueAfterMs === undefined ? awaitChange() : requeue(generated.requeueAfterMs);
}

/**
 * The inputs of this reconcile for the unchanged-inputs memo, or undefined where it does not apply: a
 * refresh (it asks for a full run), a progressive sync (its steps follow the Applications' health), and a
 * tenant with a per-namespace quota (it counts Applications other ApplicationSets own).
 */
function unchangedInputsOf(
  deps: ReconcilerDeps,
  appset: ApplicationSetObject,
  tenant: TenantContext | undefined,
  generated: Generated,
): ReconcileInputs | undefined {
  if (!deps.unchangedInputs || !deps.cacheVersions || refreshRequested(appset) || appset.spec.strategy !== undefined) return undefined;
  if (tenant && (deps.quotas?.perNamespace ?? 0) > 0) return undefined;
  return {
    appset,
    generated,
    owned: deps.applications.byIndex(OWNER_UID_INDEX, appset.metadata.uid) as unknown as Application[],
    applications: deps.applications,
    clusterSecrets: deps.clusterSecrets(),
    cacheVersions: deps.cacheVersions(),
  };
}

/** How soon a reconcile whose rollout status write met a newer ApplicationSet runs again (its watch event usually comes first). */
const STALE_ROLLOUT_RETRY_MS = 1_000;

/** True for a ReconcileFailure caused by an HTTP 409 (the object changed since it was read). */
function isConflict(error: unknown): boolean {
  const cause = error instanceof ReconcileFailure ? error.cause : error;
  return cause instanceof KubeApiError && cause.status === 409;
}

/** Whether the ApplicationSet carries the refresh annotation (cleared once a reconcile succeeds). */
function refreshRequested(appset: ApplicationSetObject): boolean {
  return appset.metadata.annotations?.[REFRESH_ANNOTATION] !== undefined;
}

/** The tenant an ApplicationSet outside the controller's namespace acts for; undefined for the platform's own. */
function admit(deps: ReconcilerDeps, appset: ApplicationSetObject): TenantContext | undefined {
  if (appset.metadata.namespace === deps.controllerNamespace) return undefined;
  return admitTenant(appset.metadata.namespace, appset.spec.template.spec?.project, deps.controllerNamespace, deps.projects);
}

/**
 * Argo CD's checks of the generated Applications (project exists, destination names a known cluster), for the
 * platform's ApplicationSets and tenants' alike, against every cluster Secret: what a tenant may deploy to is
 * the tenant check's business, whether the cluster exists is this one's.
 */
function validateApplications(
  deps: ReconcilerDeps,
  appset: ApplicationSetObject,
  rendered: readonly RenderedApplication[],
  requeueAfterMs: number | undefined,
  ctx: ReconcileContext,
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
    if (error instanceof InvalidApplicationsError) ctx.log.debug({ invalidApplications: error.problems }, 'generated Applications are invalid');
    throw error;
  }
}

/** Refuses the whole reconcile when the desired Applications would break a quota (tenants only). */
function checkQuotas(deps: ReconcilerDeps, namespace: string, desired: number, ownedCount: number): void {
  const othersInNamespace = deps.applications.listByNamespace(namespace).length - ownedCount;
  checkApplicationQuotas(deps.quotas ?? NO_QUOTAS, { namespace, desired, othersInNamespace });
}

/** Generator dependencies narrowed to what the tenant may reach: its repositories and its clusters. */
function tenantScoped(deps: ReconcilerDeps, tenant: TenantContext): GenerateDeps {
  return {
    ...deps,
    git: tenantGitReader(deps.tenantGit(tenant), tenant, deps.tenantRepoAllowances),
    scm: deps.tenantScm(tenant),
    // Never the platform's access: without a tenant access, a tenant's plugin generators are refused.
    plugins: deps.tenantPlugins?.(tenant) ?? noPluginAccess('plugin generators are not available to tenants here'),
    clusterSecrets: () => deps.clusterSecrets().filter((secret) => isClusterPermitted(tenant.project, clusterOf(secret))),
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

/** The first thing that keeps the ApplicationSet from being up to date, as a condition reason and error. */
function firstProblem(plan: Plan, result: ExecutionResult, requeueAfterMs: number | undefined): { reason: string; error: Error } | undefined {
  const conflict = plan.conflicts[0];
  if (conflict) {
    const more = plan.conflicts.length > 1 ? ` (and ${plan.conflicts.length - 1} more)` : '';
    return {
      reason: Reason.UpdateApplicationError,
      error: new TerminalError(`Application ${conflict.name} already exists and is controlled by ${conflict.owner}; it is not taken over${more}`, {
        requeueAfterMs,
      }),
    };
  }
  if (plan.deletionRefused) {
    const { wanted, owned, allowed } = plan.deletionRefused;
    const message = `refusing to delete ${wanted} of ${owned} Applications in one reconcile (at most ${allowed} allowed); if this is intended, annotate the ApplicationSet with appset-controller.io/allow-mass-deletion: "true"`;
    return { reason: Reason.DeleteApplicationError, error: new TerminalError(message, { requeueAfterMs }) };
  }
  const failure = result.failures[0];
  if (failure) {
    const reason =
      failure.operation === 'create'
        ? Reason.CreateApplicationError
        : failure.operation === 'update'
          ? Reason.UpdateApplicationError
          : Reason.DeleteApplicationError;
    const detail = failure.error instanceof Error ? failure.error.message : String(failure.error);
    return {
      reason,
      error: new Error(
        `${failure.operation} of Application ${failure.name} failed: ${detail}${result.failures.length > 1 ? ` (and ${result.failures.length - 1} more)` : ''}`,
      ),
    };
  }
  return undefined;
}

/** The owned Applications once the plan's writes are done, for `status.resources`. */
function ownedAfter(owned: readonly Application[], plan: Plan, result: ExecutionResult): Application[] {
  const deleted = new Set(result.deleted);
  const created = plan.create.filter((app) => result.created.includes(app.metadata.name));
  return [...owned.filter((app) => !deleted.has(app.metadata.name)), ...created];
}

async function announceChanges(deps: ReconcilerDeps, appset: ApplicationSetObject, result: ExecutionResult, ctx: ReconcileContext): Promise<void> {
  const changes: Array<[string, string[]]> = [
    ['Created', result.created],
    ['Updated', result.updated],
    ['Deleted', result.deleted],
  ];
  for (const [reason, names] of changes) {
    if (names.length === 0) continue;
    const message = `${reason.toLowerCase()} ${names.length} Application${names.length === 1 ? '' : 's'}: ${someNames(names)}`;
    await recordEvent(deps.reporter, appset, { type: 'Normal', reason, message }, ctx.log);
  }
}
