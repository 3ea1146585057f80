import type { Application } from '../../model/objects.js';

/** The `operation` Argo CD's ApplicationSet controller writes to start a sync, as its Go structs serialize it. */
export interface SyncOperation {
  readonly sync: { readonly prune?: true; readonly syncOptions?: readonly unknown[] };
  readonly initiatedBy: { readonly username: 'applicationset-controller'; readonly automated: true };
  readonly info: ReadonlyArray<{ readonly name: 'Reason'; readonly value: string }>;
  readonly retry: unknown;
}

/** Argo CD's reason text on a RollingSync-triggered operation. */
export const ROLLING_SYNC_REASON = 'ApplicationSet RollingSync triggered a sync of this Application resource';

type SyncPolicySpec = { automated?: { prune?: boolean; enabled?: boolean } | null; retry?: unknown; syncOptions?: readonly unknown[] } | undefined;

/**
 * The Application without automated sync, and whether its automated block asked for pruning: under RollingSync
 * the controller, not Argo CD's auto-sync, decides when an Application syncs. An automated block with
 * `enabled: false` is not automated sync and stays, as in Argo CD.
 */
export function withoutAutoSync(app: Application): { app: Application; prune: boolean } {
  const policy = app.spec.syncPolicy as SyncPolicySpec;
  const automated = policy?.automated;
  if (!policy || !automated || automated.enabled === false) return { app, prune: false };
  const rest: Record<string, unknown> = { ...policy };
  delete rest.automated;
  return { app: { ...app, spec: { ...app.spec, syncPolicy: rest } }, prune: automated.prune === true };
}

/**
 * The operation that starts a sync of `app` (already without automated sync): the Application's own retry
 * strategy and sync options when it has them, Argo CD's retry limit of 5 otherwise, and pruning when its
 * automated block had asked for it.
 */
export function syncOperation(app: Application, prune: boolean): SyncOperation {
  const policy = app.spec.syncPolicy as SyncPolicySpec;
  return {
    sync: { ...(policy && prune ? { prune: true as const } : {}), ...(policy?.syncOptions ? { syncOptions: policy.syncOptions } : {}) },
    initiatedBy: { username: 'applicationset-controller', automated: true },
    info: [{ name: 'Reason', value: ROLLING_SYNC_REASON }],
    retry: policy?.retry ?? { limit: 5 },
  };
}
