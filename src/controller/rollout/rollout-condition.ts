import type { ApplicationRolloutStatus } from './application-status.js';

/** The `RolloutProgressing` condition, before its timestamp, as Argo CD words it. */
export interface RolloutCondition {
  readonly type: 'RolloutProgressing';
  readonly status: 'True' | 'False';
  readonly reason: 'ApplicationSetModified' | 'ApplicationSetRolloutComplete';
  readonly message: string;
}

/** Progressing at the first step (in order) with an Application that is not Healthy; complete when there is none. */
export function rolloutCondition(stepCount: number, statuses: readonly ApplicationRolloutStatus[]): RolloutCondition {
  const completed = new Map<string, boolean>();
  for (const entry of statuses) completed.set(entry.step, (completed.get(entry.step) ?? true) && entry.status === 'Healthy');
  for (let i = 1; i <= stepCount; i++) {
    if (completed.get(String(i)) === false) {
      return { type: 'RolloutProgressing', status: 'True', reason: 'ApplicationSetModified', message: `ApplicationSet is performing rollout of step ${i}` };
    }
  }
  return { type: 'RolloutProgressing', status: 'False', reason: 'ApplicationSetRolloutComplete', message: 'ApplicationSet Rollout has completed' };
}
