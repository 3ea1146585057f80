/** One field error, as the API server's `field.Error` holds it (k8s.io/apimachinery/pkg/util/validation/field). */
export interface FieldError {
  readonly type: 'Invalid value' | 'Required value' | 'Unsupported value' | 'Too long' | 'Too many' | 'Forbidden';
  /** The field path, `spec.generators[0].list`. */
  readonly field: string;
  /** The bad value; absent for the types the API server prints without one. */
  readonly value?: unknown;
  readonly detail: string;
}

/** `field: Type[: value][: detail]`, the text the API server gives for the error (its `Error()`). */
export function formatFieldError(error: FieldError): string {
  const withValue = error.type !== 'Required value' && error.type !== 'Too long' && error.type !== 'Forbidden';
  let body: string = error.type;
  if (withValue) body += `: ${goValue(error.value)}`;
  if (error.detail !== '') body += `: ${error.detail}`;
  return `${error.field}: ${body}`;
}

/** A value as the API server prints it in an error: strings quoted, numbers and booleans bare, anything else as JSON. */
export function goValue(value: unknown): string {
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value ?? null);
}

/** Go's %q of a string, for the printable text manifests hold (JSON's escaping, which agrees on it). */
export function goQuote(text: string): string {
  return JSON.stringify(text);
}
