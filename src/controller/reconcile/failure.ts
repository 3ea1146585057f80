import { GitError } from '../../git/git-error.js';
import { TerminalError } from '../../model/action.js';
import { AppsetError } from '../../model/errors.js';
import type { ApplicationSetObject } from './applicationset.js';
import { Reason } from '../status/conditions.js';

/** What a failed reconcile was doing, for its condition. */
export interface FailureStage {
  /** Argo CD's condition reason for this stage (`ApplicationGenerationFromParamsError`, ...). */
  readonly reason: string;
  /** Whether the generators had produced parameters before it failed. */
  readonly parametersGenerated: boolean;
  /**
   * For a terminal failure whose error names no requeue: look again after this long (a refusal found in what
   * the generators produced may go away with the next commit, which only a look at their interval notices).
   */
  readonly requeueAfterMs?: number | undefined;
}

/**
 * The one typed failure of a reconcile: why (the condition reason), whether a retry could fix it,
 * whether parameters were generated, when to look again, and the error behind it. The reconciler throws
 * only this; the runner alone turns it into a condition, an Event, a log line, a metric and a retry.
 */
export class ReconcileFailure extends AppsetError {
  override readonly name = 'ReconcileFailure';
  private readonly conditionReason: string;
  /** True when no retry can fix it (a bad spec, a tenancy rule): the key waits for a change instead. */
  readonly terminal: boolean;
  readonly parametersGenerated: boolean;
  /** For a terminal failure that depends on what the generators read: look again after this long. */
  readonly requeueAfterMs: number | undefined;
  /** The ApplicationSet whose status and Events report it; undefined when it failed before one was read. */
  readonly appset: ApplicationSetObject | undefined;

  constructor(stage: FailureStage, cause: unknown, appset: ApplicationSetObject | undefined) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.conditionReason = stage.reason;
    this.parametersGenerated = stage.parametersGenerated;
    this.terminal = isTerminal(cause);
    this.requeueAfterMs = cause instanceof TerminalError ? (cause.requeueAfterMs ?? stage.requeueAfterMs) : undefined;
    this.appset = appset;
  }

  /** The condition reason: also the metric label and the Event reason. */
  override get reason(): string {
    return this.conditionReason;
  }
}

/**
 * Errors no retry can fix: a TerminalError (a tenancy violation, a refused generator spec, SCM or plugin
 * request, a templatePatch that changes the project, Argo CD's validation, ...), a refused repository URL or
 * revision, an unsupported credential. Other render errors and content errors in Git (a malformed file) stay
 * retryable: parameters may come from Git, the next commit may fix them, and only a retry would notice.
 */
function isTerminal(cause: unknown): boolean {
  if (cause instanceof TerminalError) return true;
  return cause instanceof GitError && (cause.kind === 'invalid-input' || cause.kind === 'unsupported');
}

/** Any error as a ReconcileFailure: one that is already stays as it is, anything else failed at `stage`. */
export function asReconcileFailure(
  error: unknown,
  appset: ApplicationSetObject | undefined,
  stage: FailureStage = { reason: Reason.ErrorOccurred, parametersGenerated: true },
): ReconcileFailure {
  return error instanceof ReconcileFailure ? error : new ReconcileFailure(stage, error, appset);
}
