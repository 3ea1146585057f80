import { randomBytes, generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClientCertificates } from './client-certificates.js';
import { freePort } from './free-port.js';
import { httpsRequest } from './https-request.js';
import { ManagedProcess } from './managed-process.js';
import type { RunDir } from './run-dir.js';
import { waitFor } from './wait-for.js';

/** A running kube-apiserver with RBAC on, a static admin token in `system:masters` and a client CA (an admin client certificate). */
export interface KubeApiServer {
  url: string;
  /** Bearer token of the `admin` user, a member of `system:masters`. */
  adminToken: string;
  /** PEM bundle that verifies the server's self-signed serving certificate. */
  caPem: string;
  /** kubeconfig file for the admin user. */
  kubeconfigPath: string;
  /** kubeconfig file for `cert-admin` (in `system:masters`), who authenticates with a client certificate. */
  certKubeconfigPath: string;
  process: ManagedProcess;
  /** Waits for /readyz and the `default` namespace. */
  ready(): Promise<void>;
}

/** Starts kube-apiserver against `etcdUrl` and waits until it serves. */
export async function startKubeApiServer(binary: string, etcdUrl: string, run: RunDir): Promise<KubeApiServer> {
  const dir = join(run.root, 'kube-apiserver');
  const certDir = join(dir, 'certs');
  mkdirSync(certDir, { recursive: true });
  const port = await freePort();
  const url = `https://127.0.0.1:${port}`;
  const adminToken = randomBytes(24).toString('hex');
  writeFileSync(join(dir, 'tokens.csv'), `${adminToken},admin,admin-uid,"system:masters"\n`, { mode: 0o600 });
  writeServiceAccountKeys(dir);
  const clientCertificates = createClientCertificates(dir);
  const process = new ManagedProcess('kube-apiserver', {
    command: binary,
    args: [
      `--etcd-servers=${etcdUrl}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${port}`,
      `--cert-dir=${certDir}`,
      `--token-auth-file=${join(dir, 'tokens.csv')}`,
      `--client-ca-file=${clientCertificates.caFile}`,
      '--authorization-mode=RBAC',
      // On top of the defaults: some clusters run it, and it is what makes the chart's finalizers grant necessary.
      '--enable-admission-plugins=OwnerReferencesPermissionEnforcement',
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      `--service-account-key-file=${join(dir, 'sa.pub')}`,
      `--service-account-signing-key-file=${join(dir, 'sa.key')}`,
      '--service-cluster-ip-range=10.96.0.0/16',
      '--allow-privileged=true',
      '--v=1',
    ],
    logFile: join(run.logDir, 'kube-apiserver.log'),
    pidDir: run.pidDir,
  });
  await process.start();
  const certFile = join(certDir, 'apiserver.crt');
  // The server writes its self-signed certificate (with the signing CA appended) at start-up.
  const caPem = await waitFor(
    () => {
      process.assertRunning();
      const pem = readFileSync(certFile, 'utf8');
      return pem.includes('END CERTIFICATE') ? pem : undefined;
    },
    { what: `kube-apiserver certificate ${certFile}`, timeoutMs: 60_000 },
  );
  const kubeconfigPath = join(dir, 'admin.kubeconfig');
  writeFileSync(kubeconfigPath, JSON.stringify(kubeconfig(url, caPem, adminToken), null, 2), { mode: 0o600 });
  const certKubeconfigPath = clientCertificates.writeKubeconfig(url, caPem);
  const ready = async (): Promise<void> => {
    for (const path of ['/readyz', '/api/v1/namespaces/default']) {
      await waitFor(
        async () => {
          process.assertRunning();
          return (await httpsRequest(`${url}${path}`, { token: adminToken, ca: caPem })).status === 200;
        },
        { what: `kube-apiserver ${path}`, timeoutMs: 90_000, intervalMs: 200 },
      );
    }
  };
  await ready();
  return { url, adminToken, caPem, kubeconfigPath, certKubeconfigPath, process, ready };
}

/** A kubeconfig document for `server`, trusting `caPem` and authenticating with `token`. */
export function kubeconfig(server: string, caPem: string, token: string, user = 'admin'): object {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'test', cluster: { server, 'certificate-authority-data': Buffer.from(caPem).toString('base64') } }],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: 'test', context: { cluster: 'test', user } }],
    'current-context': 'test',
  };
}

function writeServiceAccountKeys(dir: string): void {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  writeFileSync(join(dir, 'sa.pub'), publicKey);
  writeFileSync(join(dir, 'sa.key'), privateKey, { mode: 0o600 });
}
