import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from 'pino';

/** How long no reconcile may finish before the replica counts as idle. */
const IDLE_MS = 10_000;
/** How often the replica looks whether it is idle. */
const CHECK_EVERY_MS = 5_000;
/**
 * Heap growth since the last release below which a collection is not worth it. Converging 1,000
 * Applications grows the heap by about 9 MiB (of which 4 MiB stay live), so 16 MiB, the first choice,
 * left that burst's garbage resident.
 */
const MIN_GROWTH_BYTES = 4 * 2 ** 20;

/** What {@link releaseMemoryWhenIdle} reads and does; tests replace them. */
export interface IdleMemoryParts {
  /** Bytes of memory the JavaScript heap holds (live objects, garbage not yet collected and free room). */
  readonly heapSize: () => number;
  /** A full collection that gives free memory back to the operating system. */
  readonly collect: () => void;
  readonly now: () => number;
}

/** V8's own parts: its heap figures, and its memory-reducing collection (the one it runs under memory pressure). */
export function v8IdleMemoryParts(): IdleMemoryParts {
  // The replica is started without --expose-gc; the flag still makes V8 give new contexts a gc function,
  // and only that context sees it (nothing is added to this one's globals).
  setFlagsFromString('--expose-gc');
  // A last-resort collection runs several collections back to back, which ages every function that is not
  // running until V8 throws its bytecode, type feedback and optimised code away: the next burst ran
  // unoptimised and compiled its hot code again. Kept, an update wave of 10,000 Applications after an idle
  // collection cost the replica 29 and 43 % less CPU in two pairs, and the settled replica was no larger (docs/benchmarks.md,
  // session 23).
  setFlagsFromString('--no-flush-bytecode');
  const gc = runInNewContext('gc') as (options: { type: string; execution: string; flavor: string }) => void;
  return {
    heapSize: () => getHeapStatistics().total_physical_size,
    collect: () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' }),
    now: () => performance.now(),
  };
}

/**
 * Gives the memory a burst of work left behind back to the operating system once the replica is idle.
 * V8 grows its heap during a converge and keeps the garbage until it next needs room, which an idle
 * replica never does: after converging 1,000 Applications, about 60 MiB of a replica's resident memory was
 * such garbage (docs/benchmarks.md). Once no reconcile has finished for 10 s after some did, and the heap
 * has grown by at least 4 MiB since the last release (dead objects count as used until collected, so
 * growth is the signal, not free room), one memory-reducing collection runs (about 0.1 s with 1,000
 * Applications cached); then not again until work has run again. `activity` is called for each
 * finished reconcile.
 */
export function releaseMemoryWhenIdle(options: { signal: AbortSignal; log: Logger; parts?: IdleMemoryParts }): { readonly activity: () => void } {
  const parts = options.parts ?? v8IdleMemoryParts();
  let lastActivity: number | undefined;
  let baseline = parts.heapSize();
  const timer = setInterval(() => {
    if (lastActivity === undefined || parts.now() - lastActivity < IDLE_MS) return;
    lastActivity = undefined;
    const size = parts.heapSize();
    if (size - baseline < MIN_GROWTH_BYTES) {
      options.log.debug({ heapMiB: mib(size), grewMiB: mib(size - baseline) }, 'idle: the heap grew too little to be worth a collection');
      return;
    }
    const started = performance.now();
    const rssBefore = process.memoryUsage.rss();
    parts.collect();
    baseline = parts.heapSize();
    options.log.debug(
      {
        heapBeforeMiB: mib(size),
        heapAfterMiB: mib(baseline),
        rssBeforeMiB: mib(rssBefore),
        rssAfterMiB: mib(process.memoryUsage.rss()),
        ms: Math.round(performance.now() - started),
      },
      'idle: gave the memory of the last burst of work back',
    );
  }, CHECK_EVERY_MS);
  timer.unref();
  options.signal.addEventListener('abort', () => clearInterval(timer), { once: true });
  return { activity: () => void (lastActivity = parts.now()) };
}

const mib = (bytes: number): number => Math.round(bytes / 2 ** 20);
