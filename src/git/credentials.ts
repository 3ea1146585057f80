import type { V1Secret } from '@kubernetes/client-node';
import { normalizeGitUrl } from '../model/git-url.js';
import { SECRET_TYPE_LABEL, secretValue } from '../model/secrets.js';

/** How to authenticate to one repository. Never logged, never put in arguments or on disk. */
export type GitCredentials =
  | { kind: 'basic'; username: string; password: string }
  | { kind: 'bearer'; token: string }
  | { kind: 'ssh'; privateKey: string; insecureIgnoreHostKey: boolean };

/** Where the credentials were found, for logs and errors (never the credentials themselves). */
export interface CredentialSource {
  secret: string;
  type: 'repository' | 'repo-creds';
}

/** Credentials resolved for a repository URL, with their origin. */
export interface ResolvedCredentials {
  credentials: GitCredentials;
  source: CredentialSource;
}

/** Supplies the repository Secrets visible to a caller (already filtered by tenancy). */
export type RepositorySecretsProvider = () => readonly V1Secret[];

/**
 * Finds credentials for `repoURL` the way Argo CD does, among the Secrets the caller may use: a
 * `repository` Secret whose `url` equals the repository wins; otherwise the `repo-creds` Secret with
 * the longest `url` prefix of it. URLs are compared after {@link normalizeGitUrl}.
 */
export function findCredentials(repoURL: string, secrets: readonly V1Secret[]): ResolvedCredentials | undefined {
  const wanted = normalizeGitUrl(repoURL);
  if (wanted === '') return undefined;
  let best: { secret: V1Secret; prefixLength: number } | undefined;
  for (const secret of secrets) {
    const type = secret.metadata?.labels?.[SECRET_TYPE_LABEL];
    const url = normalizeGitUrl(secretValue(secret, 'url') ?? '');
    if (url === '') continue;
    if (type === 'repository' && url === wanted) return withCredentials(secret, 'repository');
    if (type === 'repo-creds' && wanted.startsWith(url) && url.length > (best?.prefixLength ?? -1)) {
      best = { secret, prefixLength: url.length };
    }
  }
  return best ? withCredentials(best.secret, 'repo-creds') : undefined;
}

function withCredentials(secret: V1Secret, type: CredentialSource['type']): ResolvedCredentials | undefined {
  const credentials = credentialsOf(secret);
  if (!credentials) return undefined;
  const name = `${secret.metadata?.namespace ?? ''}/${secret.metadata?.name ?? ''}`;
  return { credentials, source: { secret: name, type } };
}

/** The credentials a Secret holds: username/password (a token as password works), bearer token or SSH key. */
function credentialsOf(secret: V1Secret): GitCredentials | undefined {
  const password = secretValue(secret, 'password');
  if (password !== undefined && password !== '') {
    return { kind: 'basic', username: secretValue(secret, 'username') ?? 'x-access-token', password };
  }
  const token = secretValue(secret, 'bearerToken');
  if (token !== undefined && token !== '') return { kind: 'bearer', token };
  const key = secretValue(secret, 'sshPrivateKey');
  if (key !== undefined && key !== '') return { kind: 'ssh', privateKey: key, insecureIgnoreHostKey: ignoresHostKey(secret) };
  return undefined;
}

/** Argo CD skips SSH host key checks when `insecureIgnoreHostKey` or `insecure` is "true". */
function ignoresHostKey(secret: V1Secret): boolean {
  return ['insecureIgnoreHostKey', 'insecure'].some((key) => secretValue(secret, key)?.trim().toLowerCase() === 'true');
}
