import { KubeConfig as ClientNodeKubeConfig } from '@kubernetes/client-node';
import { loadKubeConfig, type KubeConfig } from '../../src/kube/kubeconfig.js';

/**
 * A kubeconfig both clients take: client-node's, for the generated API clients tests use to set up and
 * check, with the controller's own loader's on top (`server`, `namespace`, `connection`).
 */
export type TestKubeConfig = ClientNodeKubeConfig & KubeConfig;

/** Loads `path` with both client-node and the controller's own loader. */
export function testKubeConfig(path: string): TestKubeConfig {
  const kc = new ClientNodeKubeConfig();
  kc.loadFromFile(path);
  return Object.assign(kc, loadKubeConfig(path));
}
