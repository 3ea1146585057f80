/** Condition reasons of failed reconciles, by error object (a WeakMap: errors are not mutated). */
const reasons = new WeakMap<object, string>();

/** Remembers why a reconcile failed (its condition reason, e.g. `ParamsGenerationError`); returns the error. */
export function tagReason<E>(error: E, reason: string): E {
  if (typeof error === 'object' && error !== null) reasons.set(error, reason);
  return error;
}

/** The reason a reconcile failed, for the error metric: the tagged condition reason, else the error's name. */
export function reasonOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const tagged = reasons.get(error);
    if (tagged) return tagged;
    if (error instanceof Error && error.name !== 'Error') return error.name;
  }
  return 'Unknown';
}
