import type { KubeConfig } from '../kubeconfig.js';

/** Query parameters; undefined values are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/** The URL of `path?query` on the kubeconfig's current cluster; undefined query values are left out. */
export function requestUrl(kc: KubeConfig, path: string, query: Query = {}): URL {
  const url = new URL(kc.server + path);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
  return url;
}

/** Escapes one path segment (a namespace or name) so it can never change the request's path. */
export function pathSegment(value: string): string {
  if (value === '' || value === '.' || value === '..') throw new Error(`${JSON.stringify(value)} is not a valid path segment`);
  return encodeURIComponent(value);
}
