import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ManagedProcess } from '../../src/environment/local/managed-process.js';
import { freePort } from '../../src/environment/local/free-port.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import { REPLICA_NODE_ARGS, REPLICA_PROCESS_ENV } from '../../src/runtime/process-environment.js';

const APPSET_BIN = fileURLToPath(new URL('../../../bin/appset.js', import.meta.url));

/** How to run one replica of `appset controller` as a child process. */
export interface ReplicaOptions {
  readonly name: string;
  readonly kubeconfigPath: string;
  readonly namespace: string;
  /** The queue's Redis; without it `args` must name one (e.g. `--redis-sentinels=...`). */
  readonly redisUrl?: string;
  readonly logDir: string;
  readonly gitCacheDir: string;
  /** Further flags, e.g. `--concurrent-reconciliations=5`. */
  readonly args?: readonly string[];
  /** Extra environment, e.g. `GIT_CONFIG_*` for the Git server's credentials. */
  readonly env?: NodeJS.ProcessEnv;
}

/** One controller replica in its own process, killable like a crashed pod. */
export class ReplicaProcess {
  private constructor(
    readonly process: ManagedProcess,
    readonly port: number,
    readonly logFile: string,
  ) {}

  /** Starts `node <REPLICA_NODE_ARGS> bin/appset.js controller ...` and waits for `/readyz`. */
  static async start(options: ReplicaOptions): Promise<ReplicaProcess> {
    const port = await freePort();
    const logFile = join(options.logDir, `${options.name}.log`);
    const process_ = new ManagedProcess(options.name, {
      command: process.execPath,
      // As the image runs it (REPLICA_NODE_ARGS before the script).
      args: [
        ...REPLICA_NODE_ARGS,
        APPSET_BIN,
        'controller',
        `--kubeconfig=${options.kubeconfigPath}`,
        `--namespace=${options.namespace}`,
        ...(options.redisUrl ? [`--redis-url=${options.redisUrl}`] : []),
        `--listen-address=127.0.0.1:${port}`,
        `--git-cache-dir=${options.gitCacheDir}`,
        '--log-level=info',
        ...(options.args ?? []),
      ],
      // As the image runs it (REPLICA_PROCESS_ENV), unless the test says otherwise.
      env: { ...process.env, ...REPLICA_PROCESS_ENV, ...options.env },
      logFile,
    });
    const replica = new ReplicaProcess(process_, port, logFile);
    await replica.start();
    return replica;
  }

  /** Starts the process (again) and waits until it reports ready. */
  async start(): Promise<void> {
    if (!this.process.running) await this.process.start();
    await waitFor(
      async () => {
        this.process.assertRunning();
        return (await fetch(`http://127.0.0.1:${this.port}/readyz`)).ok;
      },
      { what: `${this.process.name} /readyz`, timeoutMs: 120_000, intervalMs: 100 },
    );
  }

  /** The replica's Prometheus text. */
  async metrics(): Promise<string> {
    return (await fetch(`http://127.0.0.1:${this.port}/metrics`)).text();
  }

  /** Every log line as parsed JSON (lines that are not JSON come back as `{ raw }`). */
  logLines(): Array<Record<string, unknown>> {
    return readFileSync(this.logFile, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        try {
          return JSON.parse(line) as Record<string, unknown>;
        } catch {
          return { raw: line };
        }
      });
  }
}

/**
 * Log lines that show an error nobody handled: a fatal line, an uncaught exception or unhandled
 * rejection, or output that is not a structured log line (a crash's stack trace goes to stderr raw).
 */
export function unhandledErrors(lines: ReadonlyArray<Record<string, unknown>>): Array<Record<string, unknown>> {
  return lines.filter((line) => {
    if ('raw' in line) return true;
    const text = JSON.stringify([line['msg'], line['err']]);
    return Number(line['level'] ?? 0) >= 60 || /uncaught|unhandled/i.test(text);
  });
}
