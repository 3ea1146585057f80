import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { FIELD_MANAGER } from './field-manager.js';
import { pathSegment } from './transport/request-url.js';
import { APPLY_PATCH, type KubeTransport } from './transport/transport.js';

/** The `crds/` folder shipped with the package. */
export function crdsDirectory(): string {
  // dist/src/kube/install-crds.js -> <package>/crds
  return fileURLToPath(new URL('../../../crds/', import.meta.url));
}

/**
 * Reads every CustomResourceDefinition document of the YAML files in `dir`, as written: they are sent as
 * they are, so no key (`x-kubernetes-preserve-unknown-fields`, `enum`) is lost on the way.
 */
export function readCrds(dir = crdsDirectory()): V1CustomResourceDefinition[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort();
  return files.flatMap((file) =>
    parseAllDocuments(readFileSync(join(dir, file), 'utf8'))
      .map((doc) => doc.toJS() as V1CustomResourceDefinition | null)
      .filter((crd): crd is V1CustomResourceDefinition => crd?.kind === 'CustomResourceDefinition'),
  );
}

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** Applies the CRDs with server-side apply and waits until the API server serves each of them. */
export async function installCrds(transport: KubeTransport, crds = readCrds(), timeoutMs = 30_000): Promise<string[]> {
  const names = crds.map((crd) => crd.metadata?.name ?? '');
  for (const [index, crd] of crds.entries()) {
    const path = `${CRD_PATH}/${pathSegment(names[index] ?? '')}`;
    await transport.send({ method: 'PATCH', path, query: { fieldManager: FIELD_MANAGER, force: true }, body: crd, contentType: APPLY_PATCH, idempotent: true });
  }
  const deadline = Date.now() + timeoutMs;
  for (const name of names) {
    for (;;) {
      const current = await transport.request<V1CustomResourceDefinition>({ method: 'GET', path: `${CRD_PATH}/${pathSegment(name)}`, idempotent: true });
      const established = current.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
      if (established) break;
      if (Date.now() > deadline) throw new Error(`CRD ${name} was not established within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return names;
}
