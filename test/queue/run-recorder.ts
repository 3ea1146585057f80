import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkHandler } from '../../src/queue/work-queue.js';

/** One handler run as a test saw it. */
export interface RecordedRun {
  key: string;
  start: number;
  end?: number;
  aborted?: boolean;
}

/**
 * A test handler: records every run, counts overlapping runs of one key, and lets a test hold a
 * key's runs until it releases them, or make them fail.
 */
export class RunRecorder {
  readonly runs: RecordedRun[] = [];
  overlaps = 0;
  maxConcurrent = 0;
  private readonly active = new Map<string, number>();
  private readonly held = new Map<string, Promise<void>>();
  private readonly releases = new Map<string, () => void>();
  private readonly failing = new Map<string, number>();

  /** Makes runs of `key` wait until {@link release}. */
  hold(key: string): void {
    this.held.set(key, new Promise<void>((resolve) => this.releases.set(key, resolve)));
  }

  /** Lets held runs of `key` finish. */
  release(key: string): void {
    this.releases.get(key)?.();
    this.held.delete(key);
  }

  /** Makes the next `times` runs of `key` throw. */
  fail(key: string, times: number): void {
    this.failing.set(key, times);
  }

  /** Runs of `key`, in start order. */
  runsOf(key: string): RecordedRun[] {
    return this.runs.filter((run) => run.key === key);
  }

  /** The handler to pass to process(). */
  readonly handler: WorkHandler = async (key, signal) => {
    const run: RecordedRun = { key, start: performance.now() };
    this.runs.push(run);
    const active = (this.active.get(key) ?? 0) + 1;
    this.active.set(key, active);
    if (active > 1) this.overlaps++;
    this.maxConcurrent = Math.max(
      this.maxConcurrent,
      [...this.active.values()].reduce((a, b) => a + b, 0),
    );
    try {
      const held = this.held.get(key);
      if (held) await Promise.race([held, new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))]);
      else await sleep(1);
      run.aborted = signal.aborted;
      const failures = this.failing.get(key) ?? 0;
      if (failures > 0) {
        this.failing.set(key, failures - 1);
        throw new Error(`planned failure of ${key}`);
      }
    } finally {
      run.end = performance.now();
      this.active.set(key, (this.active.get(key) ?? 1) - 1);
    }
  };
}
