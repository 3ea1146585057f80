import { TenancyViolation } from './tenant-policy.js';

/** Application quotas of tenant namespaces; 0 means no limit. */
export interface ApplicationQuotas {
  /** Most Applications one ApplicationSet may own (`--max-applications-per-applicationset`). */
  readonly perApplicationSet: number;
  /** Most Applications a namespace may hold, whoever owns them (`--max-applications-per-namespace`). */
  readonly perNamespace: number;
}

/** No limits. */
export const NO_QUOTAS: ApplicationQuotas = Object.freeze({ perApplicationSet: 0, perNamespace: 0 });

/** What a reconcile is about to make true, for the quota check. */
export interface QuotaRequest {
  readonly namespace: string;
  /** Applications the ApplicationSet wants to own after this reconcile. */
  readonly desired: number;
  /** Applications in the namespace that this ApplicationSet does not own (other ApplicationSets', hand-made ones). */
  readonly othersInNamespace: number;
}

/**
 * Refuses, as a whole, a reconcile that would leave the ApplicationSet or its namespace over quota:
 * nothing is created, updated or deleted, so a tenant never ends up with a random subset. Throws a
 * TenancyViolation naming the rule, the count and the limit.
 */
export function checkApplicationQuotas(quotas: ApplicationQuotas, request: QuotaRequest): void {
  const { perApplicationSet, perNamespace } = quotas;
  if (perApplicationSet > 0 && request.desired > perApplicationSet) {
    throw new TenancyViolation(
      `quota exceeded: the generators produce ${request.desired} Applications, over the limit of ${perApplicationSet} per ApplicationSet (--max-applications-per-applicationset); nothing was changed`,
    );
  }
  const total = request.desired + request.othersInNamespace;
  if (perNamespace > 0 && total > perNamespace) {
    throw new TenancyViolation(
      `quota exceeded: namespace ${request.namespace} would hold ${total} Applications (${request.othersInNamespace} not owned by this ApplicationSet), over the limit of ${perNamespace} per namespace (--max-applications-per-namespace); nothing was changed`,
    );
  }
}
