import { splitKey } from '../model/object-key.js';

/** The tenant a queue key belongs to: its namespace (the part before the first `/`), '' for a bare key. */
export function tenantOf(key: string): string {
  return splitKey(key).namespace;
}
