import { AppsetError } from './errors.js';
/** What a reconcile asks for next: run again after a delay, or wait for a watch event. */
export type Action = { readonly kind: 'requeue'; readonly afterMs: number } | { readonly kind: 'awaitChange' };

/** Run this ApplicationSet again in `afterMs` milliseconds (for example a Git poll interval). */
export function requeue(afterMs: number): Action {
  if (!Number.isFinite(afterMs) || afterMs < 0) throw new RangeError(`requeue delay must be a finite, non-negative number, got ${afterMs}`);
  return { kind: 'requeue', afterMs };
}

/** Run this ApplicationSet again only when something it depends on changes. */
export function awaitChange(): Action {
  return { kind: 'awaitChange' };
}

/**
 * An error that retrying cannot fix (a bad spec): the runner writes an ErrorOccurred condition and
 * waits for the ApplicationSet to change instead of backing off.
 */
export class TerminalError extends AppsetError {
  override readonly name: string = 'TerminalError';
  /**
   * When set, the key still runs again after this long: a refusal that depends on what the generators
   * read (the deletion guard, a conflict) is reconsidered at their requeue interval, not only on a change.
   */
  readonly requeueAfterMs: number | undefined;

  constructor(message: string, options: { requeueAfterMs?: number | undefined } = {}) {
    super(message);
    this.requeueAfterMs = options.requeueAfterMs;
  }
}
