import { TerminalError } from '../../model/action.js';
import { AppsetError } from '../../model/errors.js';

/** An SCM provider API answered with an error status (or not at all); the message names the host, path and status. */
export class ScmApiError extends AppsetError {
  override readonly name: string = 'ScmApiError';
  constructor(
    message: string,
    /** The HTTP status, or 0 when no answer came (connection, timeout, size limit). */
    readonly status: number,
    /** The provider's own error text, when its body carried one. */
    readonly providerMessage?: string,
  ) {
    super(message);
  }
}

/** The provider asked us to wait longer than we are willing to (Retry-After, rate-limit reset). */
export class ScmRateLimitedError extends ScmApiError {
  override readonly name = 'ScmRateLimitedError';
  constructor(
    message: string,
    status: number,
    /** When the provider said requests may resume (ms since the epoch). */
    readonly retryAt: number,
  ) {
    super(message, status);
  }
}

/**
 * A request the tenancy or safety rules refused before anything was sent. Terminal: only a change of
 * the spec, a Secret or the controller's flags can lift it, so it is not retried with backoff.
 */
export class ScmRequestRefused extends TerminalError {
  override readonly name: string = 'ScmRequestRefused';
}
