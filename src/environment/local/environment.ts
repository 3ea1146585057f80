import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadKubeConfig } from '../../kube/kubeconfig.js';
import { installCrds } from '../../kube/install-crds.js';
import { createKubeTransport } from '../../kube/transport/transport.js';
import { ensureBinaries } from './binaries.js';
import { startEtcd, type EtcdServer } from './etcd.js';
import { startGitHttpServer, type GitHttpServer } from './git-http-server.js';
import { startGitea, type GiteaServer } from './gitea.js';
import { startKubeApiServer, type KubeApiServer } from './kube-apiserver.js';
import { startKubeControllerManager, type KubeControllerManager } from './kube-controller-manager.js';
import { killManagedProcessesOnExit } from './cleanup.js';
import { killAllManagedProcesses } from './managed-process.js';
import { startRedis, type RedisServer } from './redis.js';
import { createRunDir, reapStaleRuns, type RunDir } from './run-dir.js';

/** What a test needs to reach a running environment; serialised for the test processes. */
export interface TestEnvironmentInfo {
  kubeconfigPath: string;
  /** An admin kubeconfig that authenticates with a client certificate (relative file paths) instead of a token. */
  certKubeconfigPath: string;
  apiServerUrl: string;
  adminToken: string;
  caPem: string;
  etcdUrl: string;
  redisUrl: string;
  gitRoot: string;
  gitHttpBaseUrl: string;
  gitUsername: string;
  gitPassword: string;
  /** The Gitea forge, when the environment was started with one (the SCM provider and pull request tests). */
  gitea?: { url: string; adminUser: string; adminPassword: string; adminToken: string };
}

/** Seconds each start-up step took, for the run summary. */
export type StartupTimings = Record<string, number>;

/**
 * The real test environment: etcd, kube-apiserver, kube-controller-manager, Redis and a Git HTTP server,
 * optionally Gitea, with the project's CRDs installed. Tests restart parts through the `process` of each.
 */
export class TestEnvironment {
  private constructor(
    readonly run: RunDir,
    readonly etcd: EtcdServer,
    readonly apiServer: KubeApiServer,
    readonly controllerManager: KubeControllerManager,
    readonly redis: RedisServer,
    readonly git: GitHttpServer,
    readonly timings: StartupTimings,
    readonly gitea: GiteaServer | undefined,
  ) {}

  /**
   * Builds missing binaries, starts every part and installs the CRDs. Fails loudly if any part fails.
   * `exitOnSignals: false` leaves SIGINT and SIGTERM to the caller (the servers still die with the process).
   * `giteaBinary` also starts Gitea (built by `build-binaries.sh gitea`).
   */
  static async start(options: { exitOnSignals?: boolean; giteaBinary?: string } = {}): Promise<TestEnvironment> {
    killManagedProcessesOnExit(options.exitOnSignals ?? true);
    reapStaleRuns();
    const timings: StartupTimings = {};
    const timed = async <T>(step: string, action: () => Promise<T>): Promise<T> => {
      const start = performance.now();
      const result = await action();
      timings[step] = Math.round(performance.now() - start) / 1000;
      return result;
    };
    const binaries = await timed('binaries', ensureBinaries);
    const run = createRunDir();
    try {
      const giteaBinary = options.giteaBinary;
      const [etcd, redis, git, gitea] = await Promise.all([
        timed('etcd', () => startEtcd(binaries.etcd, run)),
        timed('redis', () => startRedis(run)),
        timed('git', () => startGitHttpServer(join(run.root, 'git'), { username: 'tester', password: randomBytes(12).toString('hex') })),
        giteaBinary ? timed('gitea', () => startGitea(giteaBinary, run)) : Promise.resolve(undefined),
      ]);
      const apiServer = await timed('kube-apiserver', () => startKubeApiServer(binaries.kubeApiserver, etcd.clientUrl, run));
      const [controllerManager] = await Promise.all([
        timed('kube-controller-manager', () => startKubeControllerManager(binaries.kubeControllerManager, apiServer.kubeconfigPath, run)),
        timed('crds', () => installCrds(createKubeTransport(loadKubeConfig(apiServer.kubeconfigPath)))),
      ]);
      return new TestEnvironment(run, etcd, apiServer, controllerManager, redis, git, timings, gitea);
    } catch (error) {
      killAllManagedProcesses();
      throw error;
    }
  }

  /** Connection details for tests. */
  info(): TestEnvironmentInfo {
    return {
      kubeconfigPath: this.apiServer.kubeconfigPath,
      certKubeconfigPath: this.apiServer.certKubeconfigPath,
      apiServerUrl: this.apiServer.url,
      adminToken: this.apiServer.adminToken,
      caPem: this.apiServer.caPem,
      etcdUrl: this.etcd.clientUrl,
      redisUrl: this.redis.url,
      gitRoot: join(this.run.root, 'git'),
      gitHttpBaseUrl: this.git.baseUrl,
      gitUsername: this.git.credentials.username,
      gitPassword: this.git.credentials.password,
      ...(this.gitea
        ? { gitea: { url: this.gitea.url, adminUser: this.gitea.adminUser, adminPassword: this.gitea.adminPassword, adminToken: this.gitea.adminToken } }
        : {}),
    };
  }

  /** Writes {@link info} to a file in the run folder and returns its path. */
  writeInfoFile(): string {
    const file = join(this.run.root, 'environment.json');
    writeFileSync(file, JSON.stringify(this.info(), null, 2), { mode: 0o600 });
    return file;
  }

  /** Stops every part and removes the run folder (unless `keep`, for post-mortems). */
  async stop(keep = false): Promise<void> {
    await this.git.close();
    await this.controllerManager.process.stop();
    await this.apiServer.process.stop();
    await Promise.all([this.etcd.process.stop(), this.redis.process.stop(), this.gitea?.process.stop()]);
    if (!keep) rmSync(this.run.root, { recursive: true, force: true });
  }
}
