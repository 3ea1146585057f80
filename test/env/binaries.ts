import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Paths of the Go-built server binaries of the test environment. */
export interface Binaries {
  etcd: string;
  kubeApiserver: string;
  kubeControllerManager: string;
}

/** The build script, in the source tree (it is not compiled, so resolve it from the repository root). */
export function buildScriptPath(): string {
  // dist/test/env/binaries.js -> <repo>/test/env/build-binaries.sh
  return fileURLToPath(new URL('../../../test/env/build-binaries.sh', import.meta.url));
}

/**
 * Builds the binaries if the version-keyed cache lacks them (progress goes to stderr) and returns their
 * paths. Fails loudly when a build fails: the environment never runs without a part.
 */
export async function ensureBinaries(): Promise<Binaries> {
  const script = buildScriptPath();
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = spawn('bash', [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${script} failed with exit code ${code}`))));
  });
  const values = new Map(
    stdout
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const),
  );
  const pick = (key: string): string => {
    const value = values.get(key);
    if (!value) throw new Error(`${script} did not report ${key}`);
    return value;
  };
  return {
    etcd: pick('ETCD_BIN'),
    kubeApiserver: pick('KUBE_APISERVER_BIN'),
    kubeControllerManager: pick('KUBE_CONTROLLER_MANAGER_BIN'),
  };
}
