import { AppsetError } from '../../model/errors.js';

/** The caller's signal ended a request, as Node's own requests say it (an AbortError). */
export class RequestAbortedError extends AppsetError {
  override readonly name = 'AbortError';
  readonly code = 'ABORT_ERR';
  constructor(override readonly cause: unknown) {
    super('the request was aborted');
  }
}
