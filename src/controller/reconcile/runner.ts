import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { WorkHandler, WorkQueue } from '../../queue/work-queue.js';
import type { Action } from '../../model/action.js';
import { AppsetError } from '../../model/errors.js';
import { ReconcileFailure } from './failure.js';

/** What one reconcile gets besides its key. */
export interface ReconcileContext {
  readonly signal: AbortSignal;
  /** Bound to the ApplicationSet key and this reconcile's id: every line carries both. */
  readonly log: Logger;
  readonly reconcileId: string;
}

/** Reconciles one ApplicationSet key; returns what to do next or throws, never both. */
export type ReconcileFunction = (key: string, ctx: ReconcileContext) => Promise<Action>;

/** How a reconcile ended, for the metrics. */
export type ReconcileResult = 'success' | 'terminal' | 'error';

/** The one place that turns a reconcile's Action or failure into status, Event, log, metric and retry. */
export interface RunnerOptions {
  readonly queue: Pick<WorkQueue, 'addAfter'>;
  readonly reconcile: ReconcileFunction;
  /** Reports a failure on its ApplicationSet (condition and Event); see report.ts's reportFailure. */
  readonly report: (key: string, failure: ReconcileFailure, ctx: ReconcileContext) => Promise<void>;
  readonly log: Logger;
  /** Observes each reconcile's duration and result, and the failure's reason when it failed. */
  readonly observe?: (key: string, seconds: number, result: ReconcileResult, reason?: string) => void;
}

/**
 * The queue handler. `requeue(ms)` schedules the key again and `awaitChange` leaves it to watch events.
 * A failure is reported once (condition, Event, one log line, the metric); a terminal one is not retried
 * (retrying cannot fix a bad spec) but looked at again after its requeue delay when it has one, and any
 * other is rethrown so the queue retries the key with its exponential backoff.
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
      const terminal = error instanceof ReconcileFailure && error.terminal;
      const reason = error instanceof AppsetError ? error.reason : error instanceof Error && error.name !== 'Error' ? error.name : 'Unknown';
      if (error instanceof ReconcileFailure) await options.report(key, error, ctx);
      options.observe?.(key, seconds(), terminal ? 'terminal' : 'error', reason);
      if (terminal) {
        // A refusal is expected (a bad spec, a tenancy rule): its message names the rule, a stack adds nothing.
        ctx.log.warn({ reason: error.message, condition: reason }, 'reconcile refused the ApplicationSet; waiting for it to change');
        if (error.requeueAfterMs !== undefined) await options.queue.addAfter(key, error.requeueAfterMs);
        return;
      }
      ctx.log.error({ err: error instanceof ReconcileFailure ? (error.cause ?? error) : error, condition: reason }, 'reconcile failed; retrying with backoff');
      throw error;
    }
    options.observe?.(key, seconds(), 'success');
    if (action.kind === 'requeue') await options.queue.addAfter(key, action.afterMs);
    ctx.log.debug({ action }, 'reconciled');
  };
}
