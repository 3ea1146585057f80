import { setTimeout as sleep } from 'node:timers/promises';

/** Options of {@link waitFor}. */
export interface WaitOptions {
  /** What is awaited, for the timeout message. */
  what: string;
  timeoutMs?: number;
  intervalMs?: number;
}

/**
 * Polls `probe` until it returns a value other than undefined/false, and returns that value.
 * A probe that throws counts as "not yet"; the last error is quoted when time runs out.
 */
export async function waitFor<T>(probe: () => Promise<T | undefined | false> | T | undefined | false, options: WaitOptions): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? `: last error: ${lastError.message}` : '';
      throw new Error(`timed out after ${options.timeoutMs ?? 30_000} ms waiting for ${options.what}${cause}`);
    }
    await sleep(options.intervalMs ?? 100);
  }
}
