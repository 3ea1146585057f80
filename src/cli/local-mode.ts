import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllYaml11Documents } from '../model/yaml11.js';
import type { Logger } from 'pino';
import { readControllerConfig } from '../config/controller-config.js';
import { startController, type RunningController } from '../app/start-replica.js';
import { ensurePrerequisites, extendProcessPath } from '../environment/ensure-prerequisites.js';
import { LOCAL_PREREQUISITES, processSurroundings } from '../environment/prerequisites.js';
import { loadKubeConfig } from '../kube/kubeconfig.js';
import { pathSegment } from '../kube/transport/request-url.js';
import { createKubeTransport, type KubeTransport } from '../kube/transport/transport.js';
import { SECRET_TYPE_LABEL, SHARED_CREDENTIALS_LABEL } from '../model/secrets.js';
import { SECRET_KEYS } from '../server/webhook/providers.js';
import { sendPushWebhooks } from './local-push-webhook.js';
import { defaultAppProject } from '../tenancy/default-project.js';

/** The URL the examples give their monorepo; local mode serves a copy of it and rewrites the URL. */
export const EXAMPLE_REPO_URL = 'https://git.example.com/platform/monorepo.git';

/** The Secret holding the local Git server's webhook secret, named by the replicas' --webhook-secret. */
const WEBHOOK_SECRET_NAME = 'appset-local-webhook';

const examplesDir = (): string => fileURLToPath(new URL('../../../examples/', import.meta.url));

/** What `appset local` started, for printing and stopping. */
export interface LocalSession {
  readonly kubeconfigPath: string;
  readonly metricsUrl: string;
  /** The monorepo's URL as the ApplicationSets name it (no credentials). */
  readonly repoUrl: string;
  /** The same URL with the local Git server's credentials, for `git clone`. */
  readonly cloneUrl: string;
  /** A clone of the monorepo, ready to commit in and push. */
  readonly clonePath: string;
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
 * AppProject and ApplicationSets, and runs two controller replicas sharing a BullMQ queue. A push to
 * the monorepo reaches the replicas as a signed webhook, as a forge's would.
 */
export async function startLocalSession(log: Logger, progress: (line: string) => void, manifestFile?: string): Promise<LocalSession> {
  // Every system program before any build: a fresh machine hears what it lacks at once, not after minutes.
  extendProcessPath(ensurePrerequisites(LOCAL_PREREQUISITES, { command: 'appset local', surroundings: processSurroundings(), say: progress }));
  // Local mode is the test environment itself: the same Go-built servers, so what runs here is what the tests prove.
  const { TestEnvironment } = await import('../environment/local/environment.js');
  const { GitFixtures, git } = await import('../environment/local/git-fixtures.js');
  progress('starting etcd, kube-apiserver, kube-controller-manager, Redis and a Git server (the first run builds them from source: minutes)');
  const started = performance.now();
  // Ctrl-C is the command's own: a graceful stop once running (src/cli/commands/local.ts).
  const env = await TestEnvironment.start({ exitOnSignals: false });
  const info = env.info();
  const steps = Object.entries(env.timings)
    .map(([step, s]) => `${step} ${s} s`)
    .join(', ');
  progress(`local cluster up in ${((performance.now() - started) / 1000).toFixed(1)} s (${steps})`);
  const replicas: RunningController[] = [];
  try {
    const kc = loadKubeConfig(info.kubeconfigPath);
    const transport = createKubeTransport(kc);
    const repo = await new GitFixtures(info.gitRoot, info.gitHttpBaseUrl).createRepo('monorepo', filesUnder(join(examplesDir(), 'monorepo')));
    const webhookSecret = randomBytes(16).toString('hex');
    await createNamespacesAndSecrets(transport, repo.httpUrl, info, webhookSecret);
    const config = readControllerConfig(
      {
        namespace: 'argocd',
        'applicationset-namespaces': ['team-a'],
        'redis-url': info.redisUrl,
        'listen-address': '127.0.0.1:0',
        'allow-local-repos': true,
        'webhook-secret': WEBHOOK_SECRET_NAME,
      },
      {},
    );
    // Each replica gets a Git cache of its own inside this run's folder, as each pod has its own volume:
    // two caches on one folder raced (one re-initialising a repository the other was fetching into), and
    // the shared default folder in /tmp kept a broken copy from one run to the next.
    for (let i = 0; i < 2; i++) {
      const own = { ...config, gitCacheDir: join(env.run.root, `git-cache-replica-${i}`) };
      replicas.push(await startController(own, kc, log.child({ replica: i }), { queueName: 'appset-local' }));
    }
    await Promise.all(replicas.map((r) => r.ready));
    // One replica is enough: the queue and the push counters it bumps are shared through Redis.
    env.git.onPush((push) => {
      if (push.repository !== 'monorepo.git') return;
      void forwardPush(replicas, webhookSecret, repo.httpUrl, push.refs, log);
    });
    progress('two controller replicas are running; applying the example AppProject and ApplicationSets');
    await applyManifests(transport, manifestFile, repo.httpUrl);
    const applications = await waitForApplications(transport, manifestFile ? 1 : 12);
    const cloneUrl = withCredentials(repo.httpUrl, info.gitUsername, info.gitPassword);
    const clonePath = join(env.run.root, 'monorepo');
    await git(env.run.root, ['clone', '-q', cloneUrl, clonePath]);
    await git(clonePath, ['config', 'user.name', 'Local User']);
    await git(clonePath, ['config', 'user.email', 'local@appset.invalid']);
    return {
      kubeconfigPath: info.kubeconfigPath,
      metricsUrl: `http://127.0.0.1:${replicas[0]?.port ?? 0}/metrics`,
      repoUrl: repo.httpUrl,
      cloneUrl,
      clonePath,
      applications,
      async stop() {
        await Promise.all(replicas.map((r) => r.stop(5_000)));
        await env.stop();
      },
    };
  } catch (error) {
    await Promise.all(replicas.map((r) => r.stop(5_000)));
    await env.stop();
    throw error;
  }
}

/** The namespaces of the examples, Argo CD's default AppProject, the monorepo's repository Secret and the webhook Secret. */
async function createNamespacesAndSecrets(
  transport: KubeTransport,
  repoUrl: string,
  info: { gitUsername: string; gitPassword: string },
  webhookSecret: string,
): Promise<void> {
  const create = (path: string, body: object): Promise<void> => transport.send({ method: 'POST', path, body });
  for (const name of ['argocd', 'team-a']) await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  // As every Argo CD install has it: the platform's example ApplicationSets name it, and generated Applications
  // must name an AppProject that exists.
  await create('/apis/argoproj.io/v1alpha1/namespaces/argocd/appprojects', defaultAppProject('argocd'));
  // Shared: the tenant team-a reads the monorepo too, and tenants use only project-scoped or shared Secrets.
  const labels = { [SECRET_TYPE_LABEL]: 'repository', [SHARED_CREDENTIALS_LABEL]: 'true' };
  await create('/api/v1/namespaces/argocd/secrets', {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'monorepo', labels },
    stringData: { url: repoUrl, username: info.gitUsername, password: info.gitPassword },
  });
  const webhook = { [SECRET_KEYS.gitea]: webhookSecret };
  await create('/api/v1/namespaces/argocd/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: WEBHOOK_SECRET_NAME }, stringData: webhook });
}

/** The Argo CD kinds local mode creates, by their collection name. */
const ARGO_COLLECTIONS: Readonly<Record<string, string>> = { ApplicationSet: 'applicationsets', AppProject: 'appprojects', Application: 'applications' };

/** Applies the examples (or one manifest file), with the example repository URL mapped to the local one. */
async function applyManifests(transport: KubeTransport, manifestFile: string | undefined, repoUrl: string): Promise<void> {
  const manifests = manifestFile ? [manifestFile] : readdirSync(join(examplesDir(), 'applicationsets')).map((f) => join(examplesDir(), 'applicationsets', f));
  for (const file of manifests) {
    const text = readFileSync(file, 'utf8').replaceAll(EXAMPLE_REPO_URL, repoUrl);
    for (const doc of parseAllYaml11Documents(text)) {
      const object = doc.toJS() as { apiVersion?: string; kind?: string; metadata?: { namespace?: string } } | null;
      if (!object) continue;
      const collection = object.apiVersion === 'argoproj.io/v1alpha1' ? ARGO_COLLECTIONS[object.kind ?? ''] : undefined;
      if (!collection)
        throw new Error(`${file}: appset local creates ApplicationSets, AppProjects and Applications, not ${object.apiVersion ?? '?'} ${object.kind ?? '?'}`);
      const namespace = pathSegment(object.metadata?.namespace ?? 'argocd');
      await transport.send({ method: 'POST', path: `/apis/argoproj.io/v1alpha1/namespaces/${namespace}/${collection}`, body: object });
    }
  }
}

/** Delivers a push to the first replica that takes it; a failure is one warning, the poll still catches up. */
async function forwardPush(
  replicas: readonly RunningController[],
  secret: string,
  repoUrl: string,
  refs: Parameters<typeof sendPushWebhooks>[2],
  log: Logger,
): Promise<void> {
  let problem = 'no replica is running';
  for (const replica of replicas) {
    try {
      const statuses = await sendPushWebhooks({ url: `http://127.0.0.1:${replica.port}/api/webhook`, secret }, repoUrl, refs);
      if (statuses.every((status) => status === 202)) return;
      problem = `replica on port ${replica.port} answered ${statuses.join(', ')}`;
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
  }
  log.warn(`push webhook not delivered (${problem}); the Git poll picks the change up instead`);
}

/** `http://host/path` → `http://user:password@host/path`. */
function withCredentials(url: string, username: string, password: string): string {
  const parsed = new URL(url);
  parsed.username = encodeURIComponent(username);
  parsed.password = encodeURIComponent(password);
  return parsed.href;
}

async function waitForApplications(transport: KubeTransport, atLeast: number): Promise<string[]> {
  const deadline = Date.now() + 60_000;
  let names: string[] = [];
  while (Date.now() < deadline) {
    const list = await transport.request<{ items: Array<{ metadata: { namespace?: string; name?: string } }> }>({
      method: 'GET',
      path: '/apis/argoproj.io/v1alpha1/applications',
      idempotent: true,
    });
    names = list.items.map((app) => `${app.metadata.namespace ?? ''}/${app.metadata.name ?? ''}`).sort();
    if (names.length >= atLeast) return names;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return names;
}
