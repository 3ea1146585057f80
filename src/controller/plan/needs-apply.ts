import { INTENT_HASH_ANNOTATION } from './apply-intent.js';
import type { Application } from '../../model/objects.js';

/**
 * True if server-side applying `intent` would change `live`: the intent changed since it was last
 * applied (a field dropped from the template must be removed), or a field of the intent differs on the
 * live object (a hand edit to revert). Fields others added and the intent does not set are theirs.
 */
export function needsApply(intent: Application, live: Application): boolean {
  const wanted = intent.metadata;
  const have = live.metadata;
  if (wanted.annotations?.[INTENT_HASH_ANNOTATION] !== have.annotations?.[INTENT_HASH_ANNOTATION]) return true;
  if (!isSubset(wanted.labels ?? {}, have.labels ?? {})) return true;
  if (!isSubset(wanted.annotations ?? {}, have.annotations ?? {})) return true;
  if (!(wanted.finalizers ?? []).every((f) => have.finalizers?.includes(f))) return true;
  const owners = wanted.ownerReferences ?? [];
  if (!owners.every((ref) => have.ownerReferences?.some((h) => h.uid === ref.uid && h.controller === ref.controller))) return true;
  return !isSubset(intent.spec, live.spec);
}

/**
 * True if every field of `part` is in `whole` with the same value. Objects are compared field by field;
 * lists and scalars must be equal (a server-side apply replaces an atomic list whole).
 */
export function isSubset(part: unknown, whole: unknown): boolean {
  if (isPlainObject(part)) {
    return (
      isPlainObject(whole) && Object.entries(part).every(([key, value]) => value === undefined || (Object.hasOwn(whole, key) && isSubset(value, whole[key])))
    );
  }
  return deepEqual(part, whole);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  if (isPlainObject(a)) {
    if (!isPlainObject(b)) return false;
    const keys = Object.keys(a).filter((k) => a[k] !== undefined);
    return keys.length === Object.keys(b).filter((k) => b[k] !== undefined).length && keys.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
