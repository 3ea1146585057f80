/**
 * JSON with every object's keys in code-unit order and undefined members left out, so equal intents
 * always hash alike. Hashes stored on live Applications depend on this exact text: a change to it makes
 * every Application look changed once (test/controller/apply-intent.test.ts pins a hash, canonical-json.test.ts
 * the text against the first implementation).
 */
export function canonicalJson(value: unknown): string {
  // The common case goes through the engine's own JSON.stringify over a copy whose objects have their keys in
  // order (objects already in order are not copied): one flat string. Writing the text piece by piece allocated
  // several times its size in intermediate strings; the intent hash was a sixth of all a replica allocated in a
  // converge, and now allocates half as much (session 32). Values JSON.stringify would write differently take the
  // written path.
  const ordered = inKeyOrder(value, 0);
  return ordered === DIFFERENT ? writtenCanonicalJson(value) : JSON.stringify(ordered);
}

/** Returned by {@link inKeyOrder} for a value JSON.stringify of an ordered copy would not write canonically. */
const DIFFERENT: unique symbol = Symbol('different');

/** Deeper than this (no Kubernetes object is) the written path takes over, so a cycle ends the same way it did. */
const DEEPEST_ORDERED = 200;

/**
 * `value` itself when its objects' own enumerable keys are already in code-unit order, a copy with them in
 * order when not, or {@link DIFFERENT} when JSON.stringify of the result would not be the canonical text:
 * a key JSON.stringify orders first (an array index such as "10"), a key an object literal would not keep
 * as its own (`__proto__`), an array element it writes as null (undefined, a function, a symbol, a hole),
 * a member it leaves out where the canonical text does not (a function or a symbol), a bigint, or an
 * object with a prototype of its own (a Date writes itself through toJSON).
 */
function inKeyOrder(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return typeof value === 'bigint' ? DIFFERENT : value;
  if (depth > DEEPEST_ORDERED) return DIFFERENT;
  if (Array.isArray(value)) return Object.getPrototypeOf(value) === Array.prototype ? arrayInKeyOrder(value, depth) : DIFFERENT;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return DIFFERENT;
  return recordInKeyOrder(value as Record<string, unknown>, depth);
}

function arrayInKeyOrder(items: readonly unknown[], depth: number): unknown {
  let copy: unknown[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') return DIFFERENT;
    const ordered = inKeyOrder(item, depth + 1);
    if (ordered === DIFFERENT) return DIFFERENT;
    if (ordered !== item) (copy ??= items.slice())[i] = ordered;
  }
  return copy ?? items;
}

function recordInKeyOrder(record: Record<string, unknown>, depth: number): unknown {
  const keys = Object.keys(record);
  let sorted = true;
  // The members as they go into a copy; made only once one of them differs from the record's own.
  let members: unknown[] | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (!usableKey(key)) return DIFFERENT;
    if (i > 0 && (keys[i - 1] as string) > key) sorted = false;
    const member = record[key];
    if (typeof member === 'function' || typeof member === 'symbol') return DIFFERENT;
    const ordered = typeof member === 'object' && member !== null ? inKeyOrder(member, depth + 1) : member;
    if (ordered === DIFFERENT) return DIFFERENT;
    if (ordered !== member && !members) members = keys.slice(0, i).map((earlier) => record[earlier]);
    members?.push(ordered);
  }
  if (sorted && !members) return record;
  const order = sorted ? undefined : sortedIndices(keys);
  const copy: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const at = order ? (order[i] as number) : i;
    const member = members ? members[at] : record[keys[at] as string];
    if (member !== undefined) copy[keys[at] as string] = member;
  }
  return copy;
}

/** False for keys an object literal would not keep in insertion order (array indices) or as its own (`__proto__`). */
function usableKey(key: string): boolean {
  const first = key.charCodeAt(0);
  return !(first >= 48 && first <= 57) && key !== '__proto__';
}

/** The canonical text written piece by piece: every value, whatever JSON.stringify would make of it. */
function writtenCanonicalJson(value: unknown): string {
  if (typeof value === 'string') return quoted(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let text = '[';
    // An undefined element (JSON.stringify gives undefined) is written as nothing, as join did.
    for (let i = 0; i < value.length; i++) text += (i > 0 ? ',' : '') + (writtenCanonicalJson(value[i] as unknown) ?? '');
    return text + ']';
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let text = '{';
  let first = true;
  for (const at of sortedIndices(keys)) {
    const key = keys[at] as string;
    const member = record[key];
    if (member === undefined) continue;
    text += `${first ? '' : ','}${quoted(key)}:${writtenCanonicalJson(member)}`;
    first = false;
  }
  return text + '}';
}

/** Objects with more keys than this go to Array.prototype.sort; an Application's have a handful each. */
const LONGEST_INSERTION_SORT = 16;

/**
 * The positions of `keys` in code-unit order of the keys (as the default sort and `<` on strings compare), so
 * members kept beside the keys can be read in that order. Most objects of an Application have a few keys, often
 * in order already; an insertion sort does that without the work area the built-in sort copies the array into
 * first: in a profile of a replica's update wave, that copy was an eighth of all the bytes the replica allocated
 * (session 26).
 */
function sortedIndices(keys: readonly string[]): number[] {
  const order = keys.map((_, i) => i);
  if (keys.length > LONGEST_INSERTION_SORT) return order.sort((a, b) => ((keys[a] as string) < (keys[b] as string) ? -1 : 1));
  for (let i = 1; i < order.length; i++) {
    const at = order[i] as number;
    const key = keys[at] as string;
    let j = i - 1;
    for (; j >= 0 && (keys[order[j] as number] as string) > key; j--) order[j + 1] = order[j] as number;
    order[j + 1] = at;
  }
  return order;
}

// What JSON.stringify escapes in a string: quotes, backslashes and control characters, and lone surrogates (paired
// ones it leaves, but they go the slow way too, which keeps the check simple).
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `text` as JSON.stringify writes it; nearly every key and value of an Application needs no escaping. */
function quoted(text: string): string {
  return NEEDS_ESCAPING.test(text) ? JSON.stringify(text) : `"${text}"`;
}
