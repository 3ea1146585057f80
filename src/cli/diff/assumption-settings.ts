import { controllerSettings } from '../../config/controller-settings.js';
import { readSettings, type CommandValues } from '../../config/option-table.js';
import type { ControllerAssumptions } from './preview-deps.js';

/**
 * The controller settings that decide a preview's verdict, with the controller's own flags, environment
 * variables, parsing and defaults, so `appset diff --max-delete-share 0.2` means what the controller's flag means.
 */
export const assumptionSettings = {
  // Offline there is no pod: the default is Argo CD's namespace, as for `appset render`.
  namespace: {
    ...controllerSettings.namespace,
    help: "the controller's own namespace: ApplicationSets there are the platform's, all others tenants' (default: argocd)",
  },
  policy: controllerSettings.policy,
  enablePolicyOverride: controllerSettings.enablePolicyOverride,
  maxDeleteShare: controllerSettings.maxDeleteShare,
  enableProgressiveSyncs: controllerSettings.enableProgressiveSyncs,
  maxApplicationsPerApplicationSet: controllerSettings.maxApplicationsPerApplicationSet,
  maxApplicationsPerNamespace: controllerSettings.maxApplicationsPerNamespace,
};

/** The controller a preview assumes, from the flags and environment (Argo CD's namespace `argocd` unless given); throws a ConfigError. */
export function readAssumptions(flags: CommandValues, env: NodeJS.ProcessEnv): ControllerAssumptions {
  const values = readSettings(assumptionSettings, flags, env);
  return {
    controllerNamespace: values.namespace ?? 'argocd',
    policy: values.policy ?? 'sync',
    // As the controller: ApplicationSets may override the policy by default only while no --policy is given.
    enablePolicyOverride: values.enablePolicyOverride ?? values.policy === undefined,
    maxDeleteShare: values.maxDeleteShare,
    progressiveSyncs: values.enableProgressiveSyncs,
    quotas: { perApplicationSet: values.maxApplicationsPerApplicationSet, perNamespace: values.maxApplicationsPerNamespace },
  };
}
