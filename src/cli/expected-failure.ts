import { AppsetError } from '../model/errors.js';
/**
 * A failure the user can act on from its message alone (a missing file, bad YAML, a missing program):
 * `appset` prints the message and exits with `exitCode`, never a stack trace.
 */
export class ExpectedFailure extends AppsetError {
  override readonly name = 'ExpectedFailure';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** Node's error codes for a problem outside the program: a file, a connection, a permission. */
const ENVIRONMENT_CODES = new Set([
  'ENOENT',
  'EACCES',
  'EISDIR',
  'ENOTDIR',
  'EPERM',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EADDRINUSE',
  'EADDRNOTAVAIL',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

/** True for an error that says what is wrong around the program rather than inside it. */
export function isExpectedFailure(error: unknown): error is Error {
  if (error instanceof ExpectedFailure) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && ENVIRONMENT_CODES.has(code);
}
