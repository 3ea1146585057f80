import type { WorkQueueCounters } from './work-queue.js';

/** Samples kept between two reads; older ones are dropped so an unread queue cannot grow memory. */
const MAX_LATENCY_SAMPLES = 10_000;

/** Counters and add-to-start latency samples of one replica's queue. */
export class QueueStats {
  private readonly values: WorkQueueCounters = { adds: 0, retries: 0, runs: 0, failures: 0 };
  private samples: number[] = [];

  /** Counts one add of any kind. */
  countAdd(): void {
    this.values.adds++;
  }

  /** Counts one retry scheduled with backoff. */
  countRetry(): void {
    this.values.retries++;
  }

  /** Counts a run that started `latencyMs` after its key became due. */
  countRun(latencyMs: number): void {
    this.values.runs++;
    if (this.samples.length >= MAX_LATENCY_SAMPLES) this.samples.shift();
    this.samples.push(Math.max(0, latencyMs));
  }

  /** Counts a run whose handler threw. */
  countFailure(): void {
    this.values.failures++;
  }

  /** A copy of the counters. */
  counters(): WorkQueueCounters {
    return { ...this.values };
  }

  /** Returns the latency samples recorded since the last call and forgets them. */
  takeLatencySamples(): number[] {
    const taken = this.samples;
    this.samples = [];
    return taken;
  }
}
