import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { WorkHandler } from '../queue/work-queue.js';
import type { WorkQueue } from '../queue/work-queue.js';
import { TerminalError, type Action } from './action.js';

/** What one reconcile gets besides its key. */
export interface ReconcileContext {
  readonly signal: AbortSignal;
  /** Bound to the ApplicationSet key and this reconcile's id: every line carries both. */
  readonly log: Logger;
  readonly reconcileId: string;
}

/** Reconciles one ApplicationSet key; returns what to do next or throws, never both. */
export type ReconcileFunction = (key: string, ctx: ReconcileContext) => Promise<Action>;

/** The one place that turns a reconcile's Action or error into the queue's next step. */
export interface RunnerOptions {
  readonly queue: Pick<WorkQueue, 'addAfter'>;
  readonly reconcile: ReconcileFunction;
  /** Records a bad spec (condition and Event); the key then waits for the ApplicationSet to change. */
  readonly onTerminalError: (key: string, error: TerminalError, ctx: ReconcileContext) => Promise<void>;
  readonly log: Logger;
  /** Observes each reconcile's duration and outcome, and the error when it failed. */
  readonly observe?: (key: string, seconds: number, outcome: 'success' | 'terminal' | 'error', error?: unknown) => void;
}

/**
 * The queue handler: `requeue(ms)` schedules the key again, `awaitChange` leaves it to watch events,
 * a TerminalError is reported and not retried (retrying cannot fix a bad spec), and any other error is
 * rethrown so the queue retries the key with its exponential backoff.
 */
export function createReconcileHandler(options: RunnerOptions): WorkHandler {
  return async (key, signal) => {
    const reconcileId = randomBytes(6).toString('hex');
    const ctx: ReconcileContext = { signal, reconcileId, log: options.log.child({ appset: key, reconcileId }) };
    const started = performance.now();
    const seconds = (): number => (performance.now() - started) / 1000;
    let action: Action;
    try {
      action = await options.reconcile(key, ctx);
    } catch (error) {
      if (error instanceof TerminalError) {
        // A refusal is expected (a bad spec, a tenancy rule): its message names the rule, a stack adds nothing.
        ctx.log.warn({ reason: error.message }, 'reconcile refused the ApplicationSet; waiting for it to change');
        await options.onTerminalError(key, error, ctx);
        options.observe?.(key, seconds(), 'terminal', error);
        if (error.requeueAfterMs !== undefined) await options.queue.addAfter(key, error.requeueAfterMs);
        return;
      }
      ctx.log.error({ err: error }, 'reconcile failed; retrying with backoff');
      options.observe?.(key, seconds(), 'error', error);
      throw error;
    }
    options.observe?.(key, seconds(), 'success');
    if (action.kind === 'requeue') await options.queue.addAfter(key, action.afterMs);
    ctx.log.debug({ action }, 'reconciled');
  };
}
