import type { ApplicationSetForRender } from '../../model/applicationset-types.js';
import { TerminalError } from '../../model/action.js';
import type { IgnoreDifferencesRule, LiveFieldRules, PreservedFields } from '../plan/apply-intent.js';
import type { Condition } from '../status/conditions.js';
import type { ApplicationSetIdentity, ObjectMeta } from '../../model/objects.js';
import type { ResourceStatus } from '../status/resource-status.js';
import type { ApplicationRolloutStatus } from '../rollout/application-status.js';

/** An ApplicationSet as the cache holds it (the fields the reconciler reads). */
export interface ApplicationSetObject {
  readonly apiVersion: string;
  readonly kind: 'ApplicationSet';
  readonly metadata: ObjectMeta & { readonly uid: string; readonly namespace: string; readonly resourceVersion: string };
  readonly spec: ApplicationSetForRender['spec'] & {
    readonly syncPolicy?: { readonly applicationsSync?: string; readonly preserveResourcesOnDeletion?: boolean };
    readonly preservedFields?: PreservedFields;
    readonly ignoreApplicationDifferences?: readonly IgnoreDifferencesRule[];
    /** `AllAtOnce` (the default) or `RollingSync` with its steps; read by src/controller/rollout/rolling-sync.ts. */
    readonly strategy?: unknown;
  };
  readonly status?: {
    readonly conditions?: readonly Condition[];
    readonly resources?: readonly ResourceStatus[];
    readonly resourcesCount?: number;
    readonly applicationStatus?: readonly ApplicationRolloutStatus[];
  };
}

/** Annotation with which an ApplicationSet opts out of the deletion guard. */
export const ALLOW_MASS_DELETION_ANNOTATION = 'appset-controller.io/allow-mass-deletion';

/** Name, namespace and UID: what owner references and Events need. */
export function identityOf(appset: ApplicationSetObject): ApplicationSetIdentity {
  return { name: appset.metadata.name, namespace: appset.metadata.namespace, uid: appset.metadata.uid };
}

/**
 * The fields of live Applications this ApplicationSet leaves to others. `jqPathExpressions` are refused
 * rather than ignored (no jq implementation here is sound enough to trust with what gets overwritten).
 */
export function liveFieldRulesOf(appset: ApplicationSetObject): LiveFieldRules {
  const jq = (appset.spec.ignoreApplicationDifferences ?? []).findIndex((rule) => (rule.jqPathExpressions ?? []).length > 0);
  if (jq >= 0) throw new TerminalError(`spec.ignoreApplicationDifferences[${jq}].jqPathExpressions is not supported; use jsonPointers`);
  return {
    ...(appset.spec.preservedFields ? { preservedFields: appset.spec.preservedFields } : {}),
    ...(appset.spec.ignoreApplicationDifferences ? { ignoreDifferences: appset.spec.ignoreApplicationDifferences } : {}),
  };
}

/** True if the ApplicationSet opted out of the deletion guard. */
export function allowsMassDeletion(appset: ApplicationSetObject): boolean {
  return appset.metadata.annotations?.[ALLOW_MASS_DELETION_ANNOTATION] === 'true';
}
