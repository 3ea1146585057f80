import { createHash } from 'node:crypto';
import type { ResolvedCredentials } from './credentials.js';
import { describeLocation, GitError, type GitLocation } from './git-error.js';
import { FreshSingleFlight } from './fresh-single-flight.js';
import type { PushEpochs } from './push-epochs.js';
import { parseLsRemote, type RemoteRefs } from './remote-refs.js';

/** How fresh the refs a caller accepts must be. */
export interface RefsFreshness {
  /**
   * Refs read by an `ls-remote` that began at most this long before the call are accepted, unless a
   * push to the repository came since (see {@link PushEpochs}); 0 asks for an `ls-remote` begun after the call.
   */
  readonly maxAgeMs: number;
  /** Push counters; without them nothing read earlier is served. */
  readonly epochs?: PushEpochs;
}

/** The last refs read for one repository and credentials: when the read began and the push counter then. */
interface RecentRefs {
  readonly refs: RemoteRefs;
  readonly startedAt: number;
  readonly epoch: number;
}

/**
 * A remote's refs shared by callers of one repository with the same credentials. By default from an
 * `ls-remote` that started after the call, shared by concurrent callers: a webhook that wakes a
 * hundred ApplicationSets of one repository costs one or two ls-remotes, not a hundred. A caller may
 * accept refs read a little earlier ({@link RefsFreshness}) unless a push came since: a converge of
 * many ApplicationSets on one repository then costs one ls-remote every `maxAgeMs`, not one per
 * reconcile (each spawns git on both ends; on a busy 2-core machine about 0.2 CPU-seconds).
 * Callers with other credentials never share (each proves its own access), errors are never kept,
 * and every error names the caller's own revision.
 */
export class SharedRemoteRefs {
  private readonly flight = new FreshSingleFlight<RemoteRefs>();
  /** Newest reading per repository and credentials, least recently stored first. */
  private readonly recent = new Map<string, RecentRefs>();

  /**
   * @param maxKept readings kept at most (one per repository and credentials); past it the least
   *   recently stored is forgotten, so credentials that rotate often cannot grow the map without bound.
   */
  constructor(private readonly maxKept = DEFAULT_MAX_KEPT) {}

  /**
   * Recent refs the caller accepts, or the refs of an `ls-remote` (run, or joined, after this call).
   * `onReadAfterPush` is called as an `ls-remote` begins because a push came since the kept reading (not
   * for a first reading, nor when kept refs only grew old), once per run, so the caller can fetch beside it.
   */
  async read(
    where: GitLocation,
    credentials: ResolvedCredentials | undefined,
    signal: AbortSignal,
    lsRemote: (signal: AbortSignal) => Promise<string>,
    freshness?: RefsFreshness,
    onReadAfterPush?: () => void,
  ): Promise<RemoteRefs> {
    const identity = createHash('sha256')
      .update(JSON.stringify([credentials?.source ?? null, credentials?.credentials ?? null]))
      .digest('hex');
    const key = `${where.repoURL}\n${identity}`;
    const calledAt = performance.now();
    // Read before the ls-remote: refs read now are at least as new as the pushes counted so far. Read
    // for a fresh call too, so what it reads serves the callers after it.
    const epoch = freshness?.epochs ? await freshness.epochs.current(where.repoURL).catch(() => undefined) : undefined;
    const kept = this.recent.get(key);
    if (epoch !== undefined && kept && kept.epoch === epoch && calledAt - kept.startedAt <= (freshness?.maxAgeMs ?? 0)) return kept.refs;
    try {
      const refs = await this.flight.run(key, async () => {
        // Looked up as the run begins: a run queued behind another sees what that one kept, and starts no second fetch.
        const latest = this.recent.get(key);
        if (onReadAfterPush && epoch !== undefined && latest !== undefined && latest.epoch < epoch) onReadAfterPush();
        return parseLsRemote(await lsRemote(signal));
      });
      // The run began after this call, so `calledAt` is a safe (early) start time for it.
      if (epoch !== undefined) this.keep(key, { refs, startedAt: calledAt, epoch });
      return refs;
    } catch (error) {
      if (!(error instanceof GitError)) throw error;
      // Cancelled by the caller that began the shared run, not by this one: ask again alone.
      if (error.kind === 'aborted' && !signal.aborted) return parseLsRemote(await lsRemote(signal));
      throw relocated(error, where);
    }
  }

  /** Keeps the newest reading per key (by push counter, then start time), so an older run finishing late never replaces it. */
  private keep(key: string, reading: RecentRefs): void {
    const kept = this.recent.get(key);
    if (kept && (kept.epoch > reading.epoch || (kept.epoch === reading.epoch && kept.startedAt > reading.startedAt))) return;
    this.recent.delete(key); // re-inserted last: the map's order is the order of storing
    this.recent.set(key, reading);
    // One reading was added, so at most one has to go: the first in the map's order.
    if (this.recent.size > this.maxKept) this.recent.delete(this.recent.keys().next().value as string);
  }
}

/** Readings kept by default: far more repositories and credentials than one controller serves at once. */
const DEFAULT_MAX_KEPT = 4096;

/** The same failure, named at `where` (a shared run's error names the revision of the caller that began it). */
function relocated(error: GitError, where: GitLocation): GitError {
  if (describeLocation(error.where) === describeLocation(where)) return error;
  const prefix = `${describeLocation(error.where)}: `;
  return new GitError(error.kind, where, error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message);
}
