import { isDeepStrictEqual } from 'node:util';
import type { Logger } from 'pino';
import { decisionChangeConcerns, decisionConfigMapsOf, decisionUpdateMatters, type WatchedDecisionObject } from '../controller/routing/decision-routing.js';
import { decisionResourceTypeOf, describeDecisionType, type DecisionResourceType } from '../generators/decision-resources.js';
import { createInformer, dropManagedFields, objectKey, type Informer, type KubeObject } from '../kube/informer/index.js';
import type { KubeTransport } from '../kube/transport/transport.js';
import { splitKey } from '../model/object-key.js';
import type { InformerScope } from './caches.js';
import { decisionCollectionPath } from './decision-resources.js';
import { DecisionReferences } from './decision-references.js';

/** What the watches of duck-typed resources are built from. */
export interface DecisionWatchParts {
  readonly transport: KubeTransport;
  readonly scope: InformerScope;
  readonly applicationSets: Informer<KubeObject>;
  readonly enqueue: (key: string) => void;
  readonly namespaceAllowed: (namespace: string) => boolean;
  readonly signal: AbortSignal;
  readonly log: Logger;
}

/** The running watches of clusterDecisionResource ConfigMaps and the duck-typed resources they name. */
export interface DecisionWatches {
  /** The resource types watched now (`placementdecisions.cluster.open-cluster-management.io/v1beta1`). */
  watched(): string[];
  /** Resolves once every watch started has stopped (after the signal aborted). */
  stopped(): Promise<void>;
}

interface DuckWatch {
  readonly type: DecisionResourceType;
  readonly abort: AbortController;
}

type ConfigMap = KubeObject & { data?: Record<string, string> };

/**
 * Watches what clusterDecisionResource generators read, so a changed decision reaches the Applications at once
 * rather than at the next requeue (Argo CD only polls). The ConfigMaps of the controller's namespace are watched
 * from the first ApplicationSet that names one; each resource type a referenced ConfigMap names gets a watch (in
 * the controller's namespace, or cluster-wide when tenants' namespaces are watched), stopped when no ConfigMap
 * in use names it any more. Events only enqueue the ApplicationSets that read the changed object.
 */
export function watchDecisionResources(parts: DecisionWatchParts): DecisionWatches {
  const watcher = new DecisionWatcher(parts);
  const appsetChanged = (appset: KubeObject, spec: unknown): void => watcher.appsetChanged(objectKey(appset), spec);
  parts.applicationSets.on('add', (appset) => appsetChanged(appset, (appset as { spec?: unknown }).spec));
  parts.applicationSets.on('update', (_old, appset) => appsetChanged(appset, (appset as { spec?: unknown }).spec));
  parts.applicationSets.on('delete', (appset) => appsetChanged(appset, undefined));
  return { watched: () => watcher.watched(), stopped: () => watcher.stopped() };
}

/** The state behind {@link watchDecisionResources}: the ConfigMaps in use, their watch and the resource watches. */
class DecisionWatcher {
  private readonly references = new DecisionReferences();
  private readonly watches = new Map<string, DuckWatch>();
  private readonly stopping: Array<Promise<void>> = [];
  private configMaps: Informer<ConfigMap> | undefined;

  constructor(private readonly parts: DecisionWatchParts) {}

  /** Records the ConfigMaps an ApplicationSet names now (none once deleted), and follows with the watches. */
  appsetChanged(key: string, spec: unknown): void {
    if (this.references.set(key, decisionConfigMapsOf(spec))) this.reconcileWatches();
  }

  watched(): string[] {
    return [...this.watches.keys()].sort();
  }

  async stopped(): Promise<void> {
    await Promise.all(this.stopping);
  }

  /** Starts and stops resource watches to match the ConfigMaps in use. */
  private reconcileWatches(): void {
    const inUse = this.references.configMaps();
    if (this.parts.signal.aborted || inUse.length === 0) {
      for (const id of [...this.watches.keys()]) this.stop(id);
      return;
    }
    this.configMaps ??= this.startConfigMaps();
    const wanted = new Map<string, DecisionResourceType>();
    for (const name of inUse) {
      const type = this.typeNamedBy(name);
      if (type) wanted.set(describeDecisionType(type), type);
    }
    for (const id of [...this.watches.keys()]) if (!wanted.has(id)) this.stop(id);
    for (const [id, type] of wanted) if (!this.watches.has(id)) this.start(id, type);
  }

  /** The resource type ConfigMap `name` names, when it exists and names one. */
  private typeNamedBy(name: string): DecisionResourceType | undefined {
    const configMap = this.configMaps?.store.getByName(this.parts.scope.namespace, name);
    return configMap ? decisionResourceTypeOf(configMap.data ?? {}) : undefined;
  }

  private informer<T extends KubeObject>(path: string, signal: AbortSignal): Informer<T> {
    const started = createInformer<T>({ transport: this.parts.transport, path, signal, log: this.parts.log, transform: dropManagedFields });
    this.stopping.push(started.stopped.catch(() => undefined));
    return started;
  }

  private stop(id: string): void {
    this.watches.get(id)?.abort.abort();
    this.watches.delete(id);
    this.parts.log.info({ resource: id }, 'clusterDecisionResource: stopped watching a resource no ConfigMap in use names');
  }

  private start(id: string, type: DecisionResourceType): void {
    const { scope, signal, log } = this.parts;
    const abort = new AbortController();
    const path = decisionCollectionPath(type, scope.clusterWide ? undefined : scope.namespace);
    const duck = this.informer<KubeObject>(path, AbortSignal.any([signal, abort.signal]));
    const changed = (old: WatchedDecisionObject | undefined, next: WatchedDecisionObject | undefined, object: KubeObject): void =>
      this.routeDecisionChange(id, old, next, object.metadata?.namespace ?? '');
    duck.on('add', (object) => changed(undefined, object, object));
    duck.on('update', (old, object) => {
      if (decisionUpdateMatters(old, object)) changed(old, object, object);
    });
    duck.on('delete', (object) => changed(object, undefined, object));
    this.watches.set(id, { type, abort });
    log.info({ resource: id, path }, 'clusterDecisionResource: watching a resource');
  }

  /** Enqueues the ApplicationSets of the object's namespace whose generators, through a ConfigMap naming this type, read it. */
  private routeDecisionChange(id: string, old: WatchedDecisionObject | undefined, next: WatchedDecisionObject | undefined, namespace: string): void {
    for (const name of this.references.configMaps()) {
      const type = this.typeNamedBy(name);
      if (!type || describeDecisionType(type) !== id) continue;
      for (const key of this.references.users(name)) {
        if (splitKey(key).namespace !== namespace) continue; // an ApplicationSet reads its own namespace only
        const appset = this.parts.applicationSets.store.get(key) as { spec?: unknown } | undefined;
        if (appset && decisionChangeConcerns(appset.spec, name, old, next)) this.enqueue(key);
      }
    }
  }

  /** The ConfigMaps of the controller's namespace: a change of one in use requeues its users and may move a watch. */
  private startConfigMaps(): Informer<ConfigMap> {
    const started = this.informer<ConfigMap>(`/api/v1/namespaces/${this.parts.scope.namespace}/configmaps`, this.parts.signal);
    const changed = (configMap: ConfigMap): void => {
      const users = this.references.users(configMap.metadata?.name ?? '');
      if (users.length === 0) return;
      for (const key of users) this.enqueue(key);
      this.reconcileWatches();
    };
    started.on('add', changed);
    started.on('update', (old, configMap) => {
      if (!isDeepStrictEqual(old.data ?? {}, configMap.data ?? {})) changed(configMap);
    });
    started.on('delete', changed);
    return started;
  }

  private enqueue(key: string): void {
    if (this.parts.namespaceAllowed(splitKey(key).namespace)) this.parts.enqueue(key);
  }
}
