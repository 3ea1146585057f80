import { RenderError } from './renderer.js';
import { TemplateProblem } from './template-problem.js';
import { isForbiddenName, isPlainMap } from './plain-values.js';

/** Walks a template object and renders only its strings (values and map keys); structure is copied, never produced. */

/** Renders one template string. */
export type StringRenderer = (text: string) => string;

/** Where a value sits, built as a chain so the text form is only made when an error needs it. */
export interface FieldPath {
  parent: FieldPath | undefined;
  key: string | number;
}

/** `metadata.labels["app.kubernetes.io/name"]`: the text form of a path. */
export function formatPath(path: FieldPath | undefined): string {
  return path ? childPath(formatPath(path.parent), path.key) : '';
}

/** `metadata.labels["app.kubernetes.io/name"]`-style path of a child. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  const plain = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key);
  const part = plain ? key : `[${JSON.stringify(key)}]`;
  return parent === '' ? part : plain ? `${parent}.${part}` : `${parent}${part}`;
}

/** Any failure while rendering `field` as a RenderError naming the field. */
export function asRenderError(error: unknown, field: string): RenderError {
  if (error instanceof RenderError) return error;
  if (error instanceof TemplateProblem) return new RenderError(error.message, field, error);
  return new RenderError(`template could not be rendered: ${error instanceof Error ? error.message : String(error)}`, field, error);
}

/** Runs `render`, turning any failure into a RenderError naming `field`. */
export function renderField(field: string, render: () => string): string {
  try {
    return render();
  } catch (error) {
    throw asRenderError(error, field);
  }
}

/**
 * A copy of `template` in which every string value and every map key went through `render`. Numbers,
 * booleans and null are copied as they are, so a parameter can change text but never types or shape.
 */
export function renderTree(template: unknown, path: FieldPath | undefined, render: StringRenderer): unknown {
  if (typeof template === 'string') return renderLeaf(template, path, render);
  if (Array.isArray(template)) return template.map((item: unknown, i) => renderChild(item, path, i, render));
  if (!isPlainMap(template)) return template;
  const out: Record<string, unknown> = {};
  for (const rawKey of Object.keys(template)) {
    const key = rawKey.includes('{{') ? renderKey(rawKey, { parent: path, key: rawKey }, render) : rawKey;
    if (isForbiddenName(key)) throw new RenderError(`the key '${key}' is not allowed`, formatPath({ parent: path, key: rawKey }));
    if (Object.hasOwn(out, key))
      throw new RenderError(`renders the key '${key}', which another key of the same map also renders`, formatPath({ parent: path, key: rawKey }));
    out[key] = renderChild(template[rawKey], path, rawKey, render);
  }
  return out;
}

/** renderTree of one child; its path is only built for a container or an error (leaves are most of a template). */
function renderChild(value: unknown, parent: FieldPath | undefined, key: string | number, render: StringRenderer): unknown {
  if (typeof value === 'string') {
    try {
      return render(value);
    } catch (error) {
      throw asRenderError(error, formatPath({ parent, key }));
    }
  }
  if (typeof value !== 'object' || value === null) return value;
  return renderTree(value, { parent, key }, render);
}

function renderLeaf(text: string, path: FieldPath | undefined, render: StringRenderer): string {
  try {
    return render(text);
  } catch (error) {
    throw asRenderError(error, formatPath(path));
  }
}

function renderKey(text: string, path: FieldPath, render: StringRenderer): string {
  try {
    return render(text);
  } catch (error) {
    throw asRenderError(error, `${formatPath(path)} (key)`);
  }
}
