import type { SyncPolicy } from '../../model/sync-policy.js';
import { SYNC_POLICIES } from '../../model/sync-policy.js';

/** The controller-wide policy settings that decide whose policy applies. */
export interface PolicySettings {
  policy: SyncPolicy;
  enablePolicyOverride: boolean;
}

/**
 * The policy in force for one ApplicationSet: its own `syncPolicy.applicationsSync` when overrides are
 * enabled and it names a known policy, else the controller's (Argo CD's rule).
 */
export function effectivePolicy(applicationsSync: unknown, settings: PolicySettings): SyncPolicy {
  if (settings.enablePolicyOverride && typeof applicationsSync === 'string' && (SYNC_POLICIES as readonly string[]).includes(applicationsSync)) {
    return applicationsSync as SyncPolicy;
  }
  return settings.policy;
}

/** True if the policy lets the controller change an existing Application. */
export function allowsUpdate(policy: SyncPolicy): boolean {
  return policy === 'sync' || policy === 'create-update';
}

/** True if the policy lets the controller delete an Application the generators no longer produce. */
export function allowsDelete(policy: SyncPolicy): boolean {
  return policy === 'sync' || policy === 'create-delete';
}
