// Shared by the worker-process script and the tests that spawn it (the script runs on import, this does not).
import type { RedisConnectionOptions } from '../../src/queue/redis-connection.js';

/** What the spawning test tells a worker process. */
export interface WorkerProcessConfig {
  redisUrl: string;
  /** This queue's workers connect with these options instead of `redisUrl` (e.g. through Sentinels). */
  connection?: RedisConnectionOptions;
  name: string;
  recordFile: string;
  concurrency: number;
  /** Handler duration is uniform in [0, maxHandlerMs). */
  maxHandlerMs: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** Runs of this key take `slowMs`. */
  slowKey?: string;
  slowMs?: number;
  /** Resync every `resyncIntervalMs` with the keys `workerKey(0..resyncKeyCount-1)`. */
  resyncKeyCount?: number;
  resyncIntervalMs?: number;
}

/** The i-th key of the multi-process tests: spread over ten namespaces, with a ':' BullMQ reserves. */
export function workerKey(i: number): string {
  return `ns-${i % 10}/app:${i}`;
}

/** Monotonic time in ms with sub-ms precision, comparable across processes on one machine. */
export function preciseNow(): number {
  // The system's monotonic clock is one clock for every process. `performance.timeOrigin` is not: each
  // process fixes its own from the wall clock at start, and two processes' origins were 12.5 ms apart here,
  // enough to make back-to-back runs of one key on two workers look like an overlap.
  return Number(process.hrtime.bigint()) / 1e6;
}
