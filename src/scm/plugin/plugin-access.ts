import type { V1ConfigMap, V1Secret } from '@kubernetes/client-node';
import { secretValue } from '../../model/secrets.js';
import type { ApiRequestRecord } from '../http/api-client.js';
import type { PluginAccess, PluginRequest } from './access.js';
import { PluginError, PluginRequestRefused } from './errors.js';
import { callPlugin } from './plugin-client.js';
import { readPluginConfig } from './plugin-config.js';

/** What the platform allows plugin calls, for one caller (the platform, or one tenant project). */
export interface PluginPolicy {
  /** Whether this caller may use a plugin ConfigMap at all. */
  readonly usesConfigMap: (configMap: V1ConfigMap) => boolean;
  /** Whether this caller may send this Secret's token to the plugin. */
  readonly usesSecret: (secret: V1Secret) => boolean;
  /** Why the `baseUrl` itself may not be used (scheme, literal loopback or link-local host), or undefined. */
  readonly refusedUrl?: (baseUrl: string) => string | undefined;
  /** Why traffic may not go to a resolved address, checked at connect time, or undefined when it may. */
  readonly refusedAddress?: (address: string) => string | undefined;
}

/** Where the plugin access reads its inputs, and its limits. */
export interface PluginAccessParts {
  readonly policy: PluginPolicy;
  /** The controller's namespace, where plugin ConfigMaps and token Secrets live (named in errors). */
  readonly namespace: string;
  /** Reads a ConfigMap of the controller's namespace; undefined when it does not exist. */
  readonly configMap: (name: string, signal: AbortSignal) => Promise<V1ConfigMap | undefined>;
  /** Reads a Secret of the controller's namespace; undefined when it does not exist. */
  readonly secret: (name: string, signal: AbortSignal) => Promise<V1Secret | undefined>;
  /** The longest a call may take, whatever `requestTimeout` says. */
  readonly maxTimeoutMs: number;
  /** The largest answer read; a larger one is cut off and refused. */
  readonly maxResponseBytes: number;
  readonly onRequest?: (record: ApiRequestRecord) => void;
}

/** The plugin access of one caller under `parts.policy`: every refusal names its rule; nothing is sent before the checks pass. */
export function createPluginAccess(parts: PluginAccessParts): PluginAccess {
  return {
    async call(request, signal) {
      const where = `${parts.namespace}/${request.configMapName}`;
      const config = readPluginConfig(await usableConfigMap(parts, request, signal), where);
      const unsafe = parts.policy.refusedUrl?.(config.baseUrl);
      if (unsafe) throw new PluginRequestRefused(`plugin ConfigMap ${where}: baseUrl ${config.baseUrl} is refused: ${unsafe}; nothing was sent to it`);
      const token = await tokenOf(parts, config.token, where, signal);
      return callPlugin(
        {
          configMap: where,
          baseUrl: config.baseUrl,
          token,
          applicationSetName: request.applicationSetName,
          parameters: request.parameters,
          timeoutMs: Math.min(config.timeoutMs, parts.maxTimeoutMs),
          maxResponseBytes: parts.maxResponseBytes,
          ...(parts.policy.refusedAddress ? { refusedAddress: parts.policy.refusedAddress } : {}),
          ...(parts.onRequest ? { onRequest: parts.onRequest } : {}),
        },
        signal,
      );
    },
  };
}

async function usableConfigMap(parts: PluginAccessParts, request: PluginRequest, signal: AbortSignal): Promise<V1ConfigMap> {
  const where = `${parts.namespace}/${request.configMapName}`;
  const configMap = await parts.configMap(request.configMapName, signal);
  if (!configMap) throw new PluginError(`plugin ConfigMap ${where} not found`);
  if (!parts.policy.usesConfigMap(configMap)) {
    throw new PluginRequestRefused(`plugin ConfigMap ${where} is scoped to another project (or not shared with tenants); nothing was sent`);
  }
  return configMap;
}

/** The token the ConfigMap references, if this caller may send it; trimmed as Argo CD trims it. */
async function tokenOf(parts: PluginAccessParts, ref: { secretName: string; key: string }, where: string, signal: AbortSignal): Promise<string> {
  const secretWhere = `${parts.namespace}/${ref.secretName}`;
  const secret = await parts.secret(ref.secretName, signal);
  if (!secret) throw new PluginError(`plugin ConfigMap ${where}: token Secret ${secretWhere} not found`);
  if (!parts.policy.usesSecret(secret)) {
    throw new PluginRequestRefused(
      `plugin ConfigMap ${where}: token Secret ${secretWhere} is scoped to another project (or not shared with tenants); nothing was sent`,
    );
  }
  // Argo CD sends the reference itself ("$key") when the key is missing; an error says what is wrong instead.
  const value = secretValue(secret, ref.key);
  if (value === undefined) throw new PluginError(`plugin ConfigMap ${where}: token Secret ${secretWhere} has no key ${ref.key}`);
  return value.trim();
}
