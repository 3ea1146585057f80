import { existsSync, readFileSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { join } from 'node:path';
import { KubeConfigError } from './errors.js';
import type { Connection, KubeConfig } from './kube-config.js';
import { readNamedFile } from './read-file.js';

/** Where Kubernetes mounts a pod's service account token, CA and namespace. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** True when `dir` holds a service account token: the process runs in a pod. */
export function inClusterAvailable(dir: string): boolean {
  return existsSync(join(dir, 'token'));
}

/**
 * The pod's own credentials: the API server from KUBERNETES_SERVICE_HOST/PORT, the service account's CA and
 * token. The token file is read again on every call: bound service account tokens are rotated on disk.
 */
export function inClusterKubeConfig(env: NodeJS.ProcessEnv, dir: string): KubeConfig {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port)
    throw new KubeConfigError(`a service account token is mounted at ${dir}, but KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set`);
  // As client-node 1.4: the usual plain-HTTP proxy ports mean http.
  const scheme = port === '80' || port === '8080' || port === '8001' ? 'http' : 'https';
  const namespaceFile = join(dir, 'namespace');
  const namespace = existsSync(namespaceFile) ? readFileSync(namespaceFile, 'utf8').trim() || undefined : undefined;
  const caFile = join(dir, 'ca.crt');
  const tokenFile = join(dir, 'token');
  return {
    server: `${scheme}://${isIPv6(host) ? `[${host}]` : host}:${port}`,
    namespace,
    // The executor turns a failed read into a rejection.
    connection: () =>
      new Promise<Connection>((resolve) => {
        const token = readNamedFile(tokenFile, 'in-cluster service account token').trim();
        if (token === '') throw new KubeConfigError(`in-cluster service account token ${tokenFile} is empty`);
        const ca = readNamedFile(caFile, 'in-cluster service account CA');
        resolve({ headers: { Authorization: `Bearer ${token}` }, tls: { ca, rejectUnauthorized: true } });
      }),
  };
}
