import type { SyncPolicy } from '../../model/sync-policy.js';
import { applyIntent, type LiveFieldRules } from './apply-intent.js';
import { needsApply } from './needs-apply.js';
import { controllerOf, isOwnedBy, type Application, type ApplicationSetIdentity } from '../../model/objects.js';
import { allowsDelete, allowsUpdate } from './sync-policy.js';

/** How many of its Applications one reconcile may delete before the deletion guard refuses. */
export interface DeletionGuard {
  /** Largest share (0-1) of the owned Applications one reconcile may delete; one deletion is always allowed. */
  readonly maxDeleteShare: number;
  /** The ApplicationSet opted out of the guard. */
  readonly allowMassDeletion: boolean;
}

/** Everything {@link planChanges} decides from; all of it read from the cache, none of it mutated. */
export interface PlanInput {
  readonly appset: ApplicationSetIdentity;
  /** The Applications the generators and templates produce, with unique names. */
  readonly desired: readonly Application[];
  /** The Applications this ApplicationSet controls (owner-UID index). */
  readonly owned: readonly Application[];
  /** Any Application of the ApplicationSet's namespace by name, owned or not. */
  readonly lookup: (name: string) => Application | undefined;
  readonly policy: SyncPolicy;
  readonly rules: LiveFieldRules;
  readonly guard: DeletionGuard;
}

/** An Application the ApplicationSet wants but may not touch, because someone else controls it or nobody does. */
export interface Conflict {
  readonly name: string;
  /** Who controls it, e.g. `ApplicationSet team-a/other` or `nobody (not controlled by any ApplicationSet)`. */
  readonly owner: string;
}

/** The deletion guard's refusal: how many deletions were wanted and how many were allowed. */
export interface DeletionRefusal {
  readonly wanted: number;
  readonly owned: number;
  readonly allowed: number;
}

/** The writes one reconcile makes, and what it decided not to do and why. */
export interface Plan {
  readonly create: readonly Application[];
  readonly update: readonly Application[];
  /** Live objects to delete (their UID and resourceVersion become preconditions). */
  readonly delete: readonly Application[];
  readonly unchanged: readonly string[];
  readonly conflicts: readonly Conflict[];
  /** Differs from the template, but the policy forbids updates. */
  readonly updatesSkippedByPolicy: readonly string[];
  /** No longer generated, but the policy forbids deletes. */
  readonly deletesSkippedByPolicy: readonly string[];
  readonly deletionRefused?: DeletionRefusal;
}

/** Compares desired with live Applications and decides every create, update and delete (a pure function). */
export function planChanges(input: PlanInput): Plan {
  const create: Application[] = [];
  const update: Application[] = [];
  const unchanged: string[] = [];
  const conflicts: Conflict[] = [];
  const updatesSkippedByPolicy: string[] = [];
  for (const desired of input.desired) {
    const live = input.lookup(desired.metadata.name);
    if (!live) create.push(applyIntent(desired, undefined, input.rules));
    else if (!isOwnedBy(live, input.appset)) conflicts.push({ name: desired.metadata.name, owner: describeController(live) });
    else {
      const intent = applyIntent(desired, live, input.rules);
      if (!needsApply(intent, live)) unchanged.push(desired.metadata.name);
      else if (allowsUpdate(input.policy)) update.push(intent);
      else updatesSkippedByPolicy.push(desired.metadata.name);
    }
  }
  const wantedNames = new Set(input.desired.map((app) => app.metadata.name));
  const stale = input.owned.filter((app) => !wantedNames.has(app.metadata.name) && !app.metadata.deletionTimestamp);
  const mayDelete = allowsDelete(input.policy);
  const refusal = mayDelete ? guardRefusal(stale.length, input.owned.length, input.desired.length, input.guard) : undefined;
  return {
    create,
    update,
    delete: mayDelete && !refusal ? stale : [],
    unchanged,
    conflicts,
    updatesSkippedByPolicy,
    deletesSkippedByPolicy: mayDelete ? [] : stale.map((app) => app.metadata.name),
    ...(refusal ? { deletionRefused: refusal } : {}),
  };
}

/**
 * Refuses when a reconcile would delete every Application (the generators returned nothing) or more
 * than the allowed share of them; a single deletion among survivors is always allowed.
 */
function guardRefusal(wanted: number, owned: number, desired: number, guard: DeletionGuard): DeletionRefusal | undefined {
  if (wanted === 0 || guard.allowMassDeletion) return undefined;
  const allowed = desired === 0 ? 0 : Math.max(1, Math.floor(guard.maxDeleteShare * owned));
  return wanted > allowed ? { wanted, owned, allowed } : undefined;
}

/** Names the controller of an Application for a conflict message. */
export function describeController(app: Application): string {
  const owner = controllerOf(app);
  if (!owner) return 'nobody (not controlled by any ApplicationSet)';
  const where = owner.kind === 'ApplicationSet' ? `${app.metadata.namespace ?? ''}/${owner.name}` : owner.name;
  return `${owner.kind} ${where} (uid ${owner.uid})`;
}
