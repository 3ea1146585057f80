import type { V1ConfigMap } from '@kubernetes/client-node';
import type { DecisionObject, DecisionResourceAccess, DecisionResourceType } from '../generators/decision-resources.js';
import { matchesSelector } from '../generators/label-selector.js';

/** A document of the `--clusters` file that is neither a Secret nor a ConfigMap: a duck-typed object. */
export interface FileObject extends DecisionObject {
  readonly apiVersion?: string;
  readonly kind?: string;
}

/**
 * The duck-typed resource access of `appset render`: ConfigMaps and objects from the `--clusters` file (namespace
 * `controllerNamespace` when a document names none), so a clusterDecisionResource generator reads there what the
 * controller would read from the API server.
 */
export function renderDecisionResources(configMaps: readonly V1ConfigMap[], objects: readonly FileObject[], controllerNamespace: string) {
  const namespaceOf = (o: { metadata?: { namespace?: string } }): string => o.metadata?.namespace ?? controllerNamespace;
  return (namespace: string): DecisionResourceAccess => ({
    namespace,
    configMapData: (name) => {
      const configMap = configMaps.find((c) => c.metadata?.name === name && namespaceOf(c) === controllerNamespace);
      return Promise.resolve(configMap ? (configMap.data ?? {}) : undefined);
    },
    list: (type, selection) => {
      const found = objects
        .filter((o) => namespaceOf(o) === namespace && isOfType(o, type))
        .filter((o) => ('name' in selection ? o.metadata?.name === selection.name : matchesSelector(selection.labelSelector, o.metadata?.labels ?? {})));
      // The API server's order: by name.
      return Promise.resolve([...found].sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '')));
    },
  });
}

/** Whether a document is of the resource type: same group/version, and its kind is the resource's (the plural guessed as Kubernetes guesses it). */
function isOfType(object: FileObject, type: DecisionResourceType): boolean {
  if (object.apiVersion !== `${type.group}/${type.version}` || !object.kind) return false;
  const kind = object.kind.toLowerCase();
  return type.resource === kind || type.resource === pluralOf(kind);
}

/** client-go's guess of a resource from its kind (`PlacementDecision` → `placementdecisions`, `Policy` → `policies`). */
function pluralOf(kind: string): string {
  if (kind.endsWith('s')) return `${kind}es`;
  if (kind.endsWith('y') && !/[aeiou]y$/.test(kind)) return `${kind.slice(0, -1)}ies`;
  return `${kind}s`;
}
