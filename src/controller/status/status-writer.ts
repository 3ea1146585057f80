import { FIELD_MANAGER } from '../../kube/field-manager.js';
import { KubeApiError } from '../../kube/transport/api-errors.js';
import { pathSegment } from '../../kube/transport/request-url.js';
import { MERGE_PATCH, type KubeTransport } from '../../kube/transport/transport.js';
import type { Condition } from './conditions.js';
import type { ResourceStatus } from './resource-status.js';
import type { ApplicationRolloutStatus } from '../rollout/application-status.js';

/** The part of an ApplicationSet's status the controller owns; a write sends only the fields it holds. */
export interface ApplicationSetStatus {
  readonly conditions?: readonly Condition[];
  readonly resources?: readonly ResourceStatus[];
  readonly resourcesCount?: number;
  /** RollingSync's per-Application progress; null removes it. */
  readonly applicationStatus?: readonly ApplicationRolloutStatus[] | null;
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
  /** Merges `status` into the stored one; resolves with the ApplicationSet's new resourceVersion when the server gave one. */
  write(target: StatusTarget, status: ApplicationSetStatus): Promise<string | undefined>;
}

/** A {@link StatusWriter} through the replica's transport; in dry-run mode the API server validates and stores nothing. */
export function createStatusWriter(transport: KubeTransport, options: { dryRun: boolean }): StatusWriter {
  const client = transport;
  return {
    async write(target, status) {
      const stored = await client.request<{ metadata?: { resourceVersion?: string } } | undefined>({
        method: 'PATCH',
        path: `/apis/argoproj.io/v1alpha1/namespaces/${pathSegment(target.namespace)}/applicationsets/${pathSegment(target.name)}/status`,
        query: { fieldManager: FIELD_MANAGER, dryRun: options.dryRun ? 'All' : undefined },
        body: { metadata: { resourceVersion: target.resourceVersion }, status },
        contentType: MERGE_PATCH,
        // Guarded by the resourceVersion: a second delivery fails with 409 instead of writing twice.
        idempotent: true,
      });
      return stored?.metadata?.resourceVersion;
    },
  };
}

/**
 * True for a status write the API server refused because the ApplicationSet changed since the status was computed
 * (409) or is gone (404): not an error, the change brings its own reconcile.
 */
export function isStaleStatusError(error: unknown): error is KubeApiError {
  return error instanceof KubeApiError && (error.status === 409 || error.status === 404);
}
