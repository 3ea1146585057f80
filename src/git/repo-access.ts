import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { V1Secret } from '@kubernetes/client-node';
import { GitError, type GitLocation } from './git-error.js';

/** Resolves a host name to every address it has (dns.lookup with `all`, as git's resolver sees it). */
export type ResolveAll = (host: string) => Promise<readonly string[]>;

/**
 * What one caller of the Git cache may use: a tenant gets only its project's credentials and only hosts
 * whose addresses it may reach; the platform gets everything ({@link PLATFORM_ACCESS}).
 */
export interface RepoAccess {
  /** Which repository Secrets may authenticate this caller (all when absent). */
  readonly usesSecret?: (secret: V1Secret) => boolean;
  /** Why this caller may not reach `address`, one the repository's host resolves to; absent: no check. */
  readonly refusedAddress?: (address: string) => string | undefined;
  /** The resolver (default: dns.lookup, all addresses). */
  readonly resolve?: ResolveAll;
}

/** The platform's access: every Secret, every address. */
export const PLATFORM_ACCESS: RepoAccess = Object.freeze({});

const SCP_HOST = /^[A-Za-z0-9._~-]+@([^/:]+):/;

/** The host a repository URL connects to, without brackets; undefined for file URLs and local paths. */
export function repositoryHost(repoURL: string): string | undefined {
  const scp = SCP_HOST.exec(repoURL);
  if (scp && !repoURL.includes('://')) return scp[1];
  try {
    const url = new URL(repoURL);
    return url.protocol === 'file:' || url.hostname === '' ? undefined : url.hostname.replace(/^\[|\]$/g, '');
  } catch {
    return undefined;
  }
}

const resolveWithDns: ResolveAll = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Refuses, before any Git traffic, a repository whose host resolves to an address the caller may not
 * reach (loopback, link-local, ...): a host name is only as safe as the addresses behind it. A host that
 * does not resolve is an `unreachable` error (retried), never a pass.
 */
export async function checkResolvedAddresses(access: RepoAccess, where: GitLocation): Promise<void> {
  const refuse = access.refusedAddress;
  const host = refuse ? repositoryHost(where.repoURL) : undefined;
  if (!refuse || host === undefined) return;
  let addresses: readonly string[];
  try {
    addresses = isIP(host) ? [host] : await (access.resolve ?? resolveWithDns)(host);
  } catch (error) {
    throw new GitError('unreachable', where, `host ${host} does not resolve: ${error instanceof Error ? error.message : String(error)}`);
  }
  for (const address of addresses) {
    const why = refuse(address);
    if (why) throw new GitError('invalid-input', where, `refused repository host ${host}: ${why}`);
  }
}
