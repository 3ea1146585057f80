import type { Frozen } from './kube-object.js';

// Kubernetes objects repeat a lot that a reader of a frozen object cannot tell apart: every `{}` leaf of
// managedFields (about ten per object, each a separate 56-64 byte object as JSON.parse makes it) and
// strings such as apiVersion, kind, namespace, URLs and timestamps (JSON.parse shares string values of up
// to 10 characters only). Once an object is frozen, one shared empty object serves for all its `{}`, and
// strings have no identity at all, so the cache keeps one copy of each.

/** The one empty object that stands for every `{}` in frozen cached objects. */
export const SHARED_EMPTY_OBJECT: Readonly<Record<string, never>> = Object.freeze({});
/** The one empty array that stands for every `[]` in frozen cached objects. */
export const SHARED_EMPTY_ARRAY: readonly never[] = Object.freeze([]);

/** JSON.parse already shares string values up to this length. */
const SHORTEST_POOLED = 11;
/** Longer strings (annotations, certificates) are rarely repeated and costly to hash. */
const LONGEST_POOLED = 256;
/** The pool is cleared when it reaches this many strings, so unique strings (uids) cannot grow it without bound. */
const POOL_LIMIT = 4096;
/** Slots of the pool's direct-mapped front (a power of two). */
const RECENT_SLOTS = 1024;
/** Deeper than this (no Kubernetes object is; a transform could make a cycle) the freeze-first walk takes over. */
const DEEPEST_SHARED = 200;

/**
 * Freezes objects deeply, in place, and on the way replaces every empty plain object or array with a
 * shared frozen one and (with a pool) every repeated string with its first copy. Content, key order and
 * types stay exactly as they were. Objects whose prototype is not Object's, Array's or null (a transform may
 * make those) are frozen without being rewritten, since writing to them could run their setters.
 */
export class SharingFreezer {
  private pool: Map<string, string> | undefined;
  /**
   * The pooled copies found last, by a hash of a few characters: most strings looked up are an apiVersion, an
   * owner's uid or a repository URL met on the object before, and a look here costs a fraction of the Map's
   * (which hashes the whole string and probes a table of thousands: 2 % of a replica's main thread in a converge).
   */
  private recent: string[] = [];

  /** `pooling`: also share repeated strings (keeps a bounded pool of strings until {@link forget}). */
  constructor(pooling = true) {
    this.pool = pooling ? new Map() : undefined;
    if (pooling) this.recent = new Array<string>(RECENT_SLOTS).fill('');
  }

  /** Freezes `value` and everything reachable from it, sharing on the way; returns `value` itself. */
  freeze<T>(value: T): Frozen<T> {
    if (typeof value === 'object' && value !== null && !Object.isFrozen(value) && this.walk(value, 0) !== value) Object.freeze(value);
    return value as Frozen<T>;
  }

  /** Drops the pooled strings (after a full list), so the pool keeps nothing alive that the cache dropped. */
  forget(): void {
    if (!this.pool) return;
    this.pool = new Map();
    this.recent.fill('');
  }

  /**
   * Freezes `value` after rewriting its children, and returns what its parent should hold instead: `value`,
   * or a shared empty object or array (then `value` itself is left as it was). One pass finds emptiness too.
   */
  private walk(value: object, depth: number): object {
    if (depth > DEEPEST_SHARED || !isPlain(value)) {
      freezeTree(value);
      return value;
    }
    const empty = Array.isArray(value) ? this.walkArray(value as unknown[], depth) : this.walkRecord(value as Record<string, unknown>, depth);
    if (empty) {
      const shared = Array.isArray(value) ? SHARED_EMPTY_ARRAY : SHARED_EMPTY_OBJECT;
      // Only an object that has nothing at all (no symbol, no hidden property, the standard prototype) is interchangeable.
      if (Object.getPrototypeOf(value) === Object.getPrototypeOf(shared) && Reflect.ownKeys(value).length === Reflect.ownKeys(shared).length) return shared;
    }
    Object.freeze(value);
    return value;
  }

  /** Rewrites the elements of `items`; true if it has none. */
  private walkArray(items: unknown[], depth: number): boolean {
    for (let i = 0; i < items.length; i++) {
      const replacement = this.replacementFor(items[i], depth);
      if (replacement !== undefined) items[i] = replacement;
    }
    return items.length === 0;
  }

  /** Rewrites the properties of `record`; true if it has no enumerable one. */
  private walkRecord(record: Record<string, unknown>, depth: number): boolean {
    let empty = true;
    // for-in rather than Object.keys: no array per object. Decoded JSON has no inherited enumerable keys.
    for (const key in record) {
      empty = false;
      const replacement = this.replacementFor(record[key], depth);
      if (replacement !== undefined) record[key] = replacement;
    }
    return empty;
  }

  /**
   * Freezes `child` (a value found at `depth`) and returns what should stand in its place, or undefined
   * to keep it: the caller writes only when something changes, since a write costs more than the checks.
   */
  private replacementFor(child: unknown, depth: number): unknown {
    if (typeof child === 'string') {
      return child.length >= SHORTEST_POOLED && child.length <= LONGEST_POOLED ? this.pooled(child) : undefined;
    }
    if (typeof child === 'object' && child !== null && !Object.isFrozen(child)) {
      const shared = this.walk(child, depth + 1);
      return shared !== child ? shared : undefined;
    }
    return undefined;
  }

  /** The pooled copy of `text`, or undefined when this is its first copy (which joins the pool). */
  private pooled(text: string): string | undefined {
    const pool = this.pool;
    if (!pool) return undefined;
    const slot = recentSlot(text);
    const recent = this.recent[slot] as string;
    if (recent === text) return recent;
    const known = pool.get(text);
    if (known !== undefined) {
      this.recent[slot] = known;
      return known;
    }
    if (pool.size >= POOL_LIMIT) pool.clear();
    pool.set(text, text);
    this.recent[slot] = text;
    return undefined;
  }
}

const plainFreezer = new SharingFreezer(false);

/** Freezes `value` and everything reachable from it, in place (sharing empty objects and arrays), and returns it. */
export function deepFreeze<T>(value: T): Frozen<T> {
  return plainFreezer.freeze(value);
}

/** A slot of the recent strings for `text` (at least {@link SHORTEST_POOLED} long), from its length and four characters. */
function recentSlot(text: string): number {
  const n = text.length;
  return (n * 31 + text.charCodeAt(n - 1) * 7 + text.charCodeAt(n - 3) + text.charCodeAt(n >> 1) * 131 + text.charCodeAt(n >> 2) * 17) & (RECENT_SLOTS - 1);
}

function isPlain(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === Array.prototype || prototype === null;
}

/** Deep freeze without rewriting anything, for objects that are not plain data; parents first, so cycles end. */
function freezeTree(value: object): void {
  Object.freeze(value);
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    const child: unknown = descriptor && 'value' in descriptor ? descriptor.value : undefined;
    if (typeof child === 'object' && child !== null && !Object.isFrozen(child)) freezeTree(child);
  }
}
