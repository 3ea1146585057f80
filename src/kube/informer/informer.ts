import type { KubeTransport } from '../transport/transport.js';
import { pino, type Logger } from 'pino';
import { objectKey, type Frozen, type KubeObject } from './kube-object.js';
import { Reflector, type ReflectorStats, type ReflectorTuning } from './reflector.js';
import { Store, type IndexFunction, type ReadonlyStore, type StoreChange } from './store.js';

/** Settings of {@link createInformer}. */
export interface InformerOptions<T extends KubeObject> extends ReflectorTuning {
  /** The replica's one way to the API server (lists and watches are streams on it). */
  transport: KubeTransport;
  /** Collection path, e.g. `/api/v1/namespaces/team-a/secrets` or `/apis/argoproj.io/v1alpha1/applications`. */
  path: string;
  /** Applied to list and watch alike, e.g. `argocd.argoproj.io/secret-type=cluster`. */
  labelSelector?: string;
  /** Applied to list and watch alike, e.g. `metadata.name!=skip`. */
  fieldSelector?: string;
  /** Applied to every object before it is cached and handed out, e.g. `dropManagedFields` to save memory. */
  transform?: (object: T) => T;
  /** Extra indexes by name; the `namespace` index is always there. */
  indexers?: Record<string, IndexFunction<T>>;
  /** Replays the whole cache as updates this often, without any API call; 0 or absent: never. */
  resyncMs?: number;
  /** Stops the informer for good; nothing else does. */
  signal: AbortSignal;
  log?: Logger;
}

/** Handlers by event name. `old` and `object` are frozen; a resync delivers the same object twice. */
export interface InformerHandlers<T extends KubeObject> {
  add: (object: Frozen<T>) => void;
  update: (old: Frozen<T>, object: Frozen<T>) => void;
  delete: (object: Frozen<T>) => void;
}

/** An informer's state for `/readyz` and metrics. */
export interface InformerHealth extends ReflectorStats {
  path: string;
  objects: number;
}

/** A running list+watch of one collection: a read-only indexed cache plus change events. */
export interface Informer<T extends KubeObject> {
  readonly store: ReadonlyStore<T>;
  /** Registers a handler; returns a function that removes it. Register before the first list completes to see every add. */
  on<E extends keyof InformerHandlers<T>>(event: E, handler: InformerHandlers<T>[E]): () => void;
  /** Resolves once the first full list is in the store; rejects if the informer is stopped before that. */
  ready(): Promise<void>;
  /** A snapshot of its sync state, last contact with the server and counters. */
  health(): InformerHealth;
  /** Resolves when the informer has stopped after its signal fired. */
  readonly stopped: Promise<void>;
}

/**
 * Starts a list+watch of `options.path` that survives API server restarts, 410s, throttling and frozen
 * streams, and stops only when `options.signal` aborts. Handlers run synchronously, in server order,
 * after the store changed; a handler that throws is logged and does not disturb the others.
 */
export function createInformer<T extends KubeObject>(options: InformerOptions<T>): Informer<T> {
  const log = (options.log ?? pino({ enabled: false })).child({ informer: options.path });
  const store = new Store<T>(options.indexers);
  const { handlers, emit } = handlerRegistry<T>(log);
  const synced = deferred();
  const reflector = new Reflector<T>(
    { ...options, log },
    {
      replace: (items) => {
        for (const change of store.replace(items)) emit(change);
        synced.resolve();
      },
      upsert: (object) => emit(store.upsert(object)),
      remove: (object) => {
        const change = store.remove(object);
        if (change) emit(change);
      },
    },
  );
  const stopResync = startResync(options, store, emit, synced.promise);
  const stopped = reflector.run().finally(() => {
    stopResync();
    synced.reject(new Error(`informer for ${options.path} was stopped before its first list completed`));
  });
  return {
    store,
    on: (event, handler) => {
      const set = handlers[event] as Set<typeof handler>;
      set.add(handler);
      return () => void set.delete(handler);
    },
    ready: () => synced.promise,
    health: () => ({ ...reflector.stats, path: options.path, objects: store.size }),
    stopped,
  };
}

/** The registered handlers by event, and `emit`, which calls each for a store change (a handler that throws is logged). */
function handlerRegistry<T extends KubeObject>(log: Logger) {
  const handlers = {
    add: new Set<InformerHandlers<T>['add']>(),
    update: new Set<InformerHandlers<T>['update']>(),
    delete: new Set<InformerHandlers<T>['delete']>(),
  };
  const emit = (change: StoreChange<T>): void => {
    const call = (action: () => void): void => {
      try {
        action();
      } catch (error) {
        log.error({ err: error, event: change.type, key: objectKey(change.object) }, 'informer event handler threw');
      }
    };
    if (change.type === 'add') for (const h of handlers.add) call(() => h(change.object));
    else if (change.type === 'update') for (const h of handlers.update) call(() => h(change.old, change.object));
    else for (const h of handlers.delete) call(() => h(change.object));
  };
  return { handlers, emit };
}

function startResync<T extends KubeObject>(options: InformerOptions<T>, store: Store<T>, emit: (c: StoreChange<T>) => void, synced: Promise<void>): () => void {
  if (!options.resyncMs) return () => undefined;
  if (!(options.resyncMs > 0)) throw new Error(`resyncMs must be positive, got ${options.resyncMs}`);
  let interval: NodeJS.Timeout | undefined;
  // Replays what the cache holds, to re-drive level-triggered handlers; the server is not asked.
  synced.then(
    () => {
      if (!options.signal.aborted) interval = setInterval(() => replay(store, emit), options.resyncMs);
    },
    () => undefined,
  );
  return () => clearInterval(interval);
}

function replay<T extends KubeObject>(store: Store<T>, emit: (c: StoreChange<T>) => void): void {
  for (const object of store.list()) emit({ type: 'update', old: object, object });
}

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
}

function deferred(): Deferred {
  let resolve: () => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined); // nobody has to call ready(); a stop before sync is not an unhandled rejection
  return { promise, resolve, reject };
}
