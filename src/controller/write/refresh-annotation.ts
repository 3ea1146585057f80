import { FIELD_MANAGER } from '../../kube/field-manager.js';
import { pathSegment } from '../../kube/transport/request-url.js';
import { MERGE_PATCH, type KubeTransport } from '../../kube/transport/transport.js';
import { REFRESH_ANNOTATION } from '../routing/triggers.js';

/** Removes the refresh annotation once a refresh is done. */
export interface RefreshClearer {
  clear(target: { readonly namespace: string; readonly name: string; readonly resourceVersion: string }): Promise<void>;
}

/** A {@link RefreshClearer} using a merge patch guarded by the resourceVersion that was reconciled. */
export function createRefreshClearer(transport: KubeTransport, options: { dryRun: boolean }): RefreshClearer {
  const client = transport;
  return {
    async clear(target) {
      await client.send({
        method: 'PATCH',
        path: `/apis/argoproj.io/v1alpha1/namespaces/${pathSegment(target.namespace)}/applicationsets/${pathSegment(target.name)}`,
        query: { fieldManager: FIELD_MANAGER, dryRun: options.dryRun ? 'All' : undefined },
        body: { metadata: { resourceVersion: target.resourceVersion, annotations: { [REFRESH_ANNOTATION]: null } } },
        contentType: MERGE_PATCH,
        idempotent: true,
      });
    },
  };
}
