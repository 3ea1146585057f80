import type { Logger } from 'pino';
import type { Application } from '../../model/objects.js';
import type { SyncPolicy } from '../../model/sync-policy.js';
import type { LiveFieldRules } from '../plan/apply-intent.js';
import { planChanges, type Plan } from '../plan/plan.js';
import { effectivePolicy, type PolicySettings } from '../plan/sync-policy.js';
import { readRollingSync } from '../rollout/rolling-sync.js';
import { rolloutWrites } from '../rollout/rollout.js';
import { Reason } from '../status/conditions.js';
import { allowsMassDeletion, type ApplicationSetObject } from './applicationset.js';
import { asReconcileFailure, ReconcileFailure } from './failure.js';
import { planRefusal } from './plan-refusal.js';
import { prepareReconcile } from './prepare.js';
import type { CheckDeps } from './reconcile-checks.js';

/** What a preview reads besides the checks' dependencies: the controller's policy settings. */
export interface PreviewDeps extends CheckDeps {
  readonly settings: PolicySettings & { readonly maxDeleteShare: number; readonly progressiveSyncs?: boolean };
}

/** The Applications a preview plans against, as the controller's cache would hold them. */
export interface PreviewWorld {
  /** The Applications this ApplicationSet controls now. */
  readonly owned: readonly Application[];
  /** Any Application of the ApplicationSet's namespace by name, owned or not. */
  readonly lookup: (name: string) => Application | undefined;
  /** How many Applications the namespace holds now (for the namespace quota). */
  readonly inNamespace: number;
}

/** A reconcile the controller would refuse or fail: the condition reason and message, and the plan when one was made. */
export interface PreviewFailure {
  readonly kind: 'refused' | 'failed';
  readonly reason: string;
  readonly message: string;
  readonly plan?: Plan;
  readonly policy?: SyncPolicy;
  readonly rules?: LiveFieldRules;
  readonly stepOf?: ReadonlyMap<string, number>;
}

/** A reconcile the controller would carry out: its plan, the policy in force and the live-field rules. */
export interface PreviewPlan {
  readonly kind: 'planned';
  readonly plan: Plan;
  readonly policy: SyncPolicy;
  readonly rules: LiveFieldRules;
  /** With progressive syncs and a RollingSync with steps: each generated Application's step (0-based), in the order they sync. */
  readonly stepOf?: ReadonlyMap<string, number>;
}

/** What the controller would do with an ApplicationSet, without writing anything. */
export type Preview = PreviewPlan | PreviewFailure;

/**
 * One reconcile as the controller runs it, up to the writes: the same stages, rules and plan, and the
 * refusal the condition would show (terminal failures are refusals; others, such as a generator that cannot
 * read Git, are failures the controller would retry). With progressive syncs, a RollingSync's Applications are
 * planned as its rollout writes them (without automated sync while it has steps), each with its step; when
 * they then sync follows their health, which a preview does not know.
 */
export async function previewReconcile(
  deps: PreviewDeps,
  appset: ApplicationSetObject,
  world: PreviewWorld,
  signal: AbortSignal,
  log: Logger,
): Promise<Preview> {
  try {
    const prepared = await prepareReconcile(deps, appset, {
      signal,
      log,
      freshRefs: false,
      namespaceCount: () => ({ inNamespace: world.inNamespace, owned: world.owned.length }),
    });
    let rollout: ReturnType<typeof rolloutWrites> = { desired: prepared.desired, stepOf: new Map() };
    try {
      // The rollout stage refuses a malformed strategy before the plan, when progressive syncs are on.
      const strategy = deps.settings.progressiveSyncs === true ? readRollingSync(appset.spec.strategy) : undefined;
      if (strategy) rollout = rolloutWrites(strategy, prepared.desired);
    } catch (error) {
      throw new ReconcileFailure({ reason: Reason.ValidationError, parametersGenerated: true }, error, appset);
    }
    const policy = effectivePolicy(appset.spec.syncPolicy?.applicationsSync, deps.settings);
    const plan = planChanges({
      appset: prepared.identity,
      desired: rollout.desired,
      owned: world.owned,
      lookup: world.lookup,
      policy,
      rules: prepared.rules,
      guard: { maxDeleteShare: deps.settings.maxDeleteShare, allowMassDeletion: allowsMassDeletion(appset) },
    });
    const steps = rollout.stepOf.size > 0 ? { stepOf: rollout.stepOf } : {};
    const refusal = planRefusal(plan, prepared.generated.requeueAfterMs);
    if (refusal) return { kind: 'refused', reason: refusal.reason, message: refusal.error.message, plan, policy, rules: prepared.rules, ...steps };
    return { kind: 'planned', plan, policy, rules: prepared.rules, ...steps };
  } catch (error) {
    const failure = asReconcileFailure(error, appset);
    return { kind: failure.terminal ? 'refused' : 'failed', reason: failure.reason, message: failure.message };
  }
}
