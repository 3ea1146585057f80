/** Longest key accepted; Kubernetes namespace (63) + '/' + name (253) fit comfortably. */
export const MAX_KEY_LENGTH = 1024;

/** Throws a clear error unless `key` is a usable queue key (a non-empty string without control characters). */
export function assertValidKey(key: unknown): asserts key is string {
  if (typeof key !== 'string') throw new TypeError(`queue key must be a string, got ${typeof key}`);
  if (key.length === 0) throw new TypeError('queue key must not be empty');
  if (key.length > MAX_KEY_LENGTH) throw new TypeError(`queue key is ${key.length} characters long, at most ${MAX_KEY_LENGTH} are allowed`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(key)) throw new TypeError(`queue key ${JSON.stringify(key)} contains a control character`);
}

/** Throws unless `delayMs` is a finite, non-negative number of milliseconds. */
export function assertValidDelay(delayMs: unknown): asserts delayMs is number {
  if (typeof delayMs !== 'number' || !Number.isFinite(delayMs) || delayMs < 0) {
    throw new RangeError(`delay must be a finite number of milliseconds >= 0, got ${String(delayMs)}`);
  }
}

/**
 * Encodes a key for use inside Redis key names and BullMQ ids. Injective, and free of ':' (BullMQ's
 * separator), '{' and '}' (hash tags), so 'a:b' and 'a%3Ab' stay distinct keys.
 */
export function encodeKey(key: string): string {
  return encodeURIComponent(key);
}
