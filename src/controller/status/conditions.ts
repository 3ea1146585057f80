/** ApplicationSet status conditions with Argo CD's types, reasons and lastTransitionTime rules. */

/** Condition types the controller writes. */
export type ConditionType = 'ErrorOccurred' | 'ParametersGenerated' | 'ResourcesUpToDate';

/** Argo CD's condition reasons, under their Argo CD values. */
export const Reason = {
  ErrorOccurred: 'ErrorOccurred',
  UpToDate: 'ApplicationSetUpToDate',
  ParametersGenerated: 'ParametersGenerated',
  ParamsGenerationError: 'ApplicationGenerationFromParamsError',
  RenderTemplateParamsError: 'RenderTemplateParamsError',
  ValidationError: 'ApplicationValidationError',
  CreateApplicationError: 'CreateApplicationError',
  UpdateApplicationError: 'UpdateApplicationError',
  DeleteApplicationError: 'DeleteApplicationError',
  RefreshApplicationError: 'RefreshApplicationError',
} as const;

/** A status condition as stored on the ApplicationSet. */
export interface Condition {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason: string;
  readonly message: string;
  readonly lastTransitionTime: string;
}

/** How a reconcile ended, as far as status conditions tell it. */
export type ReconcileOutcome =
  { readonly kind: 'success' } | { readonly kind: 'error'; readonly reason: string; readonly message: string; readonly parametersGenerated: boolean };

const GENERATED = 'Successfully generated parameters for all Applications';
const ALL_GENERATED = 'All applications have been generated successfully';

/** The conditions an outcome sets, before timestamps (Argo CD 3.x's set). */
export function conditionsFor(outcome: ReconcileOutcome): Array<Omit<Condition, 'lastTransitionTime'>> {
  if (outcome.kind === 'success') {
    return [
      { type: 'ErrorOccurred', status: 'False', reason: Reason.UpToDate, message: ALL_GENERATED },
      { type: 'ParametersGenerated', status: 'True', reason: Reason.ParametersGenerated, message: GENERATED },
      { type: 'ResourcesUpToDate', status: 'True', reason: Reason.UpToDate, message: ALL_GENERATED },
    ];
  }
  return [
    { type: 'ErrorOccurred', status: 'True', reason: outcome.reason, message: outcome.message },
    outcome.parametersGenerated
      ? { type: 'ParametersGenerated', status: 'True', reason: Reason.ParametersGenerated, message: GENERATED }
      : { type: 'ParametersGenerated', status: 'False', reason: Reason.ErrorOccurred, message: outcome.message },
    { type: 'ResourcesUpToDate', status: 'False', reason: Reason.ErrorOccurred, message: outcome.message },
  ];
}

/**
 * Merges new conditions into the previous ones: a condition keeps its lastTransitionTime unless its
 * status, reason or message changed; conditions of other types are kept; the result is sorted by type.
 */
export function mergeConditions(
  previous: readonly Condition[] | undefined,
  next: ReadonlyArray<Omit<Condition, 'lastTransitionTime'>>,
  now: string,
): Condition[] {
  const before = new Map((previous ?? []).map((c) => [c.type, c]));
  const merged = new Map(before);
  for (const condition of next) {
    const old = before.get(condition.type);
    const same = old && old.status === condition.status && old.reason === condition.reason && old.message === condition.message;
    merged.set(condition.type, same ? old : { ...condition, lastTransitionTime: now });
  }
  return [...merged.values()].sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
}

/** True if the two condition lists differ in anything but timestamps (then the status must be written). */
export function conditionsDiffer(a: readonly Condition[] | undefined, b: readonly Condition[]): boolean {
  const key = (c: Condition): string => `${c.type}\u0000${c.status}\u0000${c.reason}\u0000${c.message}`;
  const left = (a ?? []).map(key).sort();
  const right = b.map(key).sort();
  return left.length !== right.length || left.some((k, i) => k !== right[i]);
}
