import { FIELD_MANAGER } from '../../kube/field-manager.js';
import { pathSegment } from '../../kube/transport/request-url.js';
import { APPLY_PATCH, MERGE_PATCH, type KubeTransport } from '../../kube/transport/transport.js';
import type { Application } from '../../model/objects.js';

/** Writes Applications: server-side apply with the one field manager, deletes with preconditions. */
export interface ApplicationWriter {
  /**
   * Applies `intent` (force: the controller owns the fields it sets). The stored object the server
   * answers with is not parsed: nothing reads it (the watch brings it to the cache).
   */
  apply(intent: Application): Promise<void>;
  /**
   * Deletes `live` only if it is still the object that was read (same UID and resourceVersion), so a
   * change made since the decision makes the delete fail instead of destroying newer state.
   */
  delete(live: Application): Promise<void>;
  /**
   * Sets `operation` on an Application (a JSON merge patch, not an apply: the field belongs to the sync it starts,
   * and Argo CD's application controller removes it when the sync ends; an apply would make it ours to remove).
   */
  startOperation(target: { readonly namespace: string; readonly name: string }, operation: unknown): Promise<void>;
}

/** Options of {@link createApplicationWriter}. */
export interface ApplicationWriterOptions {
  /** Send every write as a server-side dry run: validated by the API server, stored nowhere. */
  dryRun: boolean;
}

/** The URL path of one Application; the name and namespace are escaped, so they cannot leave it. */
function applicationPath(meta: { readonly namespace?: string | undefined; readonly name: string }): string {
  const { namespace, name } = meta;
  if (!namespace) throw new Error(`Application ${name} has no namespace`);
  return `/apis/argoproj.io/v1alpha1/namespaces/${pathSegment(namespace)}/applications/${pathSegment(name)}`;
}

/** DeleteOptions that delete `live` only while it is still the object that was read (its UID and resourceVersion). */
function deleteOptions(live: Application, dryRun: string | undefined): object {
  const { uid, resourceVersion } = live.metadata;
  if (!uid || !resourceVersion)
    throw new Error(`refusing to delete Application ${live.metadata.namespace}/${live.metadata.name} without UID and resourceVersion preconditions`);
  return {
    apiVersion: 'v1',
    kind: 'DeleteOptions',
    propagationPolicy: 'Background',
    preconditions: { uid, resourceVersion },
    ...(dryRun ? { dryRun: [dryRun] } : {}),
  };
}

/**
 * An {@link ApplicationWriter} through the replica's transport. Writes share the transport's pool of
 * keep-alive connections: a converge writes thousands of Applications.
 */
export function createApplicationWriter(transport: KubeTransport, options: ApplicationWriterOptions): ApplicationWriter {
  const client = transport;
  const dryRun = options.dryRun ? 'All' : undefined;
  return {
    async apply(intent) {
      if (intent.apiVersion !== 'argoproj.io/v1alpha1' || intent.kind !== 'Application')
        throw new Error(`not an argoproj.io/v1alpha1 Application: ${intent.apiVersion} ${intent.kind}`);
      await client.send({
        method: 'PATCH',
        path: applicationPath(intent.metadata),
        query: { fieldManager: FIELD_MANAGER, force: true, dryRun },
        body: intent,
        contentType: APPLY_PATCH,
        idempotent: true,
      });
    },
    async delete(live) {
      // The preconditions make a second delivery fail rather than delete anything newer.
      await client.send({ method: 'DELETE', path: applicationPath(live.metadata), body: deleteOptions(live, dryRun), idempotent: true });
    },
    async startOperation(target, operation) {
      await client.send({
        method: 'PATCH',
        path: applicationPath(target),
        query: { fieldManager: FIELD_MANAGER, dryRun },
        body: { operation },
        contentType: MERGE_PATCH,
        // Setting the same operation twice starts one sync.
        idempotent: true,
      });
    },
  };
}
