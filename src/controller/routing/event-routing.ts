import type { KubeObject } from '../../kube/informer/index.js';
import { objectKey } from '../../kube/informer/index.js';
import { applicationSetUpdateNeedsReconcile, applicationUpdateNeedsReconcile, type Watched } from './triggers.js';
import { SECRET_TYPE_LABEL } from '../../model/secrets.js';
import type { ControllerInformers } from './caches.js';
import { clusterChangeConcerns, type SecretLabels } from './cluster-routing.js';
import type { CacheName, Cause } from '../consistency/watermarks.js';
import { controllingApplicationSet, type Application } from '../../model/objects.js';
import { splitKey } from '../../model/object-key.js';
import { clusterIdentity, destinationConcerns, projectChangeConcerns, projectUpdateMatters, refusedByValidation, sameIdentity } from './validation-routing.js';

/** Wires watch events to ApplicationSet keys; handlers only map objects to keys and enqueue, never reconcile. */
export interface EventRouting {
  /** Enqueues `key` because of `cause`, the watch event (cache and resourceVersion) that concerns it. */
  readonly enqueue: (key: string, cause?: Cause) => void;
  /** True if ApplicationSets of this namespace are this controller's to reconcile. */
  readonly namespaceAllowed: (namespace: string) => boolean;
  /** `--enable-progressive-syncs`: Application health and sync changes, and rollout status changes, move rollouts on. */
  readonly progressiveSyncs?: boolean;
}

/** The key of the ApplicationSet that controls `app`, if any. */
function ownerKey(app: KubeObject): string | undefined {
  const owner = controllingApplicationSet(app as Pick<Application, 'metadata'>);
  return owner?.name && app.metadata?.namespace ? `${app.metadata.namespace}/${owner.name}` : undefined;
}

/** The cause an event of `object` in `cache` gives, when it has a resourceVersion. */
function causeOf(cache: CacheName, object: KubeObject): Cause | undefined {
  const resourceVersion = object.metadata?.resourceVersion;
  return resourceVersion ? { cache, resourceVersion } : undefined;
}

/** The labels of a cluster Secret; undefined for any other Secret (or none). */
function clusterLabels(secret: KubeObject | undefined): SecretLabels {
  const labels = secret?.metadata?.labels;
  return labels?.[SECRET_TYPE_LABEL] === 'cluster' ? labels : undefined;
}

/** Registers the handlers that turn cache changes into queue adds. */
export function routeEvents(informers: ControllerInformers, routing: EventRouting): void {
  const addAppSet = (appset: KubeObject, cause: Cause | undefined): void => {
    if (routing.namespaceAllowed(appset.metadata?.namespace ?? '')) routing.enqueue(objectKey(appset), cause);
  };
  informers.applicationSets.on('add', (appset) => addAppSet(appset, causeOf('applicationSets', appset)));
  informers.applicationSets.on('update', (old, appset) => {
    if (old === appset || applicationSetUpdateNeedsReconcile(old as unknown as Watched, appset as unknown as Watched, routing.progressiveSyncs))
      addAppSet(appset, causeOf('applicationSets', appset));
  });
  // A created Application is the controller's own doing; a changed or deleted one may need reverting.
  const addOwner = (app: KubeObject): void => {
    const key = ownerKey(app);
    if (key && routing.namespaceAllowed(app.metadata?.namespace ?? '')) routing.enqueue(key, causeOf('applications', app));
  };
  informers.applications.on('update', (old, app) => {
    if (applicationUpdateNeedsReconcile(old as unknown as Watched, app as unknown as Watched, routing.progressiveSyncs)) addOwner(app);
  });
  informers.applications.on('delete', addOwner);
  routeClusterSecrets(informers, routing);
  routeProjects(informers, addAppSet);
}

/**
 * Cluster Secret changes concern the ApplicationSets whose clusters generator selects the Secret before or after
 * the change, and, when the change alters which server or name the Secret answers to, those whose generated
 * Applications it can make valid (the ones refused for their Applications) or invalid (the owners of
 * Applications deployed to it).
 */
function routeClusterSecrets(informers: ControllerInformers, routing: EventRouting): void {
  const clusterChanged = (old: KubeObject | undefined, next: KubeObject | undefined, secret: KubeObject): void => {
    const before = clusterLabels(old);
    const after = clusterLabels(next);
    if (!before && !after) return;
    const cause = causeOf('secrets', secret);
    const appsets = informers.applicationSets.store.list();
    const keys = new Set(appsets.filter((appset) => clusterChangeConcerns((appset as { spec?: unknown }).spec, before, after)).map(objectKey));
    const identities = [clusterIdentity(old), clusterIdentity(next)] as const;
    if (!sameIdentity(...identities)) {
      for (const appset of appsets) if (refusedByValidation(appset)) keys.add(objectKey(appset));
      for (const app of informers.applications.store.list()) if (destinationConcerns(app, identities)) keys.add(ownerKey(app) ?? '');
    }
    keys.delete('');
    for (const key of keys) if (routing.namespaceAllowed(splitKey(key).namespace)) routing.enqueue(key, cause);
  };
  const secrets = informers.secrets;
  secrets.on('add', (secret) => clusterChanged(undefined, secret, secret));
  secrets.on('update', (old, secret) => clusterChanged(old, secret, secret));
  secrets.on('delete', (secret) => clusterChanged(secret, undefined, secret));
}

/** AppProject changes: the ApplicationSets whose templates name the project (or template it) are checked against it. */
function routeProjects(informers: ControllerInformers, addAppSet: (appset: KubeObject, cause: Cause | undefined) => void): void {
  const projectChanged = (project: KubeObject): void => {
    const name = project.metadata?.name ?? '';
    const cause = causeOf('projects', project);
    for (const appset of informers.applicationSets.store.list()) if (projectChangeConcerns((appset as { spec?: unknown }).spec, name)) addAppSet(appset, cause);
  };
  informers.projects.on('add', projectChanged);
  informers.projects.on('update', (old, project) => {
    if (projectUpdateMatters(old, project)) projectChanged(project);
  });
  informers.projects.on('delete', projectChanged);
}
