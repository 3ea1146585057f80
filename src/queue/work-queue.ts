/**
 * Hands `namespace/name` keys to workers, across every replica, with client-go workqueue guarantees:
 * a key never runs twice at once; adds of a waiting key collapse; an add during a run makes it run
 * once more afterwards; an immediate add is never postponed by a delayed add or a backoff; a key held
 * by a dead replica runs again elsewhere within a bounded time; close() drains what is in flight.
 */
export interface WorkQueue {
  /** Makes `key` run as soon as a worker is free. */
  add(key: string): Promise<void>;
  /** Makes `key` run after `delayMs`, unless it is due sooner already (the earliest time wins). */
  addAfter(key: string, delayMs: number): Promise<void>;
  /** Makes `key` run again after its per-key exponential backoff. */
  addRateLimited(key: string): Promise<void>;
  /** Resets the backoff of `key` after a successful run. */
  forget(key: string): Promise<void>;
  /** Starts taking keys and runs `handler` for each, at most `concurrency` at once in this replica. */
  process(handler: (key: string, signal: AbortSignal) => Promise<void>): void;
  /** Stops taking work and waits for running handlers, at most `timeoutMs`. */
  close(timeoutMs?: number): Promise<void>;
}
