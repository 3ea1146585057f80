// Argo CD's own ApplicationSet controller (v3.2.6, built unchanged from its Go module by
// go-build/build-binaries.sh) run as Argo CD runs it, for the side-by-side phases of the system benchmark
// and the live parity test: its control-plane namespace holds argocd-cm, argocd-secret, the `default`
// AppProject and the repository credentials; its repo-server (on the test Redis) answers the git generator.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { Redis } from 'ioredis';
import { buildParts, reported } from '../../src/environment/local/binaries.js';
import { freePort } from '../../src/environment/local/free-port.js';
import { ManagedProcess } from '../../src/environment/local/managed-process.js';
import { waitFor } from '../../src/environment/local/wait-for.js';

/** Paths of Argo CD's binaries in the build cache. */
export interface ArgoCdBinaries {
  readonly controller: string;
  readonly repoServer: string;
  /** `argocd`, the git credential helper the repo-server runs through GIT_ASKPASS (found on its PATH). */
  readonly askpass: string;
}

/** Builds (or finds cached) Argo CD's controller, repo-server and askpass helper. */
export async function argoCdBinaries(): Promise<ArgoCdBinaries> {
  const built = await buildParts(['argocd']);
  return {
    controller: reported(built, 'ARGOCD_APPSET_CONTROLLER_BIN'),
    repoServer: reported(built, 'ARGOCD_REPO_SERVER_BIN'),
    askpass: reported(built, 'ARGOCD_GIT_ASKPASS_BIN'),
  };
}

/** The Argo CD version the build module requires (go-build/argocd-render/go.mod), for the results file. */
export const ARGOCD_VERSION = 'v3.2.6';

/** The two ways the benchmark runs Argo CD's controller. */
export type ArgoCdConfig = 'shipped' | 'lifted';

/**
 * Environment of each configuration. As shipped, Argo CD's Kubernetes client allows 50 requests/s with a
 * burst of 100 (pkg/apis/application/v1alpha1/cluster_constants.go); lifted, the limit is far above what the
 * API server here serves, so the controller's own work is what is measured.
 */
export const ARGOCD_CONFIG_ENV: Readonly<Record<ArgoCdConfig, Readonly<Record<string, string>>>> = {
  shipped: {},
  lifted: { ARGOCD_K8S_CLIENT_QPS: '10000', ARGOCD_K8S_CLIENT_BURST: '20000' },
};

/**
 * Adds what Argo CD's settings manager needs to a prepared namespace (one with the AppProject and the
 * repository Secret, see prepareNamespace): argocd-cm and argocd-secret, labelled as Argo CD's install
 * labels them (its ConfigMap informer selects on the label), the secret with the GitHub webhook secret.
 */
export async function prepareArgoCdNamespace(kc: KubeConfig, namespace: string, webhookSecret: string): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api);
  const labels = { 'app.kubernetes.io/part-of': 'argocd', 'app.kubernetes.io/name': 'argocd-cm' };
  await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'argocd-cm', labels }, data: {} } });
  await core.createNamespacedSecret({
    namespace,
    body: {
      metadata: { name: 'argocd-secret', labels: { ...labels, 'app.kubernetes.io/name': 'argocd-secret' } },
      stringData: { 'server.secretkey': randomBytes(32).toString('base64'), 'webhook.github.secret': webhookSecret },
    },
  });
}

/** How to run one Argo CD install (controller and repo-server) for one phase. */
export interface ArgoCdOptions {
  readonly name: string;
  readonly binaries: ArgoCdBinaries;
  readonly config: ArgoCdConfig;
  readonly kubeconfigPath: string;
  /** Argo CD's control-plane namespace (`--namespace`): its ApplicationSets and Applications live here. */
  readonly namespace: string;
  readonly redisUrl: string;
  /** The Redis database of this install's repo-server cache, emptied first so no phase finds another's cache. */
  readonly redisDb: number;
  readonly concurrentReconciliations: number;
  readonly logDir: string;
  /** A folder of its own: the repo-server's clones (TMPDIR) and askpass socket. */
  readonly workDir: string;
}

/** Argo CD's controller and its repo-server, each its own process, as one install. */
export class ArgoCdInstall {
  private constructor(
    /** The ApplicationSet controller. */
    readonly process: ManagedProcess,
    readonly repoServer: ManagedProcess,
    /** The controller's webhook port (`--webhook-addr`): Argo CD serves `/api/webhook` there. */
    readonly port: number,
    private readonly metricsPort: number,
    private readonly logFiles: readonly string[],
  ) {}

  /** Starts the repo-server, then the controller, and waits for both to be ready. */
  static async start(options: ArgoCdOptions): Promise<ArgoCdInstall> {
    const [repoPort, repoMetrics, webhook, metrics, probe] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
    mkdirSync(options.workDir, { recursive: true });
    await emptyRedisDb(options.redisUrl, options.redisDb);
    const redis = new URL(options.redisUrl);
    const repoLog = join(options.logDir, `${options.name}-repo-server.log`);
    const repoServer = new ManagedProcess(`${options.name}-repo-server`, {
      command: options.binaries.repoServer,
      args: [
        '--address=127.0.0.1',
        `--port=${repoPort}`,
        '--metrics-address=127.0.0.1',
        `--metrics-port=${repoMetrics}`,
        '--disable-tls',
        `--redis=${redis.host}`,
        `--redisdb=${options.redisDb}`,
        '--logformat=json',
        '--loglevel=info',
      ],
      env: {
        ...process.env,
        // Its clones go under TMPDIR; git finds `argocd` (the askpass helper) on PATH; no GnuPG keyring here.
        TMPDIR: options.workDir,
        PATH: `${dirname(options.binaries.askpass)}:${process.env.PATH ?? ''}`,
        ARGOCD_ASK_PASS_SOCK: join(options.workDir, 'askpass.sock'),
        ARGOCD_GPG_ENABLED: 'false',
      },
      logFile: repoLog,
    });
    await repoServer.start();
    await waitFor(
      async () => {
        repoServer.assertRunning();
        return (await fetch(`http://127.0.0.1:${repoMetrics}/healthz`)).ok;
      },
      { what: `${repoServer.name} /healthz`, timeoutMs: 60_000, intervalMs: 100 },
    );
    const controllerLog = join(options.logDir, `${options.name}.log`);
    const controller = new ManagedProcess(options.name, {
      command: options.binaries.controller,
      args: [
        `--kubeconfig=${options.kubeconfigPath}`,
        `--namespace=${options.namespace}`,
        `--argocd-repo-server=127.0.0.1:${repoPort}`,
        '--repo-server-plaintext',
        `--concurrent-reconciliations=${options.concurrentReconciliations}`,
        `--metrics-addr=127.0.0.1:${metrics}`,
        `--probe-addr=127.0.0.1:${probe}`,
        `--webhook-addr=127.0.0.1:${webhook}`,
        '--logformat=json',
        '--loglevel=info',
      ],
      // Its manager's client comes from controller-runtime's GetConfigOrDie, which reads KUBECONFIG, not --kubeconfig.
      env: { ...process.env, KUBECONFIG: options.kubeconfigPath, ...ARGOCD_CONFIG_ENV[options.config] },
      logFile: controllerLog,
    });
    await controller.start();
    // Argo CD registers no health checks with its manager (its probe port answers 404), so ready is its
    // metrics server answering, which the manager starts with its informers.
    await waitFor(
      async () => {
        controller.assertRunning();
        return (await fetch(`http://127.0.0.1:${metrics}/metrics`)).ok;
      },
      { what: `${controller.name} /metrics`, timeoutMs: 120_000, intervalMs: 100 },
    );
    return new ArgoCdInstall(controller, repoServer, webhook, metrics, [controllerLog, repoLog]);
  }

  /** The controller's Prometheus text (`argocd_appset_reconcile_count` counts its reconciles, as ours does). */
  async metrics(): Promise<string> {
    return (await fetch(`http://127.0.0.1:${this.metricsPort}/metrics`)).text();
  }

  /** The pids whose CPU and memory count as Argo CD's: the controller, then the repo-server. */
  get pids(): [number, number] {
    return [this.process.pid ?? 0, this.repoServer.pid ?? 0];
  }

  /**
   * Log lines at level error or worse in both processes' logs, and lines that are neither JSON nor logrus
   * text below error (a panic's trace): each process logs its first line as text before --logformat applies.
   */
  errorLines(): string[] {
    return this.logFiles.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '' && !/^\{.*"level":"(info|debug|warning|warn)"/.test(line) && !/^time=\S+ level=(info|debug|warning)/.test(line)),
    );
  }

  /**
   * Stops the controller, then the repo-server; returns the error lines their logs held before the stop
   * (stopping cancels the reconciles in flight, which Argo CD logs as errors).
   */
  async stop(): Promise<string[]> {
    const errors = this.errorLines();
    await this.process.stop('SIGTERM', 30_000);
    await this.repoServer.stop('SIGTERM', 30_000);
    return errors;
  }
}

/** Empties one Redis database (the repo-server's cache of the previous phase that used it). */
async function emptyRedisDb(url: string, db: number): Promise<void> {
  const client = new Redis(url, { db, lazyConnect: true, maxRetriesPerRequest: 3 });
  try {
    await client.connect();
    await client.flushdb();
  } finally {
    client.disconnect();
  }
}
