import { TerminalError } from '../../model/action.js';
import type { Plan } from '../plan/plan.js';
import { Reason } from '../status/conditions.js';

/** A plan the controller will not carry out: the condition reason and the error whose message the condition shows. */
export interface PlanRefusal {
  readonly reason: string;
  readonly error: TerminalError;
}

/**
 * Why the controller refuses a plan before writing anything: an Application it wants is controlled by someone
 * else (the first conflict), or the deletion guard stopped its deletes. Shared by the reconciler and
 * `appset diff`, so a preview says exactly what the condition will say.
 */
export function planRefusal(plan: Plan, requeueAfterMs: number | undefined): PlanRefusal | undefined {
  const conflict = plan.conflicts[0];
  if (conflict) {
    const more = plan.conflicts.length > 1 ? ` (and ${plan.conflicts.length - 1} more)` : '';
    return {
      reason: Reason.UpdateApplicationError,
      error: new TerminalError(`Application ${conflict.name} already exists and is controlled by ${conflict.owner}; it is not taken over${more}`, {
        requeueAfterMs,
      }),
    };
  }
  if (plan.deletionRefused) {
    const { wanted, owned, allowed } = plan.deletionRefused;
    const message = `refusing to delete ${wanted} of ${owned} Applications in one reconcile (at most ${allowed} allowed); if this is intended, annotate the ApplicationSet with appset-controller.io/allow-mass-deletion: "true"`;
    return { reason: Reason.DeleteApplicationError, error: new TerminalError(message, { requeueAfterMs }) };
  }
  return undefined;
}
