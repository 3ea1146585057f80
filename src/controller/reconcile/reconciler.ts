import type { KubeObject, ReadonlyStore } from '../../kube/informer/index.js';
import type { PolicySettings } from '../plan/sync-policy.js';
import { effectivePolicy } from '../plan/sync-policy.js';
import { awaitChange, requeue, type Action } from '../../model/action.js';
import { Reason } from '../status/conditions.js';
import { allowsMassDeletion, type ApplicationSetObject } from './applicationset.js';
import { prepareApplications, prepareGeneration, type PrepareContext } from './prepare.js';
import type { Generated } from './generate.js';
import type { TenantContext } from '../../tenancy/tenant-policy.js';
import type { ReconcileInputs, UnchangedInputsMemo } from './unchanged-inputs.js';
import type { CheckDeps } from './reconcile-checks.js';
import { executePlan, type ExecutionResult } from '../write/execute-plan.js';
import type { WritePool } from '../write/write-pool.js';
import type { Application } from '../../model/objects.js';
import { planChanges, type Plan } from '../plan/plan.js';
import { planRefusal } from './plan-refusal.js';
import { recordEvent, reportStatus, someNames, type Reporter } from '../status/report.js';
import type { ReconcileContext, ReconcileFunction } from './runner.js';
import type { ApplicationWriter } from '../write/application-writer.js';
import type { RefreshClearer } from '../write/refresh-annotation.js';
import { REFRESH_ANNOTATION } from '../routing/triggers.js';
import { asReconcileFailure, ReconcileFailure } from './failure.js';
import { OWNER_UID_INDEX } from '../routing/caches.js';
import { rolloutStage, startSyncs } from './rollout.js';

/** Everything a reconcile reads and writes through; all reads come from informer stores. */
export interface ReconcilerDeps extends CheckDeps {
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
  const owned = deps.applications.byIndex(OWNER_UID_INDEX, stored.metadata.uid) as unknown as Application[];
  const prepareContext = prepareContextOf(deps, appset, owned.length, ctx);
  const generation = await prepareGeneration(deps, appset, prepareContext);
  const { generated } = generation;
  const inputs = unchangedInputsOf(deps, appset, generation.tenant, generated);
  if (inputs && deps.unchangedInputs?.unchanged(inputs)) {
    deps.observeUnchanged?.();
    ctx.log.debug('inputs unchanged since the last successful reconcile: nothing rendered, planned or written');
    return actionAfter(generated);
  }
  const { rules, identity, desired } = await prepareApplications(deps, appset, prepareContext, generation);
  const rollout = await stage(Reason.ValidationError, true, () =>
    rolloutStage(deps.reporter, deps.settings.progressiveSyncs === true, appset, desired, owned, ctx.log),
  );
  if (rollout === 'stale') return requeue(STALE_ROLLOUT_RETRY_MS);
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
      desired.map((app) => app.metadata.name),
    );
  const result = await executePlan(plan, deps.writer, deps.writePool);
  deps.observeWrites?.(result);
  await announceChanges(deps, appset, result, ctx);
  const problem = firstProblem(plan, result, generated.requeueAfterMs);
  if (problem) throw new ReconcileFailure({ reason: problem.reason, parametersGenerated: true }, problem.error, appset);
  await stage(Reason.UpdateApplicationError, true, () => startSyncs(deps.writer, identity.namespace, rollout.syncs, ctx.log));
  // Remembered before the status goes: a closing status that waits and then fails forgets it again, after this.
  if (remembered) deps.unchangedInputs?.remember(appset, remembered);
  await reportStatus(deps.reporter, appset, { kind: 'success' }, ownedAfter(owned, plan, result), ctx.log, rollout.report, 'after-writes');
  if (refreshRequested(appset)) await deps.refresh.clear(appset.metadata);
  ctx.log.info(
    { created: result.created.length, updated: result.updated.length, deleted: result.deleted.length, unchanged: plan.unchanged.length },
    'reconciled',
  );
  return actionAfter(generated);
}

/** What the stages before the plan need from a reconcile (or from the resync's look at a key). */
export function prepareContextOf(
  deps: ReconcilerDeps,
  appset: ApplicationSetObject,
  ownedCount: number,
  ctx: Pick<ReconcileContext, 'signal' | 'log'>,
): PrepareContext {
  return {
    signal: ctx.signal,
    log: ctx.log,
    freshRefs: refreshRequested(appset),
    namespaceCount: () => ({ inNamespace: deps.applications.listByNamespace(appset.metadata.namespace).length, owned: ownedCount }),
  };
}

/** A successful reconcile's Action: run again when the generators' poll interval is up, or on a change. */
function actionAfter(generated: Generated): Action {
  return generated.requeueAfterMs === undefined ? awaitChange() : requeue(generated.requeueAfterMs);
}

/**
 * The inputs of a reconcile for the unchanged-inputs memo, or undefined where it does not apply: a
 * refresh (it asks for a full run), a progressive sync (its steps follow the Applications' health), and a
 * tenant with a per-namespace quota (it counts Applications other ApplicationSets own).
 */
export function unchangedInputsOf(
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

/** Whether the ApplicationSet carries the refresh annotation (cleared once a reconcile succeeds). */
function refreshRequested(appset: ApplicationSetObject): boolean {
  return appset.metadata.annotations?.[REFRESH_ANNOTATION] !== undefined;
}

/** The first thing that keeps the ApplicationSet from being up to date, as a condition reason and error. */
function firstProblem(plan: Plan, result: ExecutionResult, requeueAfterMs: number | undefined): { reason: string; error: Error } | undefined {
  const refusal = planRefusal(plan, requeueAfterMs);
  if (refusal) return refusal;
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
