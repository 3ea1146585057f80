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
  const namespace = object.metadata?.namespace;
  return namespace ? `${namespace}/${name}` : name;
}

/** The key of `name` in `namespace` (empty or undefined for cluster-scoped objects). */
export function keyOf(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/** Freezes `value` and everything reachable from it, in place, and returns it. Frozen subtrees are skipped. */
export function deepFreeze<T>(value: T): Frozen<T> {
  if (isUnfrozenObject(value)) freezeTree(value);
  return value as Frozen<T>;
}

function isUnfrozenObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Object.isFrozen(value);
}

/** Recursion depth is the object's nesting depth, which JSON.parse already walked the same way. */
function freezeTree(value: object): void {
  Object.freeze(value);
  // Children are tested before the call, so the many string and number leaves cost no call at all.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const child: unknown = value[i];
      if (isUnfrozenObject(child)) freezeTree(child);
    }
    return;
  }
  // for-in rather than Object.values: no array per object, which matters at tens of thousands of objects.
  // Decoded JSON has no inherited enumerable keys, so for-in sees exactly the own properties.
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (isUnfrozenObject(child)) freezeTree(child);
  }
}
