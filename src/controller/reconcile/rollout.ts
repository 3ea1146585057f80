import type { Logger } from 'pino';
import type { Application } from '../../model/objects.js';
import type { ApplicationSetObject } from './applicationset.js';
import type { Reporter, RolloutReport } from '../status/report.js';
import { kubeTime, planRollout } from '../rollout/rollout.js';
import { readRollingSync } from '../rollout/rolling-sync.js';
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
 * entries are removed. A malformed strategy throws a TerminalError naming the field.
 */
export async function rolloutStage(
  reporter: Reporter,
  progressiveSyncs: boolean,
  appset: ApplicationSetObject,
  desired: readonly Application[],
  owned: readonly Application[],
  log: Logger,
): Promise<RolloutStage> {
  const strategy = readRollingSync(appset.spec.strategy);
  const stored = appset.status?.applicationStatus ?? [];
  if (!progressiveSyncs || !strategy) {
    const cleared = stored.length > 0 ? await writeRolloutStatus(reporter, appset, null) : appset;
    return { appset: cleared, desired, syncs: [], report: strategy ? 'keep' : 'remove' };
  }
  const plan = planRollout({ strategy, previous: stored, desired, owned, now: kubeTime(reporter.now()) });
  const written = plan.statusChanged ? await writeRolloutStatus(reporter, appset, plan.statuses) : appset;
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

/** Starts the rollout's syncs; returns the failures (name and error) so the reconcile reports them. */
export async function startSyncs(
  writer: ApplicationWriter,
  namespace: string,
  syncs: RolloutStage['syncs'],
  log: Logger,
): Promise<Array<{ name: string; error: unknown }>> {
  const results = await Promise.allSettled(syncs.map((sync) => writer.startOperation({ namespace, name: sync.name }, sync.operation)));
  const failures: Array<{ name: string; error: unknown }> = [];
  results.forEach((result, i) => {
    const name = syncs[i]?.name ?? '';
    if (result.status === 'rejected') failures.push({ name, error: result.reason });
    else log.info({ application: name }, 'RollingSync: sync started');
  });
  return failures;
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
