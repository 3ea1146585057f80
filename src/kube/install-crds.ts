import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiextensionsV1Api, KubernetesObjectApi, loadAllYaml, PatchStrategy, type KubeConfig, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { FIELD_MANAGER } from './field-manager.js';

/** The `crds/` folder shipped with the package. */
export function crdsDirectory(): string {
  // dist/src/kube/install-crds.js -> <package>/crds
  return fileURLToPath(new URL('../../../crds/', import.meta.url));
}

/**
 * Reads every CustomResourceDefinition document of the YAML files in `dir` into client-node's typed
 * model. Typed, not raw: client-node serialises a CRD through its model on the way out, and would
 * silently drop raw keys such as `x-kubernetes-preserve-unknown-fields` and `enum`.
 */
export function readCrds(dir = crdsDirectory()): V1CustomResourceDefinition[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml') || f.endsWith('.yml')).sort();
  return files.flatMap((file) =>
    (loadAllYaml(readFileSync(join(dir, file), 'utf8')) as Array<V1CustomResourceDefinition | null>).filter(
      (crd): crd is V1CustomResourceDefinition => crd?.kind === 'CustomResourceDefinition',
    ),
  );
}

/** Applies the CRDs with server-side apply and waits until the API server serves each of them. */
export async function installCrds(kc: KubeConfig, crds = readCrds(), timeoutMs = 30_000): Promise<string[]> {
  const objects = KubernetesObjectApi.makeApiClient(kc);
  const extensions = kc.makeApiClient(ApiextensionsV1Api);
  for (const crd of crds) {
    await objects.patch(crd, undefined, undefined, FIELD_MANAGER, true, PatchStrategy.ServerSideApply);
  }
  const names = crds.map((crd) => crd.metadata?.name ?? '');
  const deadline = Date.now() + timeoutMs;
  for (const name of names) {
    for (;;) {
      const current = await extensions.readCustomResourceDefinition({ name });
      const established = current.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
      if (established) break;
      if (Date.now() > deadline) throw new Error(`CRD ${name} was not established within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return names;
}
