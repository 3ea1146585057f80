import type { Counter } from 'prom-client';
import type { ExecutionResult } from './execute-plan.js';

/** Counts one reconcile's Application writes into `appset_application_writes_total` by operation and result. */
export function countApplicationWrites(counter: Counter<'operation' | 'result'>): (result: ExecutionResult) => void {
  return (result) => {
    const done = [
      ['create', result.created],
      ['update', result.updated],
      ['delete', result.deleted],
    ] as const;
    for (const [operation, names] of done) if (names.length > 0) counter.inc({ operation, result: 'success' }, names.length);
    for (const failure of result.failures) counter.inc({ operation: failure.operation, result: 'error' });
  };
}
