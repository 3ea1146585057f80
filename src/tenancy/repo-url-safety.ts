import { isIP } from 'node:net';

/** What the platform lets tenant repository URLs reach beyond ordinary remote hosts. */
export interface RepoUrlAllowances {
  /** `file://` and plain paths: the controller's own disk. */
  readonly allowFile: boolean;
  /** 127.0.0.0/8, ::1, 0.0.0.0, `localhost`: the controller's own pod. */
  readonly allowLoopback: boolean;
  /** 169.254.0.0/16 and fe80::/10, where cloud metadata services live. */
  readonly allowLinkLocal: boolean;
}

/** The safe default for tenants: remote hosts only. */
export const TENANT_DEFAULTS: RepoUrlAllowances = Object.freeze({ allowFile: false, allowLoopback: false, allowLinkLocal: false });

const SCP_STYLE = /^([A-Za-z0-9._~-]+)@([^/:]+):(.+)$/;

/**
 * Why a tenant may not read `repoURL`, or undefined when it may. Refuses option injection (a leading
 * `-`), git's remote-helper syntax (`ext::…`), unknown schemes, `file://`, and literal loopback or
 * link-local hosts unless allowed. Host names are checked as written; the Git layer checks the
 * addresses they resolve to with {@link refusedAddress}.
 */
export function refusedRepoUrl(repoURL: string, allow: RepoUrlAllowances = TENANT_DEFAULTS): string | undefined {
  const url = repoURL.trim();
  if (url === '' || url.startsWith('-')) return 'a repository URL must not be empty or start with "-"';
  if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(url)) return 'git remote-helper URLs (such as ext::) are not allowed';
  const scp = SCP_STYLE.exec(url);
  if (scp && !url.includes('://')) return refusedHost(scp[2] ?? '', allow);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.startsWith('/') || url.startsWith('.') ? refusedFile(allow) : 'the repository URL cannot be parsed';
  }
  if (parsed.protocol === 'file:') return refusedFile(allow);
  if (!['https:', 'http:', 'ssh:', 'git:'].includes(parsed.protocol)) return `the ${parsed.protocol.slice(0, -1)} scheme is not allowed; use https or ssh`;
  return refusedHost(parsed.hostname, allow);
}

function refusedFile(allow: RepoUrlAllowances): string | undefined {
  return allow.allowFile ? undefined : 'file:// and local paths are not allowed for tenants';
}

function refusedHost(rawHost: string, allow: RepoUrlAllowances): string | undefined {
  const host = rawHost.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === '') return 'the repository URL has no host';
  if (host === 'localhost' || host.endsWith('.localhost')) return allow.allowLoopback ? undefined : `host ${host} is the controller itself (loopback)`;
  return isIP(host) ? refusedAddress(host, allow) : undefined;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, `::ffff:7f00:1`), else the input. */
function unmapIpv4(ip: string): string {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (dotted?.[1]) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(ip);
  if (!hex?.[1] || !hex[2]) return ip;
  const [high, low] = [Number.parseInt(hex[1], 16), Number.parseInt(hex[2], 16)];
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Why a tenant's Git traffic may not go to the IP address `address`, or undefined when it may. */
export function refusedAddress(address: string, allow: RepoUrlAllowances = TENANT_DEFAULTS): string | undefined {
  const ip = unmapIpv4(address.toLowerCase());
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(ip);
  const loopback = v4 ? v4[1] === '127' || ip === '0.0.0.0' : ip === '::1' || ip === '::';
  const linkLocal = v4 ? v4[1] === '169' && v4[2] === '254' : /^fe[89ab][0-9a-f]:/.test(ip);
  if (loopback && !allow.allowLoopback) return `address ${address} is the controller itself (loopback)`;
  if (linkLocal && !allow.allowLinkLocal) return `address ${address} is link-local (cloud metadata lives there)`;
  return undefined;
}
