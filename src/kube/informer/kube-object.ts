import { keyOf } from '../../model/object-key.js';

/** The parts of a Kubernetes object the watch layer relies on; everything else passes through untouched. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/** A watched object as the store hands it out: deeply frozen, so no handler can change the shared cache. */
export type Frozen<T> = T extends (infer E)[] ? ReadonlyArray<Frozen<E>> : T extends object ? { readonly [K in keyof T]: Frozen<T[K]> } : T;

/** The cache key of an object: `namespace/name`, or `name` for a cluster-scoped object (client-go's convention). */
export function objectKey(object: KubeObject): string {
  const name = object.metadata?.name;
  if (!name) throw new Error(`object without metadata.name cannot be cached: ${JSON.stringify(object).slice(0, 200)}`);
  return keyOf(object.metadata?.namespace, name);
}

export { keyOf };
