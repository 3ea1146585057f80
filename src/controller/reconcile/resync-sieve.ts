import type { Logger } from 'pino';
import { mapBounded } from '../../model/map-bounded.js';
import type { Application } from '../../model/objects.js';
import type { SharedFingerprints } from '../consistency/input-fingerprints.js';
import { OWNER_UID_INDEX } from '../routing/caches.js';
import type { ApplicationSetObject } from './applicationset.js';
import { prepareGeneration } from './prepare.js';
import { prepareContextOf, unchangedInputsOf, type ReconcilerDeps } from './reconciler.js';
import { matchesRemembered, memoKeyOf } from './unchanged-inputs.js';
import { resolveOncePerPass } from './pass-git.js';

/** Generators run at once while the resync looks at its keys (each mostly waits on a Git or Redis read). */
const SIEVE_CONCURRENCY = 8;

/** What the resync's look at its keys found. */
export interface SieveResult {
  /** Keys to reconcile: their inputs changed, or nothing is known about them, or the look failed. */
  readonly toReconcile: string[];
  /** Keys whose inputs are those of their last successful reconcile on any replica. */
  readonly unchanged: number;
}

/**
 * The full resync without the cost of a reconcile per key: for each ApplicationSet the generators run here
 * (from their memos when nothing moved) and the inputs' fingerprint is compared with the one the last
 * successful reconcile of any replica stored; only keys that differ go to the queue. What the queue would
 * have run for an unchanged key ends in the same place (the reconciler's own unchanged-inputs check), so
 * leaving it out changes no outcome and saves the queue's round trips. A failure here only sends the key
 * to the queue, where it is reported as usual. Entries of ApplicationSets that no longer exist are dropped.
 */
export async function siftResyncKeys(
  deps: ReconcilerDeps,
  fingerprints: SharedFingerprints,
  keys: Iterable<string>,
  log: Logger,
  signal: AbortSignal,
): Promise<SieveResult> {
  const all = [...keys];
  // The platform's reader only: a tenant's reader answers within its own credential scope, and stays apart.
  const passDeps: ReconcilerDeps = { ...deps, git: resolveOncePerPass(deps.git) };
  const remembered = await fingerprints.readAll();
  const live = new Set<string>();
  const decisions = await mapBounded(all, SIEVE_CONCURRENCY, async (key): Promise<boolean> => {
    const appset = deps.applicationSets.get(key) as unknown as ApplicationSetObject | undefined;
    if (!appset || appset.metadata.deletionTimestamp) return false; // its reconcile would do nothing either
    const memoKey = memoKeyOf(appset);
    live.add(memoKey);
    const kept = remembered.get(memoKey);
    if (!kept || signal.aborted) return true;
    try {
      const owned = deps.applications.byIndex(OWNER_UID_INDEX, appset.metadata.uid) as unknown as Application[];
      const ctx = { signal, log: log.child({ appset: key }) };
      const { tenant, generated } = await prepareGeneration(passDeps, appset, prepareContextOf(deps, appset, owned.length, ctx));
      const inputs = unchangedInputsOf(deps, appset, tenant, generated);
      return !(inputs && matchesRemembered(inputs, kept));
    } catch {
      return true; // the reconcile reports it, with its condition
    }
  });
  await Promise.all(
    [...remembered.keys()]
      .filter((memoKey) => !live.has(memoKey))
      .map((memoKey) => fingerprints.remove(memoKey).catch((error: unknown) => log.debug({ err: error }, 'could not drop an old input fingerprint'))),
  );
  const toReconcile = all.filter((_, i) => decisions[i]);
  return { toReconcile, unchanged: all.length - toReconcile.length };
}
