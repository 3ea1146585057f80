import { deepFreeze } from './freeze.js';
import { objectKey, type Frozen, type KubeObject } from './kube-object.js';

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
  { type: 'add'; object: Frozen<T> } | { type: 'update'; old: Frozen<T>; object: Frozen<T> } | { type: 'delete'; object: Frozen<T> };

/**
 * The indexed cache behind an informer. Writes return the change they made so events follow the store exactly.
 * Objects live in a map per namespace, keyed by the name string the object already holds, and custom indexes
 * hold object references: no per-object key strings, which keeps the cache at the size of the objects.
 */
export class Store<T extends KubeObject> implements ReadonlyStore<T> {
  /** namespace ('' when cluster-scoped) -> name -> object */
  private readonly namespaces = new Map<string, Map<string, Frozen<T>>>();
  private readonly indexers: Map<string, IndexFunction<T>>;
  /** index name -> index value -> objects filed under it */
  private readonly indexes = new Map<string, Map<string, Set<Frozen<T>>>>();
  private count = 0;

  constructor(indexers: Record<string, IndexFunction<T>> = {}) {
    if (NAMESPACE_INDEX in indexers) throw new Error(`index name "${NAMESPACE_INDEX}" is built in; choose another name`);
    this.indexers = new Map(Object.entries(indexers));
    for (const name of this.indexers.keys()) this.indexes.set(name, new Map());
  }

  get size(): number {
    return this.count;
  }

  get(key: string): Frozen<T> | undefined {
    const slash = key.indexOf('/');
    return slash < 0 ? this.getByName('', key) : this.getByName(key.slice(0, slash), key.slice(slash + 1));
  }

  getByName(namespace: string | undefined, name: string): Frozen<T> | undefined {
    return this.namespaces.get(namespace ?? '')?.get(name);
  }

  list(): Frozen<T>[] {
    const all: Frozen<T>[] = [];
    for (const objects of this.namespaces.values()) for (const object of objects.values()) all.push(object);
    return all;
  }

  listByNamespace(namespace: string): Frozen<T>[] {
    return [...(this.namespaces.get(namespace)?.values() ?? [])];
  }

  byIndex(indexName: string, value: string): Frozen<T>[] {
    if (indexName === NAMESPACE_INDEX) return this.listByNamespace(value);
    const index = this.indexes.get(indexName);
    if (!index) throw new Error(`no index named "${indexName}"; configured: ${[NAMESPACE_INDEX, ...this.indexes.keys()].join(', ')}`);
    return [...(index.get(value) ?? [])];
  }

  keys(): string[] {
    return this.list().map(objectKey);
  }

  /** Adds or replaces an object (freezing it); returns the add or update it made. */
  upsert(object: T): StoreChange<T> {
    const name = nameOf(object);
    const namespace = object.metadata?.namespace ?? '';
    const frozen = deepFreeze(object);
    const objects = this.namespaces.get(namespace) ?? new Map<string, Frozen<T>>();
    this.namespaces.set(namespace, objects);
    const old = objects.get(name);
    if (old) this.unindex(old);
    else this.count++;
    objects.set(name, frozen);
    this.index(frozen);
    return old ? { type: 'update', old, object: frozen } : { type: 'add', object: frozen };
  }

  /** Removes an object; returns the delete it made, carrying the server's final state. */
  remove(object: T): StoreChange<T> | undefined {
    const old = this.delete(object.metadata?.namespace ?? '', nameOf(object));
    return old ? { type: 'delete', object: deepFreeze(object) } : undefined;
  }

  /**
   * Replaces the whole content with a fresh list. Objects gone from the list come back as deletes
   * (tombstones, so a deletion missed while disconnected is still seen); objects whose resourceVersion
   * did not change produce no change.
   */
  replace(items: readonly T[]): StoreChange<T>[] {
    const changes: StoreChange<T>[] = [];
    // The first list (and a relist into an empty cache) can only add: skip the bookkeeping for deletes.
    if (this.count === 0) {
      for (const item of items) changes.push(this.upsert(item));
      return changes;
    }
    const current = new Set<Frozen<T>>();
    for (const item of items) {
      const old = this.getByName(item.metadata?.namespace, nameOf(item));
      if (old && old.metadata?.resourceVersion === item.metadata?.resourceVersion) {
        current.add(old);
        continue;
      }
      const change = this.upsert(item);
      current.add(change.object);
      changes.push(change);
    }
    for (const old of this.list()) {
      if (current.has(old)) continue;
      this.delete(old.metadata?.namespace ?? '', nameOf(old));
      changes.push({ type: 'delete', object: old });
    }
    return changes;
  }

  private delete(namespace: string, name: string): Frozen<T> | undefined {
    const objects = this.namespaces.get(namespace);
    const old = objects?.get(name);
    if (!objects || !old) return undefined;
    this.unindex(old);
    objects.delete(name);
    if (objects.size === 0) this.namespaces.delete(namespace);
    this.count--;
    return old;
  }

  private index(object: Frozen<T>): void {
    for (const [name, indexFunction] of this.indexers) {
      const index = this.indexes.get(name);
      if (!index) continue;
      for (const value of indexFunction(object)) {
        const objects = index.get(value) ?? new Set<Frozen<T>>();
        index.set(value, objects);
        objects.add(object);
      }
    }
  }

  private unindex(object: Frozen<T>): void {
    for (const [name, indexFunction] of this.indexers) {
      const index = this.indexes.get(name);
      for (const value of indexFunction(object)) {
        const objects = index?.get(value);
        objects?.delete(object);
        if (objects?.size === 0) index?.delete(value);
      }
    }
  }
}

function nameOf(object: KubeObject): string {
  const name = object.metadata?.name;
  if (!name) throw new Error(`object without metadata.name cannot be cached: ${JSON.stringify(object).slice(0, 200)}`);
  return name;
}
