import { CoreV1Api } from '@kubernetes/client-node';
import type { ApplicationSetObject } from '../../src/controller/reconcile/applicationset.js';
import { pathSegment } from '../../src/kube/transport/request-url.js';
import { createKubeTransport } from '../../src/kube/transport/transport.js';
import type { TestEnvironmentInfo } from '../../src/environment/local/environment.js';
import type { AppSetManifest } from './workload.js';
import { installDefaultAppProject } from '../env/namespaces.js';
import type { TestKubeConfig } from '../env/test-kube-config.js';

/** Runs `tasks` with at most `concurrency` in flight; the first failure rejects after all settle. */
export async function pool(tasks: ReadonlyArray<() => Promise<unknown>>, concurrency: number): Promise<void> {
  let next = 0;
  const failures: unknown[] = [];
  const worker = async (): Promise<void> => {
    while (next < tasks.length) await tasks[next++]?.().catch((error: unknown) => failures.push(error));
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, worker));
  if (failures.length > 0) throw new Error(`${failures.length} of ${tasks.length} requests failed; first: ${String(failures[0])}`);
}

/**
 * Creates a namespace for a controller with Argo CD's `default` AppProject (the workload's project), the
 * repository Secret for the environment's Git server (and a webhook Secret if asked).
 */
export async function prepareNamespace(kc: TestKubeConfig, name: string, info: TestEnvironmentInfo, webhookSecret?: string): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name } } });
  await installDefaultAppProject(kc, name);
  await core.createNamespacedSecret({
    namespace: name,
    body: {
      metadata: { name: 'git', labels: { 'argocd.argoproj.io/secret-type': 'repo-creds' } },
      stringData: { url: info.gitHttpBaseUrl, username: info.gitUsername, password: info.gitPassword },
    },
  });
  if (webhookSecret)
    await core.createNamespacedSecret({ namespace: name, body: { metadata: { name: 'hooks' }, stringData: { 'webhook.github.secret': webhookSecret } } });
}

/** The ApplicationSets collection of a namespace. */
function appSetsPath(namespace: string): string {
  return `/apis/argoproj.io/v1alpha1/namespaces/${pathSegment(namespace)}/applicationsets`;
}

/**
 * Creates the ApplicationSets, ten at a time, and returns them as stored (with UIDs). The requests go over
 * keep-alive connections (our own client): client-node's new TLS connection per request made 100 creates
 * take 2.7 s of the benchmark's clock and a core's worth of handshakes beside the controller, which a
 * user's `kubectl apply` (one connection) does not cost.
 */
export async function createAppSets(kc: TestKubeConfig, manifests: readonly AppSetManifest[]): Promise<ApplicationSetObject[]> {
  const client = createKubeTransport(kc, { maxSockets: 10 });
  const stored: ApplicationSetObject[] = [];
  await pool(
    manifests.map((body) => async () => {
      stored.push(await client.request<ApplicationSetObject>({ method: 'POST', path: appSetsPath(body.metadata.namespace), body }));
    }),
    10,
  );
  return stored;
}

/** Sets `spec.template.spec.source.targetRevision` of every ApplicationSet (the update wave), over keep-alive connections. */
export async function setRevision(kc: TestKubeConfig, manifests: readonly AppSetManifest[], revision: string): Promise<void> {
  const client = createKubeTransport(kc, { maxSockets: 10 });
  await pool(
    manifests.map(
      (m) => () =>
        client.send({
          method: 'PATCH',
          path: `${appSetsPath(m.metadata.namespace)}/${pathSegment(m.metadata.name)}`,
          body: [{ op: 'replace', path: '/spec/template/spec/source/targetRevision', value: revision }],
          contentType: 'application/json-patch+json',
        }),
    ),
    10,
  );
}
