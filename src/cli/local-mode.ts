import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoreV1Api, KubernetesObjectApi, loadAllYaml, type KubernetesObject } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { readControllerConfig } from '../config/controller-config.js';
import { startController, type RunningController } from '../controller/controller.js';
import { loadKubeConfig } from '../kube/kubeconfig.js';
import { SHARED_CREDENTIALS_LABEL } from '../tenancy/credential-scope.js';

/** The URL the examples give their monorepo; local mode serves a copy of it and rewrites the URL. */
export const EXAMPLE_REPO_URL = 'https://git.example.com/platform/monorepo.git';

const examplesDir = (): string => fileURLToPath(new URL('../../../examples/', import.meta.url));

/** What `appset local` started, for printing and stopping. */
export interface LocalSession {
  readonly kubeconfigPath: string;
  readonly metricsUrl: string;
  readonly repoUrl: string;
  /** Applications by `namespace/name` once the controllers converged. */
  readonly applications: string[];
  stop(): Promise<void>;
}

/** Every file under `dir`, as repository path → content. */
function filesUnder(dir: string, root = dir): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir).flatMap((entry) => {
      const path = join(dir, entry);
      return statSync(path).isDirectory() ? Object.entries(filesUnder(path, root)) : [[relative(root, path), readFileSync(path, 'utf8')]];
    }),
  );
}

/**
 * Starts the real local environment (etcd, kube-apiserver, kube-controller-manager, Redis, a Git
 * server; built from source on first use), commits the example monorepo, applies the example
 * AppProject and ApplicationSets, and runs two controller replicas sharing a BullMQ queue.
 */
export async function startLocalSession(log: Logger, progress: (line: string) => void, manifestFile?: string): Promise<LocalSession> {
  // Local mode is the test environment itself: the same Go-built servers, so what runs here is what the tests prove.
  const { TestEnvironment } = await import('../../test/env/environment.js');
  const { GitFixtures } = await import('../../test/env/git-fixtures.js');
  progress('starting etcd, kube-apiserver, kube-controller-manager, Redis and a Git server (the first run builds them from source)');
  const env = await TestEnvironment.start();
  const info = env.info();
  const kc = loadKubeConfig(info.kubeconfigPath);
  const repo = await new GitFixtures(info.gitRoot, info.gitHttpBaseUrl).createRepo('monorepo', filesUnder(join(examplesDir(), 'monorepo')));
  const core = kc.makeApiClient(CoreV1Api);
  for (const name of ['argocd', 'team-a']) await core.createNamespace({ body: { metadata: { name } } });
  // Shared: the tenant team-a reads the monorepo too, and tenants use only project-scoped or shared Secrets.
  await core.createNamespacedSecret({
    namespace: 'argocd',
    body: { metadata: { name: 'monorepo', labels: { 'argocd.argoproj.io/secret-type': 'repository', [SHARED_CREDENTIALS_LABEL]: 'true' } }, stringData: { url: repo.httpUrl, username: info.gitUsername, password: info.gitPassword } },
  });
  const config = readControllerConfig({ namespace: 'argocd', 'applicationset-namespaces': ['team-a'], 'redis-url': info.redisUrl, 'listen-address': '127.0.0.1:0', 'allow-local-repos': true }, {});
  const replicas: RunningController[] = [];
  // Each replica gets a Git cache of its own inside this run's folder, as each pod has its own volume:
  // two caches on one folder raced (one re-initialising a repository the other was fetching into), and
  // the shared default folder in /tmp kept a broken copy from one run to the next.
  for (let i = 0; i < 2; i++) {
    const own = { ...config, gitCacheDir: join(env.run.root, `git-cache-replica-${i}`) };
    replicas.push(await startController(own, kc, log.child({ replica: i }), { queueName: 'appset-local' }));
  }
  await Promise.all(replicas.map((r) => r.ready));
  progress('two controller replicas are running; applying the example AppProject and ApplicationSets');
  const manifests = manifestFile ? [manifestFile] : readdirSync(join(examplesDir(), 'applicationsets')).map((f) => join(examplesDir(), 'applicationsets', f));
  const api = KubernetesObjectApi.makeApiClient(kc);
  for (const file of manifests) {
    const text = readFileSync(file, 'utf8').replaceAll(EXAMPLE_REPO_URL, repo.httpUrl);
    for (const object of loadAllYaml(text) as KubernetesObject[]) await api.create(object);
  }
  const applications = await waitForApplications(kc, manifestFile ? 1 : 12);
  return {
    kubeconfigPath: info.kubeconfigPath,
    metricsUrl: `http://127.0.0.1:${replicas[0]?.port ?? 0}/metrics`,
    repoUrl: repo.httpUrl,
    applications,
    async stop() {
      await Promise.all(replicas.map((r) => r.stop(5_000)));
      await env.stop();
    },
  };
}

async function waitForApplications(kc: ReturnType<typeof loadKubeConfig>, atLeast: number): Promise<string[]> {
  const api = KubernetesObjectApi.makeApiClient(kc);
  const deadline = Date.now() + 60_000;
  let names: string[] = [];
  while (Date.now() < deadline) {
    const list = await api.list('argoproj.io/v1alpha1', 'Application');
    names = list.items.map((app) => `${app.metadata?.namespace ?? ''}/${app.metadata?.name ?? ''}`).sort();
    if (names.length >= atLeast) return names;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return names;
}
