import type { KubeConfigDocument } from './document.js';
import { KubeConfigError } from './errors.js';
import { describeEntry, stringField } from './fields.js';
import { resolveCluster } from './cluster.js';
import type { KubeConfig } from './kube-config.js';
import { resolveUser } from './user.js';

/**
 * The {@link KubeConfig} of `contextName` (default: the document's current-context). Only the context
 * used and its cluster and user are checked: other entries may use settings this client lacks.
 */
export function kubeConfigOf(doc: KubeConfigDocument, contextName = doc.currentContext): KubeConfig {
  if (!contextName) throw new KubeConfigError('the kubeconfig has no current-context');
  const context = doc.contexts.get(contextName);
  if (!context) throw new KubeConfigError(`the kubeconfig has no context ${JSON.stringify(contextName)}`);
  const name = describeEntry('context', context);
  const clusterName = stringField('context', context, 'cluster');
  if (!clusterName) throw new KubeConfigError(`${name}: field "cluster" is missing`);
  const clusterEntry = doc.clusters.get(clusterName);
  if (!clusterEntry) throw new KubeConfigError(`${name}: cluster ${JSON.stringify(clusterName)} is not defined in the kubeconfig`);
  const userName = stringField('context', context, 'user');
  const userEntry = userName === undefined ? undefined : doc.users.get(userName);
  if (userName !== undefined && !userEntry) throw new KubeConfigError(`${name}: user ${JSON.stringify(userName)} is not defined in the kubeconfig`);
  const cluster = resolveCluster(clusterEntry);
  const user = resolveUser(userEntry, cluster);
  return {
    server: cluster.server,
    namespace: stringField('context', context, 'namespace'),
    connection: async () => {
      const { headers, cert, key } = await user();
      return { headers, tls: { ca: cluster.ca(), cert, key, rejectUnauthorized: !cluster.insecure, servername: cluster.servername } };
    },
  };
}
