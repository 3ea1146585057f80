/** Which watch events of ApplicationSets and Applications are worth a reconcile (Argo CD's predicates, plus ours). */

import { isDeepStrictEqual } from 'node:util';
import { INTENT_HASH_ANNOTATION } from '../plan/apply-intent.js';

/** The annotation that asks for an immediate refresh; the controller removes it afterwards. */
export const REFRESH_ANNOTATION = 'argocd.argoproj.io/application-set-refresh';

/** The metadata and spec of a watched object, as far as trigger decisions read them. */
export interface Watched {
  readonly metadata: {
    readonly labels?: Readonly<Record<string, string>>;
    readonly annotations?: Readonly<Record<string, string>>;
    readonly finalizers?: readonly string[];
    readonly deletionTimestamp?: string;
  };
  readonly spec?: unknown;
  readonly status?: {
    readonly applicationStatus?: unknown;
    readonly sync?: { readonly status?: string };
    readonly health?: { readonly status?: string };
    readonly operationState?: { readonly phase?: string; readonly startedAt?: string };
  };
}

const same = (a: unknown, b: unknown): boolean => isDeepStrictEqual(a ?? {}, b ?? {});

/**
 * An ApplicationSet update needs a reconcile when its spec, labels, finalizers, deletion or annotations
 * changed, but not for status-only changes (our own status writes) and not when the only change is the
 * removal of the refresh annotation (our own clean-up after a refresh).
 */
export function applicationSetUpdateNeedsReconcile(old: Watched, next: Watched, progressiveSyncs = false): boolean {
  // A rollout moves on when its applicationStatus does (Argo CD requeues for it, and so a rollout step written by
  // one replica is looked at again, by whichever replica takes the key).
  if (progressiveSyncs && !isDeepStrictEqual(old.status?.applicationStatus ?? [], next.status?.applicationStatus ?? [])) return true;
  if (!same(old.spec, next.spec) || !same(old.metadata.labels, next.metadata.labels)) return true;
  if (!same(old.metadata.finalizers, next.metadata.finalizers) || old.metadata.deletionTimestamp !== next.metadata.deletionTimestamp) return true;
  const before = { ...old.metadata.annotations };
  const after = { ...next.metadata.annotations };
  if (REFRESH_ANNOTATION in before && !(REFRESH_ANNOTATION in after)) delete before[REFRESH_ANNOTATION];
  return !same(before, after);
}

/**
 * An owned Application's update needs its ApplicationSet reconciled when someone changed what the
 * controller manages (spec, labels, annotations, finalizers), so a hand edit is reverted; Argo CD's
 * status churn (sync, health, reconciledAt) does not. Nor does the controller's own write landing: it
 * is the only writer that moves the intent-hash annotation (a hand edit leaves it as it was), and
 * reconciling for that echo cost a queue add per written Application and a second reconcile per
 * ApplicationSet in every update wave.
 */
export function applicationUpdateNeedsReconcile(old: Watched, next: Watched, progressiveSyncs = false): boolean {
  if (progressiveSyncs && rolloutProgressChanged(old, next)) return true;
  const intentHash = next.metadata.annotations?.[INTENT_HASH_ANNOTATION];
  if (intentHash !== undefined && intentHash !== old.metadata.annotations?.[INTENT_HASH_ANNOTATION]) return false; // our own write
  return (
    !same(old.spec, next.spec) ||
    !same(old.metadata.labels, next.metadata.labels) ||
    !same(old.metadata.annotations, next.metadata.annotations) ||
    !same(old.metadata.finalizers, next.metadata.finalizers)
  );
}

/**
 * With progressive syncs, the Application changes a rollout waits for: health, sync status, and the phase or
 * start of its operation (Argo CD's predicate for the same).
 */
function rolloutProgressChanged(old: Watched, next: Watched): boolean {
  const a = old.status;
  const b = next.status;
  if (a?.health?.status !== b?.health?.status || a?.sync?.status !== b?.sync?.status) return true;
  const before = a?.operationState;
  const after = b?.operationState;
  return before !== undefined && after !== undefined && (before.phase !== after.phase || before.startedAt !== after.startedAt);
}
