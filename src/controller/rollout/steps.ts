import type { RolloutStep, StepMatchExpression } from './rolling-sync.js';

/** An Application as step assignment sees it: its name and labels. */
export interface Labelled {
  readonly name: string;
  readonly labels?: Readonly<Record<string, string>>;
}

/** Which Applications each step holds, and each Application's step. */
export interface StepAssignment {
  /** Per step, the names of its Applications in generation order (an Application may be in several). */
  readonly byStep: readonly (readonly string[])[];
  /** The first step (0-based) that selects each Application; Applications no step selects are absent. */
  readonly stepOf: ReadonlyMap<string, number>;
}

/**
 * Sorts the generated Applications into steps by their labels, as Argo CD does: every expression of a step must
 * hold; a missing label fails `In` and passes `NotIn`; a step without expressions takes every Application.
 */
export function assignSteps(steps: readonly RolloutStep[], applications: readonly Labelled[]): StepAssignment {
  const byStep = steps.map(() => [] as string[]);
  const stepOf = new Map<string, number>();
  for (const app of applications) {
    steps.forEach((step, i) => {
      if (!step.matchExpressions.every((expression) => expressionHolds(expression, app.labels))) return;
      byStep[i]?.push(app.name);
      if (!stepOf.has(app.name)) stepOf.set(app.name, i);
    });
  }
  return { byStep, stepOf };
}

function expressionHolds(expression: StepMatchExpression, labels: Readonly<Record<string, string>> | undefined): boolean {
  const value = labels?.[expression.key];
  if (value === undefined) return expression.operator === 'NotIn';
  return expression.values.includes(value) === (expression.operator === 'In');
}

/** The step as Argo CD writes it in `applicationStatus`: 1-based, `-1` for an Application no step selects. */
export function stepLabel(stepOf: ReadonlyMap<string, number>, name: string): string {
  const step = stepOf.get(name);
  return String(step === undefined ? -1 : step + 1);
}
