/** Argo CD's `applicationsSync` policies: which of create, update and delete the controller may do. */
export const SYNC_POLICIES = ['sync', 'create-only', 'create-update', 'create-delete'] as const;

/** One of {@link SYNC_POLICIES}. */
export type SyncPolicy = (typeof SYNC_POLICIES)[number];
