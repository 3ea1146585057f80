import { join } from 'node:path';
import { freePort } from './free-port.js';
import { httpsRequest } from './https-request.js';
import { ManagedProcess } from './managed-process.js';
import type { RunDir } from './run-dir.js';
import { waitFor } from './wait-for.js';

/** Controllers the test environment runs: ownerReference garbage collection and namespace deletion. */
export const TEST_CONTROLLERS = ['garbage-collector-controller', 'namespace-controller'] as const;

/** A running kube-controller-manager limited to {@link TEST_CONTROLLERS}. */
export interface KubeControllerManager {
  process: ManagedProcess;
  /** Waits until its health endpoint answers. */
  ready(): Promise<void>;
}

/** Starts kube-controller-manager with the admin kubeconfig and waits for /healthz. */
export async function startKubeControllerManager(binary: string, kubeconfigPath: string, run: RunDir): Promise<KubeControllerManager> {
  const port = await freePort();
  const process = new ManagedProcess('kube-controller-manager', {
    command: binary,
    args: [
      `--kubeconfig=${kubeconfigPath}`,
      `--authentication-kubeconfig=${kubeconfigPath}`,
      `--authorization-kubeconfig=${kubeconfigPath}`,
      `--controllers=${TEST_CONTROLLERS.join(',')}`,
      '--leader-elect=false',
      '--bind-address=127.0.0.1',
      `--secure-port=${port}`,
      `--cert-dir=${join(run.root, 'kube-controller-manager-certs')}`,
      '--concurrent-gc-syncs=20',
      '--v=1',
    ],
    logFile: join(run.logDir, 'kube-controller-manager.log'),
    pidDir: run.pidDir,
  });
  const ready = async (): Promise<void> => {
    await waitFor(
      async () => {
        process.assertRunning();
        // /healthz is on the always-allowed paths, so no credentials are needed; the cert is self-signed.
        return (await httpsRequest(`https://127.0.0.1:${port}/healthz`, { ca: false })).status === 200;
      },
      { what: 'kube-controller-manager /healthz', timeoutMs: 60_000, intervalMs: 200 },
    );
  };
  await process.start();
  await ready();
  return { process, ready };
}
