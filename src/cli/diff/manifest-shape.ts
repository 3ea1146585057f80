import { installedCrdValidator } from '../../kube/crd-schema/installed.js';

/**
 * What the API server would refuse in a manifest of a kind whose CRD this project installs (ApplicationSet,
 * AppProject, Application), as it answers a create with strict field validation (`kubectl apply`'s default):
 * each problem worded as the API server words it (`spec.generators: Required value`, `unknown field "spec.foo"`).
 * Empty when it would accept it. The controller never sees a manifest the API server refuses.
 */
export function manifestProblems(manifest: unknown, kind = 'ApplicationSet'): string[] {
  return [...(installedCrdValidator(kind)?.check(manifest).problems ?? [])];
}
