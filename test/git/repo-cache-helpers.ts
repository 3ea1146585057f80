// Shared setup for the Git cache integration tests: a fresh cache folder, unique repository names,
// and Argo CD repository Secrets built in memory.
import type { V1Secret } from '@kubernetes/client-node';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { RepoCache, type RepoCacheOptions } from '../../src/git/repo-cache.js';

/** A cache in a new temporary folder, with fast retries so failure tests stay quick. */
export function freshCache(options: Partial<RepoCacheOptions> = {}): RepoCache {
  const root = mkdtempSync(join(tmpdir(), 'repo-cache-'));
  return new RepoCache({ root, retry: { attempts: 2, initialDelayMs: 10, maxDelayMs: 20 }, networkTimeoutMs: 20_000, ...options });
}

/** A repository name no other test uses. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** An Argo CD `repository` (exact URL) or `repo-creds` (URL prefix) Secret with basic-auth credentials. */
export function repoSecret(type: 'repository' | 'repo-creds', url: string, username: string, password: string): V1Secret {
  const data = { url, username, password, type: 'git' };
  return {
    metadata: { name: `${type}-${randomUUID().slice(0, 6)}`, namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': type } },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  };
}

/** A never-aborted signal. */
export const noSignal = new AbortController().signal;
