import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { kubeConfigOf } from './kubeconfig/context.js';
import { mergeKubeConfigs, parseKubeConfig, type KubeConfigDocument } from './kubeconfig/document.js';
import { KubeConfigError } from './kubeconfig/errors.js';
import { inClusterAvailable, inClusterKubeConfig, SERVICE_ACCOUNT_DIR } from './kubeconfig/in-cluster.js';
import type { KubeConfig } from './kubeconfig/kube-config.js';

export type { Connection, KubeConfig, TlsMaterial } from './kubeconfig/kube-config.js';
export { KubeConfigError } from './kubeconfig/errors.js';

/** Where {@link loadKubeConfig} looks; tests point these elsewhere. */
export interface KubeConfigSources {
  /** Environment with KUBECONFIG, HOME and KUBERNETES_SERVICE_HOST/PORT (default process.env). */
  readonly env?: NodeJS.ProcessEnv;
  /** The service account mount (default /var/run/secrets/kubernetes.io/serviceaccount). */
  readonly serviceAccountDir?: string;
}

/**
 * Loads the kubeconfig the controller talks to the API server with, in @kubernetes/client-node 1.4's order
 * (which earlier releases used): the given file (or path list); else the files of $KUBECONFIG, merged as
 * kubectl merges them; else ~/.kube/config; else the pod's service account.
 */
export function loadKubeConfig(file?: string, sources: KubeConfigSources = {}): KubeConfig {
  const env = sources.env ?? process.env;
  const serviceAccountDir = sources.serviceAccountDir ?? SERVICE_ACCOUNT_DIR;
  if (file && !file.includes(delimiter)) return kubeConfigOf(readDocument(file));
  // --kubeconfig shares its environment variable with kubectl's KUBECONFIG, so it may be a list too.
  const list = (file || env.KUBECONFIG || '').split(delimiter).filter((f) => f !== '');
  if (list.length > 0) {
    // As kubectl, files of the list that do not exist are skipped.
    const documents = list.filter((f) => existsSync(f)).map(readDocument);
    if (documents.length === 0) throw new KubeConfigError(`none of the kubeconfig files exists: ${list.join(delimiter)}`);
    return kubeConfigOf(mergeKubeConfigs(documents));
  }
  const home = env.HOME || homedir();
  const defaultFile = join(home, '.kube', 'config');
  if (existsSync(defaultFile)) return kubeConfigOf(readDocument(defaultFile));
  if (inClusterAvailable(serviceAccountDir)) return inClusterKubeConfig(env, serviceAccountDir);
  throw new KubeConfigError(`no kubeconfig: give --kubeconfig, set KUBECONFIG, create ${defaultFile} or run in a pod with a service account`);
}

function readDocument(file: string): KubeConfigDocument {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new KubeConfigError(`cannot read kubeconfig ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return parseKubeConfig(text, file);
}

/** The current context of kubeconfig `text` (YAML or JSON); relative paths resolve against `source`'s directory. */
export function kubeConfigFromText(text: string, source: string): KubeConfig {
  return kubeConfigOf(parseKubeConfig(text, source));
}
