import type { Rendered } from './helm.js';

/** One RBAC rule of a rendered Role or ClusterRole. */
interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  verbs?: string[];
  nonResourceURLs?: string[];
}

/**
 * Every single permission the rendered RBAC grants to `serviceAccount`, one string each:
 * `<namespace or *> <apiGroup>/<resource>[/<resourceName>] <verb>`. A Role counts only where a binding of
 * the account points at it, so an unbound Role grants nothing and a binding to a foreign role shows up.
 */
export function grantsOf(objects: readonly Rendered[], serviceAccount: { namespace: string; name: string }): string[] {
  const roles = new Map(
    objects.filter((o) => o.kind === 'Role' || o.kind === 'ClusterRole').map((o) => [`${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`, o]),
  );
  const grants = new Set<string>();
  for (const binding of objects.filter((o) => o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding')) {
    const { roleRef, subjects } = binding as unknown as {
      roleRef: { kind: string; name: string };
      subjects: Array<{ kind: string; name: string; namespace?: string }>;
    };
    if (!subjects.some((s) => s.kind === 'ServiceAccount' && s.name === serviceAccount.name && s.namespace === serviceAccount.namespace)) continue;
    if (subjects.length !== 1) throw new Error(`${binding.kind} ${binding.metadata.name} binds more subjects than the controller`);
    const roleNamespace = roleRef.kind === 'Role' ? (binding.metadata.namespace ?? '') : '';
    const role = roles.get(`${roleRef.kind}/${roleNamespace}/${roleRef.name}`);
    if (!role) throw new Error(`${binding.kind} ${binding.metadata.name} points at ${roleRef.kind} ${roleRef.name}, which the chart does not define`);
    const where = binding.kind === 'ClusterRoleBinding' ? '*' : (binding.metadata.namespace ?? '?');
    for (const rule of (role as unknown as { rules?: PolicyRule[] }).rules ?? []) {
      if (rule.nonResourceURLs) throw new Error(`${role.kind} ${role.metadata.name} grants non-resource URLs`);
      for (const group of rule.apiGroups ?? [])
        for (const resource of rule.resources ?? [])
          for (const verb of rule.verbs ?? []) {
            for (const name of rule.resourceNames ?? ['']) grants.add(`${where} ${group}/${resource}${name ? `/${name}` : ''} ${verb}`);
          }
    }
  }
  return [...grants].sort();
}

/** The grants the controller needs in one namespace where it watches and writes ApplicationSets. */
export function writeGrants(namespace: string): string[] {
  return [
    `${namespace} /events create`,
    `${namespace} /events patch`,
    `${namespace} argoproj.io/applications create`,
    `${namespace} argoproj.io/applications delete`,
    `${namespace} argoproj.io/applications patch`,
    `${namespace} argoproj.io/applicationsets patch`,
    `${namespace} argoproj.io/applicationsets/finalizers update`,
    `${namespace} argoproj.io/applicationsets/status patch`,
  ];
}

/** List and watch of ApplicationSets and Applications, in `namespace` or everywhere (`*`). */
export function watchGrants(namespace: string): string[] {
  return [
    `${namespace} argoproj.io/applications list`,
    `${namespace} argoproj.io/applications watch`,
    `${namespace} argoproj.io/applicationsets list`,
    `${namespace} argoproj.io/applicationsets watch`,
  ];
}

/** What the controller reads in its own namespace: Argo CD's Secrets, the known hosts ConfigMap, `caRef` and plugin ConfigMaps, plugin token Secrets, AppProjects. */
export function configGrants(namespace: string): string[] {
  return [
    `${namespace} /configmaps get`,
    `${namespace} /configmaps/argocd-ssh-known-hosts-cm list`,
    `${namespace} /configmaps/argocd-ssh-known-hosts-cm watch`,
    `${namespace} /secrets get`,
    `${namespace} /secrets list`,
    `${namespace} /secrets watch`,
    `${namespace} argoproj.io/appprojects list`,
    `${namespace} argoproj.io/appprojects watch`,
  ];
}

/** With `rbac.clusterDecisionResources` (all-on values: placementdecisions): the resource where ApplicationSets are watched, and the controller namespace's ConfigMaps. */
export function decisionGrants(controllerNamespace: string, watched: string): string[] {
  return [
    `${controllerNamespace} /configmaps list`,
    `${controllerNamespace} /configmaps watch`,
    `${watched} cluster.open-cluster-management.io/placementdecisions list`,
    `${watched} cluster.open-cluster-management.io/placementdecisions watch`,
  ];
}
