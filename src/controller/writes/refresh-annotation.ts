import { KubernetesObjectApi, PatchStrategy, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import { FIELD_MANAGER } from '../../kube/field-manager.js';
import { REFRESH_ANNOTATION } from '../triggers.js';

/** Removes the refresh annotation once a refresh is done. */
export interface RefreshClearer {
  clear(target: { readonly namespace: string; readonly name: string; readonly resourceVersion: string }): Promise<void>;
}

/** A {@link RefreshClearer} using a merge patch guarded by the resourceVersion that was reconciled. */
export function createRefreshClearer(kc: KubeConfig, options: { dryRun: boolean }): RefreshClearer {
  const api = KubernetesObjectApi.makeApiClient(kc);
  return {
    async clear(target) {
      const patch = {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'ApplicationSet',
        metadata: { name: target.name, namespace: target.namespace, resourceVersion: target.resourceVersion, annotations: { [REFRESH_ANNOTATION]: null } },
      } as unknown as KubernetesObject;
      await api.patch(patch, undefined, options.dryRun ? 'All' : undefined, FIELD_MANAGER, undefined, PatchStrategy.MergePatch);
    },
  };
}
