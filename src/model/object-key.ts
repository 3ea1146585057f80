/** The one format of object keys: `namespace/name`, or `name` alone for a cluster-scoped object (client-go's convention). */

/** The key of `name` in `namespace` (empty or undefined for cluster-scoped objects). */
export function keyOf(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/** The namespace and name of a key; the namespace is '' for a cluster-scoped key. */
export function splitKey(key: string): { readonly namespace: string; readonly name: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
