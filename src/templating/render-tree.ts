import { RenderError } from './renderer.js';
import { TemplateProblem } from './errors.js';
import { isForbiddenName, isPlainMap } from './values.js';

/** Walks a template object and renders only its strings (values and map keys); structure is copied, never produced. */

/** Renders one template string; `field` names where it sits, for errors. */
export type StringRenderer = (text: string, field: string) => string;

/** `metadata.labels["app.kubernetes.io/name"]`-style path of a child. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  const plain = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key);
  const part = plain ? key : `[${JSON.stringify(key)}]`;
  return parent === '' ? part : plain ? `${parent}.${part}` : `${parent}${part}`;
}

/** Wraps any failure while rendering `field` into a RenderError naming the field. */
export function renderField(field: string, render: () => string): string {
  try {
    return render();
  } catch (error) {
    if (error instanceof RenderError) throw error;
    if (error instanceof TemplateProblem) throw new RenderError(error.message, field, error);
    throw new RenderError(`template could not be rendered: ${error instanceof Error ? error.message : String(error)}`, field, error);
  }
}

/**
 * A copy of `template` in which every string value and every map key went through `render`. Numbers,
 * booleans and null are copied as they are, so a parameter can change text but never types or shape.
 */
export function renderTree(template: unknown, path: string, render: StringRenderer): unknown {
  if (typeof template === 'string') return renderField(path, () => render(template, path));
  if (Array.isArray(template)) return template.map((item: unknown, i) => renderTree(item, childPath(path, i), render));
  if (!isPlainMap(template)) return template;
  const out: Record<string, unknown> = {};
  const origin = new Map<string, string>();
  for (const [rawKey, value] of Object.entries(template)) {
    const keyField = childPath(path, rawKey);
    const key = rawKey.includes('{{') ? renderField(`${keyField} (key)`, () => render(rawKey, `${keyField} (key)`)) : rawKey;
    if (isForbiddenName(key)) throw new RenderError(`the key '${key}' is not allowed`, keyField);
    const earlier = origin.get(key);
    if (earlier !== undefined) throw new RenderError(`renders the key '${key}', which ${earlier} also renders`, keyField);
    origin.set(key, keyField);
    out[key] = renderTree(value, keyField, render);
  }
  return out;
}
