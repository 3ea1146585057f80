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
    if (Array.isArray(patch) && Array.isArray(target) && UNION_LISTS.has(path)) return mergePrimitiveList(target, patch);
    return structuredClone(patch);
  }
  const out: Record<string, unknown> = isPlainMap(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = applyStrategicPatch(out[key], value, path ? `${path}.${key}` : key);
  }
  return out;
}

/**
 * A strategic merge of two lists of scalars, in the order Kubernetes gives them: the union without repeats,
 * the patch's items in patch order, and each item only the target has placed before the first patch item it
 * preceded in the target (so new finalizers from a patch come before the template's own).
 */
function mergePrimitiveList(target: readonly unknown[], patch: readonly unknown[]): unknown[] {
  const fromPatch = [...new Set(patch)];
  const targetOnly = [...new Set(target)].filter((item) => !fromPatch.includes(item));
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < targetOnly.length || j < fromPatch.length) {
    const left = target.indexOf(targetOnly[i]);
    const right = target.indexOf(fromPatch[j]);
    const takeTarget = j >= fromPatch.length || (i < targetOnly.length && left >= 0 && right >= 0 && left < right);
    out.push(takeTarget ? targetOnly[i++] : fromPatch[j++]);
  }
  return out;
}
