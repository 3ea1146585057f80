import type { KubeConfig } from '@kubernetes/client-node';
import { FIELD_MANAGER } from '../../kube/field-manager.js';
import { createKubeClient, MERGE_PATCH, pathSegment } from '../../kube/kube-client.js';
import type { Condition } from './conditions.js';
import type { ResourceStatus } from './resource-status.js';

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
  const client = createKubeClient(kc);
  return {
    async write(target, status) {
      await client.send({
        method: 'PATCH',
        path: `/apis/argoproj.io/v1alpha1/namespaces/${pathSegment(target.namespace)}/applicationsets/${pathSegment(target.name)}/status`,
        query: { fieldManager: FIELD_MANAGER, dryRun: options.dryRun ? 'All' : undefined },
        body: { metadata: { resourceVersion: target.resourceVersion }, status },
        contentType: MERGE_PATCH,
        // Guarded by the resourceVersion: a second delivery fails with 409 instead of writing twice.
        idempotent: true,
      });
    },
  };
}
