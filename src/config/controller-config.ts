import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandValues } from './option-table.js';
import { type SyncPolicy } from '../model/sync-policy.js';
import { controllerSettings } from './controller-settings.js';
import { ConfigError, readSettings, type ValuesOf } from './option-table.js';
import { redisSettingProblems } from './redis-connection-config.js';

/** The typed, frozen configuration of `appset controller`. */
export type ControllerConfig = Omit<ValuesOf<typeof controllerSettings>, 'namespace' | 'policy' | 'enablePolicyOverride' | 'gitCacheDir'> & {
  readonly namespace: string;
  readonly gitCacheDir: string;
  readonly policy: SyncPolicy;
  readonly enablePolicyOverride: boolean;
};

/** Where Kubernetes mounts the pod's namespace. */
const SERVICE_ACCOUNT_NAMESPACE_FILE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

/**
 * Reads the controller's configuration from its flags, then the environment, then defaults. The
 * namespace defaults to $POD_NAMESPACE, then the service account's namespace, then `argocd`. As in
 * Argo CD, ApplicationSets may override the policy by default only while no --policy is given.
 * Throws a ConfigError listing every invalid setting.
 */
export function readControllerConfig(
  flags: CommandValues,
  env: NodeJS.ProcessEnv = process.env,
  namespaceFile = SERVICE_ACCOUNT_NAMESPACE_FILE,
): ControllerConfig {
  const values = readSettings(controllerSettings, flags, env);
  const problems = redisSettingProblems(values);
  if (problems.length > 0) throw new ConfigError(problems);
  const namespace = values.namespace ?? (env.POD_NAMESPACE || readTrimmed(namespaceFile) || 'argocd');
  return Object.freeze({
    ...values,
    namespace,
    gitCacheDir: values.gitCacheDir ?? join(tmpdir(), 'appset-git-cache'),
    policy: values.policy ?? 'sync',
    enablePolicyOverride: values.enablePolicyOverride ?? values.policy === undefined,
  });
}

function readTrimmed(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
