import { CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions, type KubeConfig } from '@kubernetes/client-node';
import type { ApplicationSetObject } from '../../src/controller/applicationset.js';
import type { TestEnvironmentInfo } from '../env/environment.js';
import type { AppSetManifest } from './workload.js';

const G = { group: 'argoproj.io', version: 'v1alpha1' };
const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);

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

/** Creates a namespace with the repository Secret for the environment's Git server (and a webhook Secret if asked). */
export async function prepareNamespace(kc: KubeConfig, name: string, info: TestEnvironmentInfo, webhookSecret?: string): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name } } });
  await core.createNamespacedSecret({
    namespace: name,
    body: { metadata: { name: 'git', labels: { 'argocd.argoproj.io/secret-type': 'repo-creds' } }, stringData: { url: info.gitHttpBaseUrl, username: info.gitUsername, password: info.gitPassword } },
  });
  if (webhookSecret) await core.createNamespacedSecret({ namespace: name, body: { metadata: { name: 'hooks' }, stringData: { 'webhook.github.secret': webhookSecret } } });
}

/** Creates the ApplicationSets, ten at a time, and returns them as stored (with UIDs). */
export async function createAppSets(kc: KubeConfig, manifests: readonly AppSetManifest[]): Promise<ApplicationSetObject[]> {
  const custom = kc.makeApiClient(CustomObjectsApi);
  const stored: ApplicationSetObject[] = [];
  await pool(manifests.map((body) => async () => {
    stored.push((await custom.createNamespacedCustomObject({ ...G, namespace: body.metadata.namespace, plural: 'applicationsets', body })) as ApplicationSetObject);
  }), 10);
  return stored;
}

/** Sets `spec.template.spec.source.targetRevision` of every ApplicationSet: the update wave. */
export async function setRevision(kc: KubeConfig, manifests: readonly AppSetManifest[], revision: string): Promise<void> {
  const custom = kc.makeApiClient(CustomObjectsApi);
  await pool(manifests.map((m) => () => custom.patchNamespacedCustomObject(
    { ...G, namespace: m.metadata.namespace, plural: 'applicationsets', name: m.metadata.name, body: [{ op: 'replace', path: '/spec/template/spec/source/targetRevision', value: revision }] },
    jsonPatch,
  )), 10);
}
