/** Settings of {@link Backoff}. */
export interface BackoffOptions {
  /** First delay; default 800 ms. */
  initialMs?: number;
  /** Ceiling of the delay; default 30 s. */
  maxMs?: number;
  /** Fraction of each delay that is randomised (0..1); default 0.5, so replicas do not retry in lockstep. */
  jitter?: number;
}

/** Exponential backoff with jitter: about initialMs, doubling to maxMs, reset after a success. */
export class Backoff {
  private attempt = 0;
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly jitter: number;

  constructor(
    options: BackoffOptions = {},
    private readonly random: () => number = Math.random,
  ) {
    this.initialMs = options.initialMs ?? 800;
    this.maxMs = options.maxMs ?? 30_000;
    this.jitter = options.jitter ?? 0.5;
    if (!(this.initialMs > 0 && this.maxMs >= this.initialMs)) throw new Error(`backoff needs 0 < initialMs <= maxMs, got ${this.initialMs} and ${this.maxMs}`);
    if (!(this.jitter >= 0 && this.jitter <= 1)) throw new Error(`backoff jitter must be within 0..1, got ${this.jitter}`);
  }

  /** The next delay: the capped exponential step, scaled down by up to `jitter` at random. */
  next(): number {
    const step = Math.min(this.maxMs, this.initialMs * 2 ** this.attempt);
    this.attempt = Math.min(this.attempt + 1, 40);
    return Math.round(step * (1 - this.jitter * this.random()));
  }

  /** Starts again from the first delay. */
  reset(): void {
    this.attempt = 0;
  }
}

/** Resolves after `ms`, or at once when `signal` aborts (never rejects: the caller checks the signal). */
export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
