/**
 * Maps and lists that Argo CD's generators hold as typed Go values (`map[string]string` for cluster labels and
 * annotations and for `values`, `[]string` for path segments and pull request labels). Argo CD flattens params
 * for a post selector with a library that only descends into `map[string]any` and `[]any`, so with goTemplate a
 * selector sees such a value whole, as Go prints it (`map[env:prod]`), and `metadata.labels.env` names nothing.
 * Marking them here lets the selector do the same without changing the values templates see.
 */
const goTyped = new WeakSet<object>();

/** Marks `value` as a typed Go map or list (see above) and returns it. */
export function goTypedValue<T extends object>(value: T): T {
  goTyped.add(value);
  return value;
}

/** Whether `value` was marked by {@link goTypedValue}. */
export function isGoTyped(value: unknown): boolean {
  return typeof value === 'object' && value !== null && goTyped.has(value);
}
