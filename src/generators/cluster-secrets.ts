import type { V1Secret } from '@kubernetes/client-node';
import { SECRET_TYPE_LABEL, secretValue } from '../model/secrets.js';

/** The fields of an Argo CD cluster Secret that the clusters generator reads. */
export interface ClusterSecret {
  /** `namespace/name` of the Secret, for logs and errors. */
  secretName: string;
  name: string;
  server: string;
  project: string;
  labels: Readonly<Record<string, string>>;
  annotations: Readonly<Record<string, string>>;
}

/** The server URL of the cluster the controller runs in. */
export const IN_CLUSTER_SERVER = 'https://kubernetes.default.svc';
/** The name Argo CD gives the local cluster. */
export const IN_CLUSTER_NAME = 'in-cluster';

/** True for a Secret labelled `argocd.argoproj.io/secret-type: cluster`. */
export function isClusterSecret(secret: V1Secret): boolean {
  return secret.metadata?.labels?.[SECRET_TYPE_LABEL] === 'cluster';
}

/**
 * Reads an Argo CD cluster Secret (base64 `data` keys `name`, `server`, optional `project`;
 * `config` holds connection details the generator does not need). A Secret without a server is
 * unusable and reported; without a name, Argo CD uses the server as the name.
 */
export function parseClusterSecret(secret: V1Secret): ClusterSecret {
  const secretName = `${secret.metadata?.namespace ?? ''}/${secret.metadata?.name ?? ''}`;
  const server = secretValue(secret, 'server')?.trim() ?? '';
  if (server === '') throw new Error(`cluster Secret ${secretName} has no "server" key`);
  return {
    secretName,
    name: secretValue(secret, 'name') || server,
    server,
    project: secretValue(secret, 'project') ?? '',
    labels: secret.metadata?.labels ?? {},
    annotations: secret.metadata?.annotations ?? {},
  };
}
