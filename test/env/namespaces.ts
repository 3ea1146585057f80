import { randomBytes } from 'node:crypto';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';

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
