import { KubeConfig } from '@kubernetes/client-node';

/**
 * Loads a kubeconfig: the given file, else in-cluster credentials when running in a pod,
 * else $KUBECONFIG or ~/.kube/config (client-node's default order).
 */
export function loadKubeConfig(file?: string): KubeConfig {
  const kc = new KubeConfig();
  if (file) kc.loadFromFile(file);
  else kc.loadFromDefault();
  return kc;
}
