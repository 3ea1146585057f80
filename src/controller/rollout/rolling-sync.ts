import { TerminalError } from '../../model/action.js';

/** One `matchExpressions` entry of a RollingSync step: a label key, `In` or `NotIn`, and values. */
export interface StepMatchExpression {
  readonly key: string;
  readonly operator: 'In' | 'NotIn';
  readonly values: readonly string[];
}

/** One `rollingSync.steps[]` entry. */
export interface RolloutStep {
  readonly matchExpressions: readonly StepMatchExpression[];
  /** How many Applications of the step may be Pending or Progressing at once: a count or `N%` (Kubernetes IntOrString). */
  readonly maxUpdate?: number | string;
}

/** `spec.strategy` with `type: RollingSync` and a `rollingSync` block, read and checked. */
export interface RollingSync {
  /** Empty steps: Argo CD treats the ApplicationSet as RollingSync for its status, but rolls nothing out. */
  readonly steps: readonly RolloutStep[];
}

const FIELD = 'spec.strategy.rollingSync';

/** True if `strategy` names RollingSync with a `rollingSync` block, read leniently (nothing is checked or refused). */
export function namesRollingSync(strategy: unknown): boolean {
  return isObject(strategy) && strategy.type === 'RollingSync' && strategy.rollingSync !== undefined && strategy.rollingSync !== null;
}

/**
 * The RollingSync strategy of an ApplicationSet, or undefined when it has none (no strategy, `AllAtOnce`, or
 * `RollingSync` without a `rollingSync` block, which Argo CD also treats as no rollout). A malformed step is a
 * {@link TerminalError} naming its field; so are an operator other than `In` or `NotIn` (Argo CD logs it and silently
 * leaves the Application out of the step, so it would never be synced) and `deletionOrder: Reverse`.
 */
export function readRollingSync(strategy: unknown): RollingSync | undefined {
  if (!isObject(strategy) || strategy.type !== 'RollingSync') return undefined;
  const block = strategy.rollingSync;
  if (block === undefined || block === null) return undefined;
  // Argo CD deletes a RollingSync set's Applications step by step in reverse when the set is deleted; here the
  // garbage collector deletes them together, so the setting is refused rather than silently not honoured.
  if (typeof strategy.deletionOrder === 'string' && strategy.deletionOrder.toLowerCase() === 'reverse')
    throw new TerminalError(
      'spec.strategy.deletionOrder: Reverse is not supported by this controller (the garbage collector deletes the Applications together); remove it',
    );
  if (!isObject(block)) throw new TerminalError(`${FIELD}: must be an object`);
  if (block.steps === undefined || block.steps === null) return { steps: [] };
  if (!Array.isArray(block.steps)) throw new TerminalError(`${FIELD}.steps: must be a list`);
  return { steps: block.steps.map((step: unknown, i) => readStep(step, `${FIELD}.steps[${i}]`)) };
}

function readStep(raw: unknown, field: string): RolloutStep {
  if (!isObject(raw)) throw new TerminalError(`${field}: must be an object`);
  const expressions = raw.matchExpressions ?? [];
  if (!Array.isArray(expressions)) throw new TerminalError(`${field}.matchExpressions: must be a list`);
  const maxUpdate = raw.maxUpdate;
  if (maxUpdate !== undefined && maxUpdate !== null && !(typeof maxUpdate === 'string' || Number.isInteger(maxUpdate)))
    throw new TerminalError(`${field}.maxUpdate: must be an integer or a percentage such as "25%"`);
  return {
    matchExpressions: expressions.map((e: unknown, i) => readExpression(e, `${field}.matchExpressions[${i}]`)),
    ...(maxUpdate === undefined || maxUpdate === null ? {} : { maxUpdate: maxUpdate as number | string }),
  };
}

function readExpression(raw: unknown, field: string): StepMatchExpression {
  if (!isObject(raw)) throw new TerminalError(`${field}: must be an object`);
  const { key, operator, values } = raw;
  if (typeof key !== 'string' || key === '') throw new TerminalError(`${field}.key: must be a label key`);
  if (operator !== 'In' && operator !== 'NotIn')
    throw new TerminalError(`${field}.operator: ${JSON.stringify(operator ?? null)} is not supported; use In or NotIn`);
  const list = values ?? [];
  if (!Array.isArray(list) || !list.every((v) => typeof v === 'string')) throw new TerminalError(`${field}.values: must be a list of strings`);
  return { key, operator, values: list };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
