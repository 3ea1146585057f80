import { AppsetError } from '../model/errors.js';
/**
 * Glob patterns as Argo CD matches them (gobwas/glob): `*` and `?` stop at the separator when there is
 * one, `**` crosses it, `[abc]`, `[!abc]`, `[a-z]`, `{a,b}` and `\` escapes. Patterns are compiled to
 * anchored regular expressions and cached.
 */

const cache = new Map<string, RegExp>();
const MAX_CACHE = 2048;
/** Longest pattern accepted: AppProject patterns are short, and a bound keeps matching cheap. */
const MAX_PATTERN_LENGTH = 1024;

/** An invalid glob pattern, with the reason. */
export class GlobError extends AppsetError {
  override readonly name = 'GlobError';
}

/** True if `value` matches `pattern` whole. A bare `*` matches everything, as in Argo CD. */
export function globMatch(pattern: string, value: string, separator?: '/'): boolean {
  if (pattern === '*') return true;
  return compileGlob(pattern, separator).test(value);
}

/** The anchored regular expression of a glob; throws GlobError for a malformed pattern. */
export function compileGlob(pattern: string, separator?: '/'): RegExp {
  const key = `${separator ?? ''}\u0000${pattern}`;
  const cached = cache.get(key);
  if (cached) return cached;
  if (pattern.length > MAX_PATTERN_LENGTH) throw new GlobError(`glob pattern longer than ${MAX_PATTERN_LENGTH} characters`);
  const regex = new RegExp(`^${translate(pattern, separator, { index: 0 }, false)}$`, 's');
  if (cache.size >= MAX_CACHE) cache.delete(cache.keys().next().value as string);
  cache.set(key, regex);
  return regex;
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function translate(pattern: string, separator: '/' | undefined, cursor: { index: number }, inBraces: boolean): string {
  const notSeparator = separator ? '[^/]' : '.';
  let out = '';
  while (cursor.index < pattern.length) {
    const char = pattern[cursor.index++] ?? '';
    if (char === '\\') {
      if (cursor.index >= pattern.length) throw new GlobError(`pattern "${pattern}" ends with a lone backslash`);
      out += escapeRegex(pattern[cursor.index++] ?? '');
    } else if (char === '*') {
      if (pattern[cursor.index] === '*') {
        cursor.index++;
        out += '.*';
      } else out += `${notSeparator}*`;
    } else if (char === '?') out += notSeparator;
    else if (char === '[') out += characterClass(pattern, cursor, separator);
    else if (char === '{') out += alternatives(pattern, cursor, separator);
    else if (inBraces && (char === ',' || char === '}')) {
      cursor.index--;
      return out;
    } else out += escapeRegex(char);
  }
  if (inBraces) throw new GlobError(`pattern "${pattern}" has an unclosed "{"`);
  return out;
}

function characterClass(pattern: string, cursor: { index: number }, separator: '/' | undefined): string {
  const close = pattern.indexOf(']', cursor.index + 1);
  if (close < 0) throw new GlobError(`pattern "${pattern}" has an unclosed "["`);
  let body = pattern.slice(cursor.index, close);
  cursor.index = close + 1;
  const negated = body.startsWith('!') || body.startsWith('^');
  if (negated) body = body.slice(1);
  if (body === '') throw new GlobError(`pattern "${pattern}" has an empty "[]"`);
  const escaped = body.replace(/[\\\]^]/g, '\\$&');
  return negated ? `[^${escaped}${separator ? '/' : ''}]` : `[${escaped}]`;
}

function alternatives(pattern: string, cursor: { index: number }, separator: '/' | undefined): string {
  const options: string[] = [];
  for (;;) {
    options.push(translate(pattern, separator, cursor, true));
    const char = pattern[cursor.index++];
    if (char === '}') return `(?:${options.join('|')})`;
    if (char !== ',') throw new GlobError(`pattern "${pattern}" has an unclosed "{"`);
  }
}
