import type { Application } from '../../model/objects.js';
import { observeApplications, promoteWaiting, rolloutStatusesDiffer, syncAllowed, type ApplicationRolloutStatus } from './application-status.js';
import type { RollingSync } from './rolling-sync.js';
import { rolloutCondition, type RolloutCondition } from './rollout-condition.js';
import { assignSteps } from './steps.js';
import { syncOperation, withoutAutoSync, type SyncOperation } from './sync-operation.js';

/** What one reconcile of a RollingSync ApplicationSet decides from; read from the cache, never mutated. */
export interface RolloutInput {
  readonly strategy: RollingSync;
  /** `status.applicationStatus` as stored. */
  readonly previous: readonly ApplicationRolloutStatus[];
  /** The generated Applications, validated. */
  readonly desired: readonly Application[];
  /** The live Applications the ApplicationSet owns. */
  readonly owned: readonly Application[];
  /** RFC 3339 time, seconds precision, for new transitions. */
  readonly now: string;
}

/** A rollout decision: the status to store, the Applications to write and the syncs to start. */
export interface RolloutPlan {
  /** The new `status.applicationStatus`, sorted by Application name. */
  readonly statuses: readonly ApplicationRolloutStatus[];
  /** True when `statuses` differs from the stored list in what Argo CD compares, so it must be written. */
  readonly statusChanged: boolean;
  readonly condition: RolloutCondition;
  /** The generated Applications as they are to be written: without automated sync while steps are defined. */
  readonly desired: readonly Application[];
  /** Applications whose sync starts now, with the operation that starts it. */
  readonly syncs: ReadonlyArray<{ readonly name: string; readonly operation: SyncOperation }>;
}

/**
 * Argo CD's RollingSync, decided in one pure step: observe the live Applications, decide which steps may sync,
 * move Waiting Applications to Pending within `maxUpdate`, and start a sync for each Pending Application that
 * may sync and is OutOfSync. One that already carries an operation (its sync requested and not yet taken up,
 * or someone else's) is left alone rather than requested twice.
 */
export function planRollout(input: RolloutInput): RolloutPlan {
  const { strategy, previous, now } = input;
  const steps = assignSteps(
    strategy.steps,
    input.desired.map((app) => ({ name: app.metadata.name, ...(app.metadata.labels ? { labels: app.metadata.labels } : {}) })),
  );
  const live = new Map(input.owned.map((app) => [app.metadata.name, app]));
  if (strategy.steps.length === 0) {
    // RollingSync without steps: Argo CD keeps no entries, reports the rollout complete and leaves auto-sync alone.
    return { statuses: [], statusChanged: previous.length > 0, condition: rolloutCondition(0, []), desired: input.desired, syncs: [] };
  }
  const observed = sortByName(observeApplications(previous, input.owned, steps, now));
  const allowed = syncAllowed(steps, observed, live);
  const statuses = promoteWaiting(observed, strategy.steps, steps, allowed, now);
  const byName = new Map(statuses.map((entry) => [entry.application, entry]));
  const desired: Application[] = [];
  const syncs: Array<{ name: string; operation: SyncOperation }> = [];
  for (const generated of input.desired) {
    const { app, prune } = withoutAutoSync(generated);
    desired.push(app);
    const name = app.metadata.name;
    const current = live.get(name);
    const pending = byName.get(name)?.status === 'Pending';
    if (pending && allowed.get(name) === true && current?.status?.sync?.status === 'OutOfSync' && current.operation === undefined) {
      syncs.push({ name, operation: syncOperation(app, prune) });
    }
  }
  return {
    statuses,
    statusChanged: rolloutStatusesDiffer(previous, statuses),
    condition: rolloutCondition(strategy.steps.length, statuses),
    desired,
    syncs,
  };
}

/**
 * The generated Applications as a RollingSync writes them, and each one's step (0-based; absent when no step
 * selects it): without automated sync while steps are defined (the rollout, not Argo CD's auto-sync, decides
 * when they sync). Without steps nothing changes and there are no steps. What a preview shows is what
 * {@link planRollout} writes.
 */
export function rolloutWrites(
  strategy: RollingSync,
  desired: readonly Application[],
): { desired: readonly Application[]; stepOf: ReadonlyMap<string, number> } {
  if (strategy.steps.length === 0) return { desired, stepOf: new Map() };
  const labelled = desired.map((app) => ({ name: app.metadata.name, ...(app.metadata.labels ? { labels: app.metadata.labels } : {}) }));
  return { desired: desired.map((app) => withoutAutoSync(app).app), stepOf: assignSteps(strategy.steps, labelled).stepOf };
}

/** Seconds-precision RFC 3339, as Kubernetes' metav1.Time serializes. */
export function kubeTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function sortByName(entries: ApplicationRolloutStatus[]): ApplicationRolloutStatus[] {
  return entries.sort((a, b) => (a.application < b.application ? -1 : a.application > b.application ? 1 : 0));
}
