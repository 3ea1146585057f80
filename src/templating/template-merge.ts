import { isPlainMap } from './plain-values.js';

/** The two merges Argo CD applies to templates: generator overrides (mergo) and templatePatch (strategic merge). */

/** mergo's notion of an empty value: nil, "", 0, false, empty list or map. */
function isZero(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isPlainMap(value) && Object.keys(value).length === 0;
}

/**
 * A generator's `template` merged over `spec.template` as Argo CD does (`mergo.Merge(generatorTemplate,
 * specTemplate)`): every field the generator's template sets (non-empty) wins, maps merge key by key,
 * and empty fields are filled from `spec.template`. Lists are not merged: a non-empty list wins whole.
 */
export function mergeGeneratorTemplate(override: unknown, base: unknown): unknown {
  if (isPlainMap(override) && isPlainMap(base)) {
    const out: Record<string, unknown> = { ...base };
    for (const [key, value] of Object.entries(override)) {
      out[key] = Object.hasOwn(base, key) ? mergeGeneratorTemplate(value, base[key]) : value;
    }
    return out;
  }
  return isZero(override) ? structuredClone(base) : override;
}

/** Lists whose strategic-merge strategy is `merge` for primitives (Kubernetes ObjectMeta): union, not replace. */
const UNION_LISTS = new Set(['metadata.finalizers']);

/**
 * Applies a rendered templatePatch the way Kubernetes' strategic merge patch does for the Application
 * type: maps merge recursively, `null` deletes a key, lists are replaced (Application fields declare no
 * merge keys) except `metadata.finalizers`, whose items are added to the existing ones.
 */
export function applyStrategicPatch(target: unknown, patch: unknown, path = ''): unknown {
  if (!isPlainMap(patch)) {
    if (Array.isArray(patch) && Array.isArray(target) && UNION_LISTS.has(path)) {
      const existing: unknown[] = target;
      return [...existing, ...(patch as unknown[]).filter((item) => !existing.includes(item))];
    }
    return structuredClone(patch);
  }
  const out: Record<string, unknown> = isPlainMap(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = applyStrategicPatch(out[key], value, path ? `${path}.${key}` : key);
  }
  return out;
}
