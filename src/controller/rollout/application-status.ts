import type { Application } from '../../model/objects.js';
import type { RolloutStep } from './rolling-sync.js';
import { stepLabel, type StepAssignment } from './steps.js';

/** One entry of an ApplicationSet's `status.applicationStatus`, as Argo CD writes it. */
export interface ApplicationRolloutStatus {
  readonly application: string;
  readonly lastTransitionTime?: string;
  readonly message: string;
  /** `Waiting`, `Pending`, `Progressing` or `Healthy`. */
  readonly status: string;
  /** The 1-based step, `-1` when no step selects the Application. */
  readonly step: string;
  readonly targetRevisions: readonly string[];
}

/** Argo CD's messages, word for word: users and tools match on them. */
export const RolloutMessage = {
  noStatus: 'No Application status found, defaulting status to Waiting.',
  pendingChanges: 'Application has pending changes, setting status to Waiting.',
  syncSucceeded: 'Application resource completed a sync successfully, updating status from Pending to Progressing.',
  becameProgressing: 'Application resource became Progressing, updating status from Pending to Progressing.',
  alreadyHealthy: 'Application resource is already Healthy, updating status from Waiting to Healthy.',
  becameHealthy: 'Application resource became Healthy, updating status from Progressing to Healthy.',
  movedToPending: 'Application moved to Pending status, watching for the Application resource to start Progressing.',
} as const;

/** The revisions an Application's last comparison was against (Argo CD's `GetRevisions`). */
export function revisionsOf(app: Application): string[] {
  const sync = app.status?.sync;
  if (sync?.revisions && sync.revisions.length > 0) return [...sync.revisions];
  return sync?.revision ? [sync.revision] : [];
}

/** Healthy, not OutOfSync, and its last operation (if any) succeeded: Argo CD's test for a finished Application. */
export function isApplicationHealthy(app: Application): boolean {
  const phase = app.status?.operationState?.phase ?? '';
  return app.status?.health?.status === 'Healthy' && app.status.sync?.status !== 'OutOfSync' && (phase === 'Succeeded' || phase === '');
}

/**
 * The first half of Argo CD's status update: one entry per live Application, moved along by what the Application
 * shows. New or re-targeted Applications wait; OutOfSync ones wait again (unless their sync is running); Pending ones progress once their sync
 * runs or succeeded; Waiting or Progressing ones that are synced and healthy become Healthy.
 */
export function observeApplications(
  previous: readonly ApplicationRolloutStatus[],
  live: readonly Application[],
  steps: StepAssignment,
  now: string,
): ApplicationRolloutStatus[] {
  const before = new Map(previous.map((entry) => [entry.application, entry]));
  return live.map((app) => {
    const name = app.metadata.name;
    const step = stepLabel(steps.stepOf, name);
    const revisions = revisionsOf(app);
    const found = before.get(name);
    let entry: ApplicationRolloutStatus = found ?? {
      application: name,
      lastTransitionTime: now,
      message: RolloutMessage.noStatus,
      status: 'Waiting',
      step,
      targetRevisions: [],
    };
    // A new entry always counts as re-targeted: Argo CD compares its nil list with the Application's empty one.
    if (!found || !sameList(found.targetRevisions, revisions)) {
      entry = {
        ...entry,
        ...(found ? { message: RolloutMessage.pendingChanges } : {}),
        targetRevisions: revisions,
        status: 'Waiting',
        lastTransitionTime: now,
        step,
      };
    }
    const outdated = app.status?.sync?.status === 'OutOfSync';
    const phase = app.status?.operationState?.phase ?? '';
    const moveTo = (status: string, message: string): void => {
      entry = { ...entry, status, message, lastTransitionTime: now, step };
    };
    // Deliberately unlike Argo CD: an Application whose sync is running is OutOfSync because of that sync, not of
    // new changes. Argo CD sends it back to Waiting, promotes it to Pending, sees it Progressing again, and rewrites
    // the status on every reconcile (each write requeueing the next) until the sync ends.
    if (outdated && phase !== 'Running' && entry.status !== 'Waiting' && entry.status !== 'Pending') moveTo('Waiting', RolloutMessage.pendingChanges);
    if (entry.status === 'Pending') {
      if (!outdated && phase === 'Succeeded') moveTo('Progressing', RolloutMessage.syncSucceeded);
      else if (phase === 'Running' || app.status?.health?.status === 'Progressing') moveTo('Progressing', RolloutMessage.becameProgressing);
    }
    if (entry.status === 'Waiting' && isApplicationHealthy(app)) moveTo('Healthy', RolloutMessage.alreadyHealthy);
    if (entry.status === 'Progressing' && isApplicationHealthy(app)) moveTo('Healthy', RolloutMessage.becameHealthy);
    return entry;
  });
}

/**
 * Which Applications may sync now: every Application of the first step, and of each later step only when every
 * Application of all earlier steps is Healthy in its entry and on the live object. An Application without an
 * entry or no longer live (being created or deleted) holds the later steps back. Applications of no step never sync.
 */
export function syncAllowed(
  steps: StepAssignment,
  statuses: readonly ApplicationRolloutStatus[],
  live: ReadonlyMap<string, Application>,
): Map<string, boolean> {
  const byName = new Map(statuses.map((entry) => [entry.application, entry]));
  const allowed = new Map<string, boolean>();
  let enabled = true;
  for (const names of steps.byStep) {
    for (const name of names) allowed.set(name, enabled);
    for (const name of names) {
      const entry = byName.get(name);
      const app = live.get(name);
      enabled = entry !== undefined && app !== undefined && isApplicationHealthy(app) && entry.status === 'Healthy';
      if (!enabled) break;
    }
  }
  return allowed;
}

/**
 * The second half: Waiting Applications that may sync become Pending, at most `maxUpdate` of each step Pending or
 * Progressing at once. Argo CD counts an Application of no step under the first step (Go's zero value), so it
 * counts toward the first step's total and limit there too; that is kept.
 */
export function promoteWaiting(
  statuses: readonly ApplicationRolloutStatus[],
  rolloutSteps: readonly RolloutStep[],
  steps: StepAssignment,
  allowed: ReadonlyMap<string, boolean>,
  now: string,
): ApplicationRolloutStatus[] {
  const indexOf = (name: string): number => steps.stepOf.get(name) ?? 0;
  const total = rolloutSteps.map(() => 0);
  const updating = rolloutSteps.map(() => 0);
  for (const entry of statuses) {
    const i = indexOf(entry.application);
    total[i] = (total[i] ?? 0) + 1;
    if (entry.status === 'Pending' || entry.status === 'Progressing') updating[i] = (updating[i] ?? 0) + 1;
  }
  return statuses.map((entry) => {
    const i = indexOf(entry.application);
    const limit = maxUpdateOf(rolloutSteps[i]?.maxUpdate, total[i] ?? 0);
    const underLimit = limit === undefined || (updating[i] ?? 0) < limit;
    if (entry.status !== 'Waiting' || allowed.get(entry.application) !== true || !underLimit) return entry;
    updating[i] = (updating[i] ?? 0) + 1;
    return { ...entry, status: 'Pending', message: RolloutMessage.movedToPending, lastTransitionTime: now, step: stepLabel(steps.stepOf, entry.application) };
  });
}

/**
 * A step's `maxUpdate` for `total` Applications (undefined: no limit). A percentage rounds down but, unless it is
 * `0%`, never below one; a string that is not a percentage counts as one, as Kubernetes' IntOrString scaling and
 * Argo CD's floor make it.
 */
export function maxUpdateOf(maxUpdate: number | string | undefined, total: number): number | undefined {
  if (maxUpdate === undefined) return undefined;
  if (typeof maxUpdate === 'number') return maxUpdate;
  const percent = /^([+-]?\d+)%$/.exec(maxUpdate);
  const value = percent ? Math.floor((Number(percent[1]) * total) / 100) : 0;
  return maxUpdate !== '0%' && value < 1 ? 1 : value;
}

/** True if the two lists differ in what Argo CD compares before writing: the count, or any entry's status, step or message. */
export function rolloutStatusesDiffer(a: readonly ApplicationRolloutStatus[], b: readonly ApplicationRolloutStatus[]): boolean {
  if (a.length !== b.length) return true;
  const byName = new Map(a.map((entry) => [entry.application, entry]));
  return b.some((entry) => {
    const old = byName.get(entry.application);
    return !old || old.status !== entry.status || old.step !== entry.step || old.message !== entry.message;
  });
}

function sameList(a: readonly string[] | undefined, b: readonly string[]): boolean {
  const left = a ?? [];
  return left.length === b.length && left.every((value, i) => value === b[i]);
}
