import { deepFreeze, keyOf, objectKey, type Frozen, type KubeObject } from './kube-object.js';

/** Maps an object to the values it is filed under in one index (none, one or several). */
export type IndexFunction<T extends KubeObject> = (object: Frozen<T>) => readonly string[];

/** The built-in index every store keeps: objects by `metadata.namespace` ('' for cluster-scoped ones). */
export const NAMESPACE_INDEX = 'namespace';

/** What readers of the cache may do; only the reflector writes. Every object handed out is deeply frozen. */
export interface ReadonlyStore<T extends KubeObject> {
  /** The object with cache key `key` (`namespace/name`, or `name` when cluster-scoped). */
  get(key: string): Frozen<T> | undefined;
  /** The object `name` in `namespace`. */
  getByName(namespace: string | undefined, name: string): Frozen<T> | undefined;
  /** Every cached object, in no particular order. */
  list(): Frozen<T>[];
  /** The objects of `namespace`. */
  listByNamespace(namespace: string): Frozen<T>[];
  /** The objects filed under `value` in the index `indexName`; throws for an index that was not configured. */
  byIndex(indexName: string, value: string): Frozen<T>[];
  /** Every cache key. */
  keys(): string[];
  /** How many objects are cached. */
  readonly size: number;
}

/** A change the store made, for the informer to turn into an event. */
export type StoreChange<T extends KubeObject> =
  | { type: 'add'; object: Frozen<T> }
  | { type: 'update'; old: Frozen<T>; object: Frozen<T> }
  | { type: 'delete'; object: Frozen<T> };

/** The indexed cache behind an informer. Writes return the change they made so events follow the store exactly. */
export class Store<T extends KubeObject> implements ReadonlyStore<T> {
  private readonly objects = new Map<string, Frozen<T>>();
  private readonly indexers: Map<string, IndexFunction<T>>;
  /** index name -> index value -> keys filed under it */
  private readonly indexes = new Map<string, Map<string, Set<string>>>();

  constructor(indexers: Record<string, IndexFunction<T>> = {}) {
    if (NAMESPACE_INDEX in indexers) throw new Error(`index name "${NAMESPACE_INDEX}" is built in; choose another name`);
    this.indexers = new Map(Object.entries(indexers));
    this.indexers.set(NAMESPACE_INDEX, (object) => [object.metadata?.namespace ?? '']);
    for (const name of this.indexers.keys()) this.indexes.set(name, new Map());
  }

  get size(): number {
    return this.objects.size;
  }

  get(key: string): Frozen<T> | undefined {
    return this.objects.get(key);
  }

  getByName(namespace: string | undefined, name: string): Frozen<T> | undefined {
    return this.objects.get(keyOf(namespace, name));
  }

  list(): Frozen<T>[] {
    return [...this.objects.values()];
  }

  listByNamespace(namespace: string): Frozen<T>[] {
    return this.byIndex(NAMESPACE_INDEX, namespace);
  }

  byIndex(indexName: string, value: string): Frozen<T>[] {
    const index = this.indexes.get(indexName);
    if (!index) throw new Error(`no index named "${indexName}"; configured: ${[...this.indexes.keys()].join(', ')}`);
    const keys = index.get(value);
    if (!keys) return [];
    return [...keys].map((key) => this.objects.get(key)).filter((o): o is Frozen<T> => o !== undefined);
  }

  keys(): string[] {
    return [...this.objects.keys()];
  }

  /** Adds or replaces an object (freezing it); returns the add or update it made. */
  upsert(object: T): StoreChange<T> {
    const frozen = deepFreeze(object);
    const key = objectKey(object);
    const old = this.objects.get(key);
    if (old) this.unindex(key, old);
    this.objects.set(key, frozen);
    this.index(key, frozen);
    return old ? { type: 'update', old, object: frozen } : { type: 'add', object: frozen };
  }

  /** Removes an object; returns the delete it made, carrying the server's final state when given. */
  remove(object: T): StoreChange<T> | undefined {
    const key = objectKey(object);
    const old = this.objects.get(key);
    if (!old) return undefined;
    this.unindex(key, old);
    this.objects.delete(key);
    return { type: 'delete', object: deepFreeze(object) };
  }

  /**
   * Replaces the whole content with a fresh list. Objects gone from the list come back as deletes
   * (tombstones, so a deletion missed while disconnected is still seen); objects whose resourceVersion
   * did not change produce no change.
   */
  replace(items: readonly T[]): StoreChange<T>[] {
    const changes: StoreChange<T>[] = [];
    const seen = new Set<string>();
    for (const item of items) {
      const key = objectKey(item);
      seen.add(key);
      const old = this.objects.get(key);
      if (old && old.metadata?.resourceVersion === item.metadata?.resourceVersion) continue;
      changes.push(this.upsert(item));
    }
    for (const [key, old] of [...this.objects]) {
      if (seen.has(key)) continue;
      this.unindex(key, old);
      this.objects.delete(key);
      changes.push({ type: 'delete', object: old });
    }
    return changes;
  }

  private index(key: string, object: Frozen<T>): void {
    for (const [name, indexFunction] of this.indexers) {
      const index = this.indexes.get(name);
      if (!index) continue;
      for (const value of indexFunction(object)) {
        const keys = index.get(value) ?? new Set<string>();
        index.set(value, keys);
        keys.add(key);
      }
    }
  }

  private unindex(key: string, object: Frozen<T>): void {
    for (const [name, indexFunction] of this.indexers) {
      const index = this.indexes.get(name);
      for (const value of indexFunction(object)) {
        const keys = index?.get(value);
        keys?.delete(key);
        if (keys?.size === 0) index?.delete(value);
      }
    }
  }
}
