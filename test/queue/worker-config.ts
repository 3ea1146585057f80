// Shared by the worker-process script and the tests that spawn it (the script runs on import, this does not).
/** What the spawning test tells a worker process. */
export interface WorkerProcessConfig {
  redisUrl: string;
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

/** Wall-clock time in ms with sub-ms precision, comparable across processes on one machine. */
export function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}
