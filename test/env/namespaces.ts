import { randomBytes } from 'node:crypto';
import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { defaultAppProject } from '../../src/tenancy/default-project.js';

/** A namespace created for one test, isolating it from the others sharing the environment. */
export interface TestNamespace {
  name: string;
  /** Deletes the namespace (the environment's namespace controller finishes the job). */
  delete(): Promise<void>;
}

/** Creates a uniquely named namespace `prefix-xxxxxx`. */
export async function createTestNamespace(kc: KubeConfig, prefix: string): Promise<TestNamespace> {
  const core = kc.makeApiClient(CoreV1Api);
  const name = `${prefix}-${randomBytes(3).toString('hex')}`;
  await core.createNamespace({ body: { metadata: { name, labels: { 'appset-controller.test/owner': prefix } } } });
  return {
    name,
    delete: async () => {
      await core.deleteNamespace({ name }).catch(() => undefined);
    },
  };
}

/**
 * Creates Argo CD's `default` AppProject in `namespace`, as every Argo CD install has it: a controller whose
 * namespace this is refuses generated Applications that name an AppProject it does not have.
 */
export async function installDefaultAppProject(kc: KubeConfig, namespace: string): Promise<void> {
  const body = defaultAppProject(namespace);
  await kc.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({ group: 'argoproj.io', version: 'v1alpha1', namespace, plural: 'appprojects', body });
}

/** A test namespace for a controller to run in (its `--namespace`): like an Argo CD namespace, it holds the `default` AppProject. */
export async function createControllerNamespace(kc: KubeConfig, prefix: string): Promise<TestNamespace> {
  const ns = await createTestNamespace(kc, prefix);
  await installDefaultAppProject(kc, ns.name);
  return ns;
}
