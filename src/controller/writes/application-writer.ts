import { KubernetesObjectApi, PatchStrategy, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import { FIELD_MANAGER } from '../../kube/field-manager.js';
import type { Application } from '../objects.js';

/** Writes Applications: server-side apply with the one field manager, deletes with preconditions. */
export interface ApplicationWriter {
  /** Applies `intent` (force: the controller owns the fields it sets) and returns the stored object. */
  apply(intent: Application): Promise<Application>;
  /**
   * Deletes `live` only if it is still the object that was read (same UID and resourceVersion), so a
   * change made since the decision makes the delete fail instead of destroying newer state.
   */
  delete(live: Application): Promise<void>;
}

/** Options of {@link createApplicationWriter}. */
export interface ApplicationWriterOptions {
  /** Send every write as a server-side dry run: validated by the API server, stored nowhere. */
  dryRun: boolean;
}

/** An {@link ApplicationWriter} on the cluster `kc` points at. */
export function createApplicationWriter(kc: KubeConfig, options: ApplicationWriterOptions): ApplicationWriter {
  const api = KubernetesObjectApi.makeApiClient(kc);
  const dryRun = options.dryRun ? 'All' : undefined;
  return {
    async apply(intent) {
      const stored = await api.patch(intent as unknown as KubernetesObject, undefined, dryRun, FIELD_MANAGER, true, PatchStrategy.ServerSideApply);
      return stored as unknown as Application;
    },
    async delete(live) {
      const { uid, resourceVersion } = live.metadata;
      if (!uid || !resourceVersion) throw new Error(`refusing to delete Application ${live.metadata.namespace}/${live.metadata.name} without UID and resourceVersion preconditions`);
      await api.delete(live as unknown as KubernetesObject, undefined, dryRun, undefined, undefined, 'Background', {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        propagationPolicy: 'Background',
        preconditions: { uid, resourceVersion },
        ...(dryRun ? { dryRun: [dryRun] } : {}),
      });
    },
  };
}
