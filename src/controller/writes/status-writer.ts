import { CustomObjectsApi, PatchStrategy, setHeaderOptions, type KubeConfig } from '@kubernetes/client-node';
import { FIELD_MANAGER } from '../../kube/field-manager.js';
import type { Condition } from '../conditions.js';
import type { ResourceStatus } from '../resource-status.js';

/** The part of an ApplicationSet's status the controller owns. */
export interface ApplicationSetStatus {
  readonly conditions: readonly Condition[];
  readonly resources: readonly ResourceStatus[];
  readonly resourcesCount: number;
}

/** Where a status goes: the ApplicationSet and the resourceVersion the status was computed from. */
export interface StatusTarget {
  readonly namespace: string;
  readonly name: string;
  /** The write fails with 409 if the ApplicationSet changed since; the next reconcile recomputes. */
  readonly resourceVersion: string;
}

/** Writes ApplicationSet status through the status subresource. */
export interface StatusWriter {
  write(target: StatusTarget, status: ApplicationSetStatus): Promise<void>;
}

/** A {@link StatusWriter} on the cluster `kc` points at; in dry-run mode the API server validates and stores nothing. */
export function createStatusWriter(kc: KubeConfig, options: { dryRun: boolean }): StatusWriter {
  const api = kc.makeApiClient(CustomObjectsApi);
  const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
  return {
    async write(target, status) {
      await api.patchNamespacedCustomObjectStatus(
        {
          group: 'argoproj.io',
          version: 'v1alpha1',
          plural: 'applicationsets',
          namespace: target.namespace,
          name: target.name,
          body: { metadata: { resourceVersion: target.resourceVersion }, status },
          fieldManager: FIELD_MANAGER,
          ...(options.dryRun ? { dryRun: 'All' } : {}),
        },
        mergePatch,
      );
    },
  };
}
