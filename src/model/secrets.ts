import type { V1Secret } from '@kubernetes/client-node';

/** Label Argo CD puts on its cluster, repository, credential-template and SCM credential Secrets. */
export const SECRET_TYPE_LABEL = 'argocd.argoproj.io/secret-type';

/** The values of {@link SECRET_TYPE_LABEL} this controller reads. */
export type SecretType = 'cluster' | 'repository' | 'repo-creds' | 'scm-creds';

/**
 * Label on a repository or repo-creds Secret of the controller's namespace that lets every tenant project
 * use it. Tenants cannot set it: they cannot write Secrets there.
 */
export const SHARED_CREDENTIALS_LABEL = 'appset-controller.io/shared-credentials';

/** The Argo CD type of a Secret, from its {@link SECRET_TYPE_LABEL}; undefined for any other Secret. */
export function secretTypeOf(secret: V1Secret): SecretType | undefined {
  const type = secret.metadata?.labels?.[SECRET_TYPE_LABEL];
  return type === 'cluster' || type === 'repository' || type === 'repo-creds' || type === 'scm-creds' ? type : undefined;
}

/** Reads one key of a Secret, from `data` (base64) or `stringData`. */
export function secretValue(secret: V1Secret, key: string): string | undefined {
  const encoded = secret.data?.[key];
  if (encoded !== undefined) return Buffer.from(encoded, 'base64').toString('utf8');
  return secret.stringData?.[key];
}
