import type { CacheName, Requirements, Watermarks } from './watermarks.js';
import type { ReconcileContext, ReconcileFunction } from '../reconcile/runner.js';
import { AppsetError } from '../../model/errors.js';

/** A replica's caches could not catch up with the event that enqueued a key in time; the key is retried. */
export class StaleCacheError extends AppsetError {
  override readonly name = 'StaleCacheError';
  constructor(cache: CacheName, has: string | undefined, needs: string, waitedMs: number) {
    super(
      `the ${cache} cache of this replica is at resourceVersion ${has ?? 'none'} after ${waitedMs} ms and has not reached ${needs}, the event that enqueued this key; retrying`,
    );
  }
}

/**
 * Orders two resourceVersions: negative if `a` is older. Kubernetes resourceVersions are etcd
 * revisions (decimal integers, comparable since KEP-5504); anything else cannot be ordered (undefined).
 */
export function compareResourceVersions(a: string, b: string): number | undefined {
  if (!/^\d+$/.test(a) || !/^\d+$/.test(b)) return undefined;
  const difference = BigInt(a) - BigInt(b);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

/** What {@link withFreshCaches} needs: the shared requirements and each local cache's resourceVersion. */
export interface FreshnessOptions {
  readonly watermarks: Watermarks;
  /** The resourceVersion each local cache has reached (its last list, event or bookmark). */
  readonly cacheVersions: Readonly<Record<CacheName, () => string | undefined>>;
  /** Longest wait for a lagging cache before the key is retried with backoff (default 30 s). */
  readonly timeoutMs?: number;
  readonly pollMs?: number;
  /** Observes how long a reconcile waited for its caches, in seconds (0 when they were fresh). */
  readonly observeWait?: (seconds: number) => void;
}

/** The first cache that has not reached its requirement, or undefined (versions that cannot be ordered count as reached). */
export function lagging(
  required: Requirements,
  versions: FreshnessOptions['cacheVersions'],
): { cache: CacheName; has: string | undefined; needs: string } | undefined {
  for (const [cache, needs] of Object.entries(required) as Array<[CacheName, string]>) {
    const has = versions[cache]?.();
    if (has === undefined) return { cache, has, needs };
    const order = compareResourceVersions(has, needs);
    if (order !== undefined && order < 0) return { cache, has, needs };
  }
  return undefined;
}

/**
 * Wraps a reconcile so it never runs on a cache older than the event that enqueued its key: it first
 * waits until each local cache has reached the resourceVersion of the newest event any replica
 * enqueued the key for, and throws a retryable {@link StaleCacheError} if that takes too long.
 */
export function withFreshCaches(reconcile: ReconcileFunction, options: FreshnessOptions): ReconcileFunction {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const pollMs = options.pollMs ?? 20;
  return async (key: string, ctx: ReconcileContext) => {
    const required = await options.watermarks.read(key);
    const started = performance.now();
    let logged = false;
    for (;;) {
      const behind = lagging(required, options.cacheVersions);
      const waitedMs = Math.round(performance.now() - started);
      if (!behind) break;
      if (waitedMs >= timeoutMs) throw new StaleCacheError(behind.cache, behind.has, behind.needs, waitedMs);
      if (ctx.signal.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error('reconcile aborted while waiting for the cache');
      if (!logged) ctx.log.debug({ ...behind }, 'cache is older than the event that enqueued this key; waiting for it');
      logged = true;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
    options.observeWait?.((performance.now() - started) / 1000);
    return reconcile(key, ctx);
  };
}
