import type { V1Secret } from '@kubernetes/client-node';
import { findCredentials, type ResolvedCredentials } from './credentials.js';
import { describeLocation, GitError, type GitLocation } from './git-error.js';
import type { RepoAccess } from './repo-access.js';
import { isSshURL } from './ssh-transport.js';

/** The credentials one caller may use for `where`: the first matching Secret among those `access` allows. */
export function credentialsFor(where: GitLocation, access: RepoAccess, secrets: readonly V1Secret[]): ResolvedCredentials | undefined {
  const usable = access.usesSecret;
  const found = findCredentials(where.repoURL, usable ? secrets.filter(usable) : secrets);
  if (found?.credentials.kind === 'ssh' && !isSshURL(where.repoURL)) {
    throw new GitError(
      'invalid-input',
      where,
      `Secret ${found.source.secret} holds an SSH private key, but the repository URL is not an ssh:// or user@host:path URL`,
    );
  }
  return found;
}

/**
 * An auth failure while a Secret for this URL exists that the caller may not use says so, naming the
 * Secret (never its content): "another project's credentials are not used" is the rule that applied.
 */
export function explainOutOfScope(
  error: unknown,
  where: GitLocation,
  access: RepoAccess,
  used: ResolvedCredentials | undefined,
  secrets: readonly V1Secret[],
): unknown {
  if (!(error instanceof GitError) || error.kind !== 'auth' || !access.usesSecret) return error;
  const withheld = findCredentials(where.repoURL, secrets);
  if (!withheld || withheld.source.secret === used?.source.secret) return error;
  return new GitError(
    'auth',
    where,
    `${error.message.slice(describeLocation(where).length + 2)}; Secret ${withheld.source.secret} matches this repository but is not scoped to this ApplicationSet's AppProject (nor marked shared), so it was not used`,
  );
}
