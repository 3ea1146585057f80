import { canonicalJson } from '../../controller/plan/canonical-json.js';

/** One field that differs between two versions of an Application. */
export interface FieldChange {
  /** Where, e.g. `spec.source.helm.parameters[name=image].value` or `metadata.labels["team"]`. */
  readonly path: string;
  /** `reordered`: a list holds the same items in another order. */
  readonly kind: 'added' | 'removed' | 'changed' | 'reordered';
  readonly before?: unknown;
  readonly after?: unknown;
}

type Json = unknown;

const isObject = (value: Json): value is Record<string, Json> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `a.b`, or `a["b c"]` for a key that is not a plain name. */
function member(path: string, key: string): string {
  if (/^[A-Za-z_$][\w$-]*$/.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/**
 * Every field that differs from `before` to `after`, in a stable order (keys sorted). Objects are compared key
 * by key; a list whose items all have a distinct `name` is compared item by item by that name (Helm parameters,
 * sources with names), any other list index by index; a list with the same items in another order is one
 * `reordered` change, since order can matter to Argo CD (multiple sources, value files).
 */
export function diffFields(before: Json, after: Json, path = ''): FieldChange[] {
  if (before === undefined && after === undefined) return [];
  if (before === undefined) return [{ path, kind: 'added', after }];
  if (after === undefined) return [{ path, kind: 'removed', before }];
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => diffFields(before[key], after[key], member(path, key)));
  }
  if (Array.isArray(before) && Array.isArray(after)) return diffLists(before, after, path);
  return canonicalJson(before) === canonicalJson(after) ? [] : [{ path, kind: 'changed', before, after }];
}

function diffLists(before: readonly Json[], after: readonly Json[], path: string): FieldChange[] {
  const text = (items: readonly Json[]): string[] => items.map((item) => canonicalJson(item));
  const [b, a] = [text(before), text(after)];
  if (b.join('\n') === a.join('\n')) return [];
  if (b.length === a.length && [...b].sort().join('\n') === [...a].sort().join('\n')) return [{ path, kind: 'reordered', before, after }];
  const beforeByName = byName(before);
  const afterByName = byName(after);
  if (beforeByName && afterByName) {
    const names = [...new Set([...beforeByName.keys(), ...afterByName.keys()])];
    return names.flatMap((name) => diffFields(beforeByName.get(name), afterByName.get(name), `${path}[name=${name}]`));
  }
  const length = Math.max(before.length, after.length);
  return Array.from({ length }, (_, i) => diffFields(before[i], after[i], `${path}[${i}]`)).flat();
}

/** The items of a list by their `name`, when every item is an object with a distinct string name. */
function byName(items: readonly Json[]): Map<string, Json> | undefined {
  const named = new Map<string, Json>();
  for (const item of items) {
    const name = isObject(item) ? item['name'] : undefined;
    if (typeof name !== 'string' || named.has(name)) return undefined;
    named.set(name, item);
  }
  return named.size > 0 ? named : undefined;
}

/** Every leaf of `value` (lists are leaves) as one change of `kind`: how a created or deleted Application is shown. */
export function leafChanges(value: Json, kind: 'added' | 'removed', path = ''): FieldChange[] {
  if (isObject(value))
    return Object.keys(value)
      .sort()
      .flatMap((key) => leafChanges(value[key], kind, member(path, key)));
  if (value === undefined) return [];
  return [kind === 'added' ? { path, kind, after: value } : { path, kind, before: value }];
}
