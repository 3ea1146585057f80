import { AppsetError } from '../model/errors.js';
/** Where a Git failure happened: always the repository, and the revision and path when known. */
export interface GitLocation {
  repoURL: string;
  revision?: string;
  path?: string;
}

/** Renders a location for a message, e.g. `repository "x", revision "main", path "a/b.yaml"`. */
export function describeLocation(where: GitLocation): string {
  const parts = [`repository "${where.repoURL}"`];
  if (where.revision !== undefined) parts.push(`revision "${where.revision}"`);
  if (where.path !== undefined) parts.push(`path "${where.path}"`);
  return parts.join(', ');
}

/** Why a Git operation failed; callers and tests branch on it, never on message text. */
export type GitErrorKind =
  | 'invalid-input'
  | 'unknown-revision'
  | 'unreachable'
  | 'auth'
  | 'host-key'
  | 'not-found'
  | 'too-large'
  | 'not-utf8'
  | 'symlink-escape'
  | 'malformed'
  | 'timeout'
  | 'aborted'
  | 'unsupported';

/**
 * A Git failure that names the repository, revision and path. It never carries credentials: messages
 * are built from the repository URL (refused when it embeds a password) and git's scrubbed stderr.
 */
export class GitError extends AppsetError {
  override readonly name = 'GitError';
  constructor(
    readonly kind: GitErrorKind,
    readonly where: GitLocation,
    detail: string,
  ) {
    super(`${describeLocation(where)}: ${detail}`);
  }
}
