import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The client CA kube-apiserver trusts and an admin kubeconfig that authenticates with a certificate it signed. */
export interface ClientCertificates {
  /** PEM file of the client CA (kube-apiserver's --client-ca-file). */
  readonly caFile: string;
  /** Writes a kubeconfig for `server` (trusting `serverCaPem`) whose user presents the admin client certificate. */
  readonly writeKubeconfig: (server: string, serverCaPem: string) => string;
}

/**
 * Creates, with openssl, a client CA and a certificate for user `cert-admin` in group `system:masters`, in
 * `dir`. The kubeconfig names the certificate and key by relative paths: how users often write them.
 */
export function createClientCertificates(dir: string): ClientCertificates {
  const openssl = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', 'client-ca.key', '-out', 'client-ca.crt', '-subj', '/CN=appset-test-client-ca', '-days', '30');
  openssl('req', ...ec, '-keyout', 'cert-admin.key', '-out', 'cert-admin.csr', '-subj', '/O=system:masters/CN=cert-admin');
  writeFileSync(join(dir, 'client.ext'), 'extendedKeyUsage=clientAuth\n');
  openssl(
    'x509',
    '-req',
    '-in',
    'cert-admin.csr',
    '-CA',
    'client-ca.crt',
    '-CAkey',
    'client-ca.key',
    '-CAcreateserial',
    '-out',
    'cert-admin.crt',
    '-days',
    '30',
    '-extfile',
    'client.ext',
  );
  return {
    caFile: join(dir, 'client-ca.crt'),
    writeKubeconfig: (server, serverCaPem) => {
      const path = join(dir, 'cert-admin.kubeconfig');
      const doc = {
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'test', cluster: { server, 'certificate-authority-data': Buffer.from(serverCaPem).toString('base64') } }],
        users: [{ name: 'cert-admin', user: { 'client-certificate': 'cert-admin.crt', 'client-key': 'cert-admin.key' } }],
        contexts: [{ name: 'test', context: { cluster: 'test', user: 'cert-admin' } }],
        'current-context': 'test',
      };
      writeFileSync(path, JSON.stringify(doc, null, 2), { mode: 0o600 });
      return path;
    },
  };
}
