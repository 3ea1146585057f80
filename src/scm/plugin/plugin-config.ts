import type { V1ConfigMap } from '@kubernetes/client-node';
import { PluginError } from './errors.js';

/** Argo CD's default time limit of a plugin call (`requestTimeout` absent or 0): 30 seconds. */
export const DEFAULT_PLUGIN_TIMEOUT_MS = 30_000;

/** The Secret Argo CD reads a `$key` token from when the reference names no Secret. */
export const DEFAULT_TOKEN_SECRET = 'argocd-secret';

/** Where a plugin's bearer token lives: one key of a Secret of the controller's namespace. */
export interface TokenRef {
  readonly secretName: string;
  readonly key: string;
}

/** A plugin ConfigMap (`baseUrl`, `token`, `requestTimeout`), read and checked. */
export interface PluginConfig {
  readonly baseUrl: string;
  readonly token: TokenRef;
  /** `requestTimeout` in ms, or the default; not yet bounded by the controller's maximum. */
  readonly timeoutMs: number;
}

/**
 * Reads a plugin ConfigMap as Argo CD does: `baseUrl` and `token` must be non-empty, `requestTimeout` is a
 * whole number of seconds (0 or absent: 30 s). `where` names the ConfigMap (`ns/name`) in every error.
 */
export function readPluginConfig(configMap: V1ConfigMap, where: string): PluginConfig {
  const data = configMap.data ?? {};
  const baseUrl = data['baseUrl']?.trim() ?? '';
  if (baseUrl === '') throw new PluginError(`plugin ConfigMap ${where}: baseUrl not found in ConfigMap`);
  const token = data['token'] ?? '';
  if (token === '') throw new PluginError(`plugin ConfigMap ${where}: token not found in ConfigMap`);
  return { baseUrl, token: parseTokenRef(token, where), timeoutMs: readTimeout(data['requestTimeout'], where) };
}

/**
 * Argo CD's token reference: `$<secret>:<key>` names a Secret and its key; `$<key>` a key of `argocd-secret`.
 * Anything not starting with `$` is refused, as Argo CD refuses it (a literal token must not sit in a ConfigMap).
 */
export function parseTokenRef(value: string, where: string): TokenRef {
  if (!value.startsWith('$')) {
    throw new PluginError(
      `plugin ConfigMap ${where}: token must reference a Secret key starting with '$' ($<secret>:<key> or $<key> of ${DEFAULT_TOKEN_SECRET})`,
    );
  }
  if (!value.includes(':')) return { secretName: DEFAULT_TOKEN_SECRET, key: value.slice(1) };
  // As Argo CD's ParseSecretKey: the part before the first colon, and the part after it up to any next colon.
  const [secretPart = '', keyPart = ''] = value.split(':');
  const ref = { secretName: secretPart.slice(1), key: keyPart };
  if (ref.secretName === '' || ref.key === '') throw new PluginError(`plugin ConfigMap ${where}: token ${JSON.stringify(value)} must be $<secret>:<key>`);
  return ref;
}

function readTimeout(raw: string | undefined, where: string): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_PLUGIN_TIMEOUT_MS;
  if (!/^\s*[+-]?\d+\s*$/.test(raw)) throw new PluginError(`plugin ConfigMap ${where}: requestTimeout ${JSON.stringify(raw)} is not a whole number of seconds`);
  const seconds = Number.parseInt(raw, 10);
  if (seconds < 0) throw new PluginError(`plugin ConfigMap ${where}: requestTimeout must not be negative, got ${seconds}`);
  return seconds === 0 ? DEFAULT_PLUGIN_TIMEOUT_MS : seconds * 1000;
}
