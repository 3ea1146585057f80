import { checkActionCount, TemplateProblem } from './template-problem.js';
import { content, literal, mustache, program, type HbsNode } from './hbs-ast.js';
import { RUNTIME } from './runtime-names.js';
import { isForbiddenName, isPlainMap, MissingValue, ownValue } from './plain-values.js';

/**
 * Argo CD's default ("fasttemplate") style: `{{name}}`, `{{ path.basename }}`, `{{path[0]}}`. Every
 * `{{...}}` is a parameter name; there are no functions or blocks. Translated to a Handlebars program
 * whose placeholders call the `ft_param` runtime helper with the tag text as a string literal.
 */

/**
 * Argo CD only treats a string as a template when one line holds `{{...}}` (its regexp `.*{{.*}}.*`);
 * others pass through untouched. Checked by scanning, as the same regexp would backtrack quadratically
 * in JavaScript on a long line full of `{{`.
 */
function isTemplated(text: string): boolean {
  let lineStart = 0;
  while (lineStart <= text.length) {
    const lineEnd = text.indexOf('\n', lineStart) < 0 ? text.length : text.indexOf('\n', lineStart);
    const open = text.indexOf('{{', lineStart);
    if (open >= 0 && open < lineEnd) {
      const close = text.indexOf('}}', open + 2);
      if (close >= 0 && close + 2 <= lineEnd) return true;
    }
    lineStart = lineEnd + 1;
  }
  return false;
}

/** The Handlebars AST for a fasttemplate string; an unclosed `{{` is an error, as in Argo CD. */
export function translateFasttemplate(text: string): HbsNode {
  if (!isTemplated(text)) return program([content(text)]);
  const body: HbsNode[] = [];
  let cursor = 0;
  let actions = 0;
  for (;;) {
    const open = text.indexOf('{{', cursor);
    if (open < 0) break;
    const close = text.indexOf('}}', open + 2);
    if (close < 0) throw new TemplateProblem(`'{{' at offset ${open} has no closing '}}'`);
    if (open > cursor) body.push(content(text.slice(cursor, open)));
    const tag = text.slice(open + 2, close);
    body.push(mustache(RUNTIME.param, [literal(tag), ...tagSegments(tag).map(literal)]));
    checkActionCount(++actions);
    cursor = close + 2;
  }
  if (cursor < text.length) body.push(content(text.slice(cursor)));
  return program(body);
}

/** `name[3]`: a name with a list position. */
const INDEXED = /^(.*)\[(\d+)\]$/;

/** The dotted parts of a tag, checked once at translation; prototype names are refused. */
export function tagSegments(tag: string): string[] {
  const name = tag.trim();
  if (name === '') return [];
  const segments = name.split('.');
  const forbidden = segments.map((s) => s.replace(INDEXED, '$1')).find(isForbiddenName);
  if (forbidden) throw new TemplateProblem(`access to '${forbidden}' is not allowed`);
  return segments;
}

/**
 * Resolves a fasttemplate tag against nested parameters the way Argo CD's flat keys read:
 * `a.b.c` walks maps (a key may itself contain dots, like a label `app.kubernetes.io/name`); a map
 * reached by a name that holds a same-named key gives that key (`path` is `path.path`); `x[N]` indexes
 * a list, or a map's `segments` list (`path[0]` is `path.segments[0]`).
 */
export function resolveFasttemplateTag(params: unknown, tag: string, segments: string[] = tagSegments(tag)): unknown {
  if (segments.length === 0) return new MissingValue(tag);
  const found = walk(params, segments);
  return found === undefined ? new MissingValue(tag.trim()) : found;
}

/**
 * Tries each split of the remaining segments, shortest key first, so dotted keys are found. Failed
 * (map, position) pairs are remembered: parameters read from YAML can share subtrees through anchors,
 * and without the memo a crafted tag could make the search exponential.
 */
function walk(params: unknown, segments: string[]): unknown {
  // Made on the first failed position only: the common tag (`a.b` naming nested maps) never needs it.
  let failed: Map<unknown, Set<number>> | undefined;
  const from = (current: unknown, start: number): unknown => {
    if (start === segments.length) return current;
    if (failed?.get(current)?.has(start)) return undefined;
    for (let end = start + 1; end <= segments.length; end++) {
      const key = end === start + 1 ? (segments[start] as string) : segments.slice(start, end).join('.');
      const value = step(current, key);
      if (value === undefined) continue;
      const found = from(value, end);
      if (found !== undefined) return end === segments.length ? collapse(found, key) : found;
    }
    failed ??= new Map();
    const seen = failed.get(current) ?? new Set<number>();
    failed.set(current, seen.add(start));
    return undefined;
  };
  return from(params, 0);
}

/** One name, with an optional `[N]`. */
function step(current: unknown, key: string): unknown {
  if (!isPlainMap(current)) return undefined;
  // Flat names come first: Argo CD's own `path[0]` is a name, not an index.
  const direct = ownValue(current, key);
  if (direct !== undefined) return direct;
  const indexed = INDEXED.exec(key);
  if (!indexed) return undefined;
  const base = ownValue(current, indexed[1] ?? '');
  const position = Number(indexed[2]);
  const list = Array.isArray(base) ? base : isPlainMap(base) ? ownValue(base, 'segments') : undefined;
  return Array.isArray(list) ? (list[position] as unknown) : undefined;
}

/** `path` names the map `{path, basename, ...}`: its same-named key is the value Argo CD's flat `path` had. */
function collapse(value: unknown, key: string): unknown {
  const last = key.slice(key.lastIndexOf('.') + 1);
  if (isPlainMap(value) && Object.hasOwn(value, last)) return value[last];
  return value;
}
