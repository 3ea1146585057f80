import type { KubeConfig } from '../kubeconfig.js';

/** Query parameters; undefined values are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/** Where one request goes, as `http.request` options: no URL object is built per request. */
export interface RequestTarget {
  readonly protocol: 'http:' | 'https:';
  /** Host name or address, IPv6 without brackets. */
  readonly hostname: string;
  /** Port, when the server URL names one. */
  readonly port: number | undefined;
  /** Path and query string, the server URL's own path prefix first. */
  readonly path: string;
}

/** A server URL taken apart once. */
type ServerBase = Omit<RequestTarget, 'path'> & { readonly prefix: string; readonly hostHeader: string };
const bases = new Map<string, ServerBase>();

// Why not `new URL(server + path)` per request: the URL, its search parameters and Node's conversion
// back to request options were a tenth of the request path's CPU in a profiled converge.
function serverBase(server: string): ServerBase {
  let base = bases.get(server);
  if (!base) {
    const url = new URL(server);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`API server URL ${server} is neither http nor https`);
    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    base = {
      protocol: url.protocol,
      hostname,
      port: url.port ? Number(url.port) : undefined,
      prefix: url.pathname.replace(/\/+$/, ''),
      hostHeader: url.host,
    };
    bases.set(server, base);
  }
  return base;
}

/** Where the server of a URL listens, and its `Host` header (IPv6 in brackets, a default port left out). */
export function serverAddress(server: string): {
  readonly protocol: 'http:' | 'https:';
  readonly hostname: string;
  readonly port: number;
  readonly hostHeader: string;
} {
  const { protocol, hostname, port, hostHeader } = serverBase(server);
  return { protocol, hostname, port: port ?? (protocol === 'https:' ? 443 : 80), hostHeader };
}

/** The target of `path?query` on the kubeconfig's current cluster; undefined query values are left out. */
export function requestTarget(kc: KubeConfig, path: string, query: Query = {}): RequestTarget {
  const { protocol, hostname, port } = serverBase(kc.server);
  return { protocol, hostname, port, path: requestPath(kc, path, query) };
}

/**
 * Only the path and query string of {@link requestTarget}, for requests that write their own head. The
 * object with a rest spread that requestTarget once built for each of them took a slow property path in
 * V8 (perf of a converge, session 37: 1.3-2.3 % of a replica's main thread under Node 20, 1 % under Node 24).
 */
export function requestPath(kc: KubeConfig, path: string, query: Query = {}): string {
  let search = '';
  for (const name in query) {
    const value = query[name];
    if (value !== undefined) search += `${search ? '&' : '?'}${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`;
  }
  return serverBase(kc.server).prefix + path + search;
}

/** Escapes one path segment (a namespace or name) so it can never change the request's path. */
export function pathSegment(value: string): string {
  if (value === '' || value === '.' || value === '..') throw new Error(`${JSON.stringify(value)} is not a valid path segment`);
  return encodeURIComponent(value);
}
