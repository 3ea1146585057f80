/** The tenant a queue key belongs to: its namespace (the part before the first `/`), '' for a bare key. */
export function tenantOf(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}
