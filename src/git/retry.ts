import { setTimeout as sleep } from 'node:timers/promises';
import { GitError } from './git-error.js';

/** How often and how patiently a network Git call is retried. */
export interface RetryPolicy {
  /** Total tries, the first included. */
  attempts: number;
  /** Wait before the second try; doubles each time. */
  initialDelayMs: number;
  maxDelayMs: number;
}

/** One try: for a speculative call, which is not worth a retry's wait (the path that needs it retries on its own). */
export const ONE_TRY: RetryPolicy = { attempts: 1, initialDelayMs: 0, maxDelayMs: 0 };

/** Three tries, 200 ms then 400 ms apart. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 3, initialDelayMs: 200, maxDelayMs: 5_000 };

/**
 * Runs `operation`, retrying only failures that may be transient (unreachable, timeout) with
 * exponential backoff. Bad credentials, a missing repository or a cancelled call fail at once.
 */
export async function withRetries<T>(policy: RetryPolicy, signal: AbortSignal, operation: () => Promise<T>): Promise<T> {
  let delay = policy.initialDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      const transient = error instanceof GitError && (error.kind === 'unreachable' || error.kind === 'timeout');
      if (!transient || attempt >= policy.attempts || signal.aborted) throw error;
      await sleep(delay, undefined, { signal }).catch(() => {
        throw error;
      });
      delay = Math.min(delay * 2, policy.maxDelayMs);
    }
  }
}
