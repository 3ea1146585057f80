import type { KubeObject } from '../kube/informer/index.js';
import { objectKey } from '../kube/informer/index.js';
import { applicationSetUpdateNeedsReconcile, applicationUpdateNeedsReconcile, type Watched } from './triggers.js';
import { SECRET_TYPE_LABEL, type ControllerInformers } from './informers.js';

/** Wires watch events to ApplicationSet keys; handlers only map objects to keys and enqueue, never reconcile. */
export interface EventRouting {
  readonly enqueue: (key: string) => void;
  /** True if ApplicationSets of this namespace are this controller's to reconcile. */
  readonly namespaceAllowed: (namespace: string) => boolean;
}

/** The key of the ApplicationSet that controls `app`, if any. */
function ownerKey(app: KubeObject): string | undefined {
  const refs = (app.metadata?.ownerReferences ?? []) as Array<{ kind?: string; name?: string; controller?: boolean }>;
  const owner = refs.find((ref) => ref.controller === true && ref.kind === 'ApplicationSet');
  return owner?.name && app.metadata?.namespace ? `${app.metadata.namespace}/${owner.name}` : undefined;
}

/** True if any generator of the spec (also nested in matrix and merge) is a clusters generator. */
export function usesClusterGenerator(spec: unknown, depth = 0): boolean {
  const generators = (spec as { generators?: unknown } | undefined)?.generators;
  if (!Array.isArray(generators) || depth > 2) return false;
  return generators.some((g: Record<string, unknown>) => g?.clusters !== undefined || usesClusterGenerator(g?.matrix, depth + 1) || usesClusterGenerator(g?.merge, depth + 1));
}

/** Registers the handlers that turn cache changes into queue adds. */
export function routeEvents(informers: ControllerInformers, routing: EventRouting): void {
  const addAppSet = (appset: KubeObject): void => {
    if (routing.namespaceAllowed(appset.metadata?.namespace ?? '')) routing.enqueue(objectKey(appset));
  };
  informers.applicationSets.on('add', addAppSet);
  informers.applicationSets.on('update', (old, appset) => {
    if (old === appset || applicationSetUpdateNeedsReconcile(old as unknown as Watched, appset as unknown as Watched)) addAppSet(appset);
  });
  // A created Application is the controller's own doing; a changed or deleted one may need reverting.
  const addOwner = (app: KubeObject): void => {
    const key = ownerKey(app);
    if (key && routing.namespaceAllowed(app.metadata?.namespace ?? '')) routing.enqueue(key);
  };
  informers.applications.on('update', (old, app) => {
    if (applicationUpdateNeedsReconcile(old as unknown as Watched, app as unknown as Watched)) addOwner(app);
  });
  informers.applications.on('delete', addOwner);
  const clusterChanged = (secret: KubeObject): void => {
    if (secret.metadata?.labels?.[SECRET_TYPE_LABEL] !== 'cluster') return;
    for (const appset of informers.applicationSets.store.list()) if (usesClusterGenerator((appset as { spec?: unknown }).spec)) addAppSet(appset);
  };
  const secrets = informers.secrets;
  secrets.on('add', clusterChanged);
  secrets.on('update', (_old, secret) => clusterChanged(secret));
  secrets.on('delete', clusterChanged);
}
