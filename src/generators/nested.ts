import type { GeneratorContext } from './generator.js';
import type { GeneratorRegistry } from './registry.js';
import { COMBINERS } from '../model/generator-walk.js';
import { GeneratorSpecError, isObject, readArray, readObject } from './spec-reading.js';

/**
 * Reads the `generators` of a matrix or merge and enforces Argo CD's nesting rule: a child may be a
 * matrix or merge itself, but that one's children may not (one level of nesting, so no `generators`
 * list deeper than MAX_GENERATOR_DEPTH of src/model/generator-walk.ts).
 */
export function readChildGenerators(spec: unknown, kind: 'matrix' | 'merge'): readonly unknown[] {
  const body = readObject(spec, kind);
  const children = readArray(body.generators, `${kind}.generators`);
  children.forEach((child, i) => {
    const entry = readObject(child, `${kind}.generators[${i}]`);
    for (const combiner of COMBINERS) {
      const inner = entry[combiner];
      if (!isObject(inner)) continue;
      readArray(inner.generators, `${kind}.generators[${i}].${combiner}.generators`).forEach((grandchild, j) => {
        if (isObject(grandchild) && COMBINERS.some((c) => grandchild[c] !== undefined && grandchild[c] !== null)) {
          throw new GeneratorSpecError(`${kind}.generators[${i}].${combiner}.generators[${j}]`, 'matrix and merge may be nested one level only');
        }
      });
    }
  });
  return children;
}

/** The smallest requeue interval among child generators. */
export function childRequeue(registry: GeneratorRegistry, children: readonly unknown[], kind: string): number | undefined {
  const intervals = children.map((c, i) => registry.requeueAfterMs(c, `${kind}.generators[${i}]`));
  const defined = intervals.filter((v): v is number => v !== undefined);
  return defined.length === 0 ? undefined : Math.min(...defined);
}

/**
 * Interpolates every string of a child generator (not its post-selector) with `params`; references
 * the child resolves itself (its own `values`) are left verbatim for it.
 */
export function interpolateChild(child: unknown, params: Parameters<GeneratorContext['interpolate']>[1], ctx: GeneratorContext): unknown {
  const entry = readObject(child, 'generator');
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) out[key] = key === 'selector' ? value : interpolateStrings(value, params, ctx);
  return out;
}

function interpolateStrings(value: unknown, params: Parameters<GeneratorContext['interpolate']>[1], ctx: GeneratorContext): unknown {
  if (typeof value === 'string') return value.includes('{{') ? ctx.interpolate(value, params, { allowUnresolved: true }) : value;
  if (Array.isArray(value)) return value.map((v) => interpolateStrings(v, params, ctx));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateStrings(v, params, ctx)]));
  return value;
}

/** True when any string inside `value` holds a `{{` reference. */
export function hasReferences(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('{{');
  if (Array.isArray(value)) return value.some(hasReferences);
  if (isObject(value)) return Object.values(value).some(hasReferences);
  return false;
}
