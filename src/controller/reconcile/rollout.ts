import type { Logger } from 'pino';
import { KubeApiError } from '../../kube/transport/api-errors.js';
import type { Application } from '../../model/objects.js';
import type { ApplicationSetObject } from './applicationset.js';
import type { Reporter, RolloutReport } from '../status/report.js';
import { kubeTime, planRollout } from '../rollout/rollout.js';
import { namesRollingSync, readRollingSync } from '../rollout/rolling-sync.js';
import type { SyncOperation } from '../rollout/sync-operation.js';
import type { ApplicationWriter } from '../write/application-writer.js';
import type { ApplicationRolloutStatus } from '../rollout/application-status.js';

/** The rollout's part of one reconcile: what to write, which syncs to start, and what the status says. */
export interface RolloutStage {
  /** The ApplicationSet as it stands after the rollout's status write (its new resourceVersion and `applicationStatus`). */
  readonly appset: ApplicationSetObject;
  /** The Applications to write (without automated sync under RollingSync). */
  readonly desired: readonly Application[];
  readonly syncs: ReadonlyArray<{ readonly name: string; readonly operation: SyncOperation }>;
  readonly report: RolloutReport;
}

/**
 * Decides the RollingSync step of a reconcile and stores its `status.applicationStatus` before anything else
 * is written, as Argo CD does: a replica that dies after this write leaves the decision for the next one, and
 * one that dies before it leaves nothing half done. Without progressive syncs, or without RollingSync, stale
 * entries are removed. With progressive syncs on, a malformed strategy throws a TerminalError naming the field. `stale` when the status could
 * not be written because the ApplicationSet changed since it was read (the caller looks again shortly).
 */
export async function rolloutStage(
  reporter: Reporter,
  progressiveSyncs: boolean,
  appset: ApplicationSetObject,
  desired: readonly Application[],
  owned: readonly Application[],
  log: Logger,
): Promise<RolloutStage | 'stale'> {
  const stored = appset.status?.applicationStatus ?? [];
  // Switched off, the strategy is not read at all (as Argo CD): a malformed one is not refused either.
  const strategy = progressiveSyncs ? readRollingSync(appset.spec.strategy) : undefined;
  if (!strategy) {
    const cleared = stored.length > 0 ? await writeRolloutStatus(reporter, appset, null) : appset;
    return { appset: cleared, desired, syncs: [], report: !progressiveSyncs && namesRollingSync(appset.spec.strategy) ? 'keep' : 'remove' };
  }
  const plan = planRollout({ strategy, previous: stored, desired, owned, now: kubeTime(reporter.now()) });
  let written = appset;
  try {
    if (plan.statusChanged) written = await writeRolloutStatus(reporter, appset, plan.statuses);
  } catch (error) {
    if (!(error instanceof KubeApiError && error.status === 409)) throw error;
    // Another replica moved the rollout on and this cache has not seen it yet: nothing was written; look again.
    log.debug('rollout status not written: the ApplicationSet changed since it was read');
    return 'stale';
  }
  if (plan.statusChanged)
    log.info({ moved: movedEntries(stored, plan.statuses), syncs: plan.syncs.length, rollout: plan.condition.message }, 'rollout status changed');
  return { appset: written, desired: plan.desired, syncs: plan.syncs, report: plan.condition };
}

/** Writes (or with null removes) `status.applicationStatus` and returns the ApplicationSet as it now stands. */
async function writeRolloutStatus(
  reporter: Reporter,
  appset: ApplicationSetObject,
  statuses: NonNullable<ApplicationSetObject['status']>['applicationStatus'] | null,
): Promise<ApplicationSetObject> {
  const resourceVersion = await reporter.status.write(appset.metadata, { applicationStatus: statuses });
  const status = { ...appset.status, ...(statuses ? { applicationStatus: statuses } : { applicationStatus: undefined }) };
  return { ...appset, metadata: { ...appset.metadata, resourceVersion: resourceVersion ?? appset.metadata.resourceVersion }, status };
}

/** Starts the rollout's syncs; throws, naming the first Application whose sync could not be started, if any failed. */
export async function startSyncs(writer: ApplicationWriter, namespace: string, syncs: RolloutStage['syncs'], log: Logger): Promise<void> {
  const results = await Promise.allSettled(syncs.map((sync) => writer.startOperation({ namespace, name: sync.name }, sync.operation)));
  const failed: Array<{ name: string; reason: unknown }> = [];
  results.forEach((result, i) => {
    const name = syncs[i]?.name ?? '';
    if (result.status === 'rejected') failed.push({ name, reason: result.reason });
    else log.info({ application: name }, 'RollingSync: sync started');
  });
  const first = failed[0];
  if (!first) return;
  const detail = first.reason instanceof Error ? first.reason.message : String(first.reason);
  throw new Error(`starting the sync of Application ${first.name} failed: ${detail}${failed.length > 1 ? ` (and ${failed.length - 1} more)` : ''}`);
}

/** `name: Waiting -> Pending` for the first entries whose status, step or message changed (for the log line). */
function movedEntries(before: readonly ApplicationRolloutStatus[], after: readonly ApplicationRolloutStatus[], max = 10): string[] {
  const old = new Map(before.map((entry) => [entry.application, entry]));
  const moved: string[] = [];
  for (const entry of after) {
    const was = old.get(entry.application);
    if (was && was.status === entry.status && was.step === entry.step && was.message === entry.message) continue;
    moved.push(
      `${entry.application}: ${was ? `${was.status}@${was.step}` : 'new'} -> ${entry.status}@${entry.step}${was?.status === entry.status ? ` (${entry.message})` : ''}`,
    );
  }
  if (before.length > after.length) moved.push(`${before.length - after.length} entries removed`);
  return moved.slice(0, max);
}
