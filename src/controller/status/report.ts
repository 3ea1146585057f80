import { isDeepStrictEqual } from 'node:util';
import type { Logger } from 'pino';
import type { ApplicationSetObject } from '../reconcile/applicationset.js';
import { conditionsDiffer, conditionsFor, mergeConditions, type ReconcileOutcome } from './conditions.js';
import type { Application } from '../../model/objects.js';
import { resourceStatus } from './resource-status.js';
import type { EventRecorder, EventRecord } from './event-recorder.js';
import type { StatusAfterWrites } from './status-after-writes.js';
import { isStaleStatusError, type StatusWriter } from './status-writer.js';
import type { ReconcileFailure } from '../reconcile/failure.js';
import type { RolloutCondition } from '../rollout/rollout-condition.js';

/** What a status report does with the `RolloutProgressing` condition: set it, remove it (no RollingSync), or keep it. */
export type RolloutReport = RolloutCondition | 'remove' | 'keep';

/** Where a reconcile reports to: the status subresource and Events. */
export interface Reporter {
  readonly status: StatusWriter;
  readonly events: EventRecorder;
  readonly now: () => Date;
  readonly maxResourcesStatus: number;
  /** Where a successful reconcile's closing status goes when it may wait for other reconciles' writes; else `status`. */
  readonly closingStatus?: StatusAfterWrites;
}

/** When a status is written: now, or (a successful reconcile's closing status) after the replica's Application writes. */
export type StatusTiming = 'now' | 'after-writes';

/**
 * Writes the conditions of `outcome` and `status.resources` for `owned`, only when something other
 * than timestamps changed (so an unchanged ApplicationSet costs no write); with `timing` 'after-writes' through
 * {@link Reporter.closingStatus}, which may leave it waiting for other reconciles' Application writes. A 409 means the
 * ApplicationSet changed meanwhile: its own event brings a fresh reconcile, so it is not an error.
 */
export async function reportStatus(
  reporter: Reporter,
  appset: ApplicationSetObject,
  outcome: ReconcileOutcome,
  owned: readonly Application[] | undefined,
  log: Logger,
  rollout: RolloutReport = 'keep',
  timing: StatusTiming = 'now',
): Promise<void> {
  // Whatever this report writes, or finds already stored, is newer than a status of an earlier reconcile still waiting.
  reporter.closingStatus?.cancel(appset);
  const previous = appset.status;
  const next = rollout === 'keep' || rollout === 'remove' ? conditionsFor(outcome) : [...conditionsFor(outcome), rollout];
  const kept = rollout === 'remove' ? previous?.conditions?.filter((c) => c.type !== 'RolloutProgressing') : previous?.conditions;
  const conditions = mergeConditions(kept, next, reporter.now().toISOString());
  const resources = owned
    ? resourceStatus(owned, reporter.maxResourcesStatus)
    : { resources: [...(previous?.resources ?? [])], resourcesCount: previous?.resourcesCount ?? 0 };
  const unchanged =
    !conditionsDiffer(previous?.conditions, conditions) &&
    // Key order differs: the API server returns stored objects with alphabetically sorted keys.
    isDeepStrictEqual(previous?.resources ?? [], resources.resources) &&
    (previous?.resourcesCount ?? 0) === resources.resourcesCount;
  if (unchanged) return;
  try {
    const status = { conditions, ...resources };
    if (timing === 'after-writes' && reporter.closingStatus) await reporter.closingStatus.write(appset, status, log);
    else await reporter.status.write(appset.metadata, status);
  } catch (error) {
    if (isStaleStatusError(error)) {
      log.debug({ code: error.status }, 'status not written: the ApplicationSet changed or is gone');
      return;
    }
    throw error;
  }
}

/** Records an Event on the ApplicationSet; a failure to record is logged, never fatal. */
export async function recordEvent(reporter: Reporter, appset: ApplicationSetObject, event: EventRecord, log: Logger): Promise<void> {
  const subject = {
    apiVersion: appset.apiVersion,
    kind: appset.kind,
    namespace: appset.metadata.namespace,
    name: appset.metadata.name,
    uid: appset.metadata.uid,
  };
  try {
    await reporter.events.record(subject, event);
  } catch (error) {
    log.warn({ err: error, event: event.reason }, 'could not record an Event');
  }
}

/** `a, b, c and 7 more`: names for a message, bounded. */
export function someNames(names: readonly string[], max = 10): string {
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

/**
 * Reports a failed reconcile on its ApplicationSet: the ErrorOccurred condition (and ParametersGenerated
 * as far as the generators got) and a Warning Event, both with the failure's reason. A status write that
 * fails is logged: the failure itself is what the caller goes on with.
 */
export async function reportFailure(reporter: Reporter, failure: ReconcileFailure, log: Logger): Promise<void> {
  const appset = failure.appset;
  if (!appset) return;
  const outcome: ReconcileOutcome = { kind: 'error', reason: failure.reason, message: failure.message, parametersGenerated: failure.parametersGenerated };
  await reportStatus(reporter, appset, outcome, undefined, log).catch((error: unknown) => log.warn({ err: error }, 'could not write the error status'));
  await recordEvent(reporter, appset, { type: 'Warning', reason: failure.reason, message: failure.message }, log);
}
