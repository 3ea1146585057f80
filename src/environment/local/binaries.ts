import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Paths of the Go-built server binaries of the test environment. */
export interface Binaries {
  etcd: string;
  kubeApiserver: string;
  kubeControllerManager: string;
}

/** The parts build-binaries.sh builds: etcd, kube-apiserver with kube-controller-manager, helm, Gitea, and argocd (argocd-render and Argo CD's own controller, repo-server and askpass). */
export type BinaryPart = 'etcd' | 'kube' | 'helm' | 'gitea' | 'argocd';

/** A Go build failed; the build script already printed why on stderr, so the message only says which. */
export class BinaryBuildError extends Error {
  override readonly name = 'BinaryBuildError';
}

/** The build script, in the source tree (it is not compiled, so resolve it from the repository root). */
export function buildScriptPath(): string {
  // dist/src/environment/local/binaries.js -> <repo>/go-build/build-binaries.sh
  return fileURLToPath(new URL('../../../../go-build/build-binaries.sh', import.meta.url));
}

/**
 * Builds `parts` if the version-keyed cache lacks them (progress goes to stderr) and returns the
 * KEY=path pairs the script reports. Fails loudly when a build fails: nothing runs without a part.
 * `script` is the build script (another one only in tests).
 */
export async function buildParts(parts: readonly BinaryPart[], script = buildScriptPath()): Promise<ReadonlyMap<string, string>> {
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = spawn('bash', [script, ...parts], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('error', reject);
    // 'close', not 'exit': the process can exit before its output is read, and a report read early is empty.
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new BinaryBuildError(`building ${parts.join(', ')} failed (exit code ${code}; ${script} printed why above)`)),
    );
  });
  return new Map(
    stdout
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const),
  );
}

/** The value of `key` in a build report; a missing key is a broken build script. */
export function reported(values: ReadonlyMap<string, string>, key: string): string {
  const value = values.get(key);
  if (!value) throw new Error(`${buildScriptPath()} did not report ${key}`);
  return value;
}

/** Builds (or finds cached) the servers the environment runs: etcd, kube-apiserver, kube-controller-manager. */
export async function ensureBinaries(): Promise<Binaries> {
  const values = await buildParts(['etcd', 'kube']);
  return {
    etcd: reported(values, 'ETCD_BIN'),
    kubeApiserver: reported(values, 'KUBE_APISERVER_BIN'),
    kubeControllerManager: reported(values, 'KUBE_CONTROLLER_MANAGER_BIN'),
  };
}
