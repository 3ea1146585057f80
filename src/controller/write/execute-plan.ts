import type { Plan } from '../plan/plan.js';
import type { Application } from '../../model/objects.js';
import { WritePool } from './write-pool.js';
import type { ApplicationWriter } from './application-writer.js';

/** Writes in flight per reconcile the controller budgets for: a replica's pool holds this many per concurrent reconcile. */
export const WRITES_PER_RECONCILE = 20;

/** One write that failed, for the status message and the retry. */
export interface WriteFailure {
  readonly name: string;
  readonly operation: 'create' | 'update' | 'delete';
  readonly error: unknown;
}

/** What carrying out a plan did. */
export interface ExecutionResult {
  readonly created: string[];
  readonly updated: string[];
  readonly deleted: string[];
  readonly failures: WriteFailure[];
}

/**
 * Carries out a plan's writes through `pool` (shared with the replica's other reconciles; by default one
 * of its own). Every write is attempted even when some fail (each is idempotent, so the retry redoes
 * only what is still needed); failures are returned.
 */
export async function executePlan(plan: Plan, writer: ApplicationWriter, pool = new WritePool(WRITES_PER_RECONCILE)): Promise<ExecutionResult> {
  const result: ExecutionResult = { created: [], updated: [], deleted: [], failures: [] };
  const tasks: Array<() => Promise<void>> = [
    ...plan.create.map((app) => write(app, 'create', () => writer.apply(app), result.created, result)),
    ...plan.update.map((app) => write(app, 'update', () => writer.apply(app), result.updated, result)),
    ...plan.delete.map((app) => write(app, 'delete', () => writer.delete(app), result.deleted, result)),
  ];
  await pool.run(tasks);
  return result;
}

function write(
  app: Application,
  operation: WriteFailure['operation'],
  action: () => Promise<unknown>,
  done: string[],
  result: ExecutionResult,
): () => Promise<void> {
  return async () => {
    try {
      await action();
      done.push(app.metadata.name);
    } catch (error) {
      result.failures.push({ name: app.metadata.name, operation, error });
    }
  };
}
