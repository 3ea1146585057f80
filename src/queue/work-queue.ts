import { AppsetError } from '../model/errors.js';
/** Runs one key; resolving resets the key's backoff, throwing retries it after its backoff. */
export type WorkHandler = (key: string, signal: AbortSignal) => Promise<void>;

/** Counters of one replica's queue, read by the metrics module (cumulative since start). */
export interface WorkQueueCounters {
  /** Calls of add, addAfter and addRateLimited made through this replica. */
  adds: number;
  /** Retries scheduled with backoff (addRateLimited, also after a handler threw). */
  retries: number;
  /** Handler runs started in this replica. */
  runs: number;
  /** Handler runs that threw. */
  failures: number;
}

/**
 * Hands `namespace/name` keys to workers, across every replica, with client-go workqueue guarantees:
 * 1. a key never runs twice at once; 2. adds of a waiting key collapse into one run; 3. an add during
 * a run makes it run once more afterwards; 4. an immediate add is never postponed by a delayed add or
 * a backoff; 5. a key held by a dead replica runs again elsewhere within a bounded time;
 * 6. close() stops taking work and drains what is in flight.
 */
export interface WorkQueue {
  /** Makes `key` run as soon as a worker is free. */
  add(key: string): Promise<void>;
  /** Makes `key` run after `delayMs`, unless it is due sooner already (the earliest time wins). */
  addAfter(key: string, delayMs: number): Promise<void>;
  /** Makes `key` run again after its per-key exponential backoff (5 ms doubling, capped at 1000 s). */
  addRateLimited(key: string): Promise<void>;
  /** Resets the backoff of `key`; done automatically after a run that resolved. */
  forget(key: string): Promise<void>;
  /**
   * Starts taking keys and runs `handler` for each, at most `concurrency` at once in this replica.
   * A handler that throws is retried with backoff; one that resolves has its backoff reset.
   */
  process(handler: WorkHandler): void;
  /** Stops taking work and waits for running handlers; after `timeoutMs` their signals are aborted. */
  close(timeoutMs?: number): Promise<void>;
  /** Keys waiting to run now (not delayed, not running), across all replicas. */
  depth(): Promise<number>;
  /** This replica's counters. */
  counters(): WorkQueueCounters;
  /** Returns and clears the add-to-start latency samples (ms) recorded since the last call. */
  takeLatencySamples(): number[];
}

/** Options both implementations share. */
export interface WorkQueueOptions {
  /** Handlers running at once in this replica (default 1). */
  concurrency?: number;
  /** Global start rate limit: at most `max` runs per `durationMs`, across all replicas. */
  rateLimit?: { max: number; durationMs: number };
  /** Backoff of addRateLimited: `baseMs` doubling per failure, capped at `maxMs` (default 5 ms, 1000 s). */
  backoff?: { baseMs: number; maxMs: number };
}

/** Raised when a queue is used after close() finished. */
export class WorkQueueClosedError extends AppsetError {
  constructor(operation: string) {
    super(`work queue is closed: cannot ${operation}`);
    this.name = 'WorkQueueClosedError';
  }
}
