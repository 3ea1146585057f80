import { TemplateProblem } from './template-problem.js';
import { stringValue } from './plain-values.js';

/** String functions with sprig's and Argo CD's semantics. Pure: no file system, environment or network. */

/** Largest string a single function may build (`repeat`, `indent`), so one call cannot exhaust memory. */
export const MAX_FUNCTION_OUTPUT = 1_000_000;

/** An integer argument, as Go's template engine would accept one. */
export function intArg(value: unknown, fn: string): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new TemplateProblem(`${fn}: expected a number, got ${JSON.stringify(value) ?? 'nothing'}`);
  return Math.trunc(n);
}

/** Argo CD's `normalize` (SanitizeName): lowercase, anything but [-a-z0-9.] becomes '-', at most 253, trim '-' and '.'. */
export function normalize(name: unknown): string {
  const lowered = stringValue(name)
    .toLowerCase()
    .replace(/[^-a-z0-9.]/g, '-');
  return lowered.slice(0, 253).replace(/^[-.]+|[-.]+$/g, '');
}

/**
 * Argo CD's `slugify [maxSize] [smartTruncate] name` (defaults 50 and true): normalize, then gosimple/slug:
 * '.' and other unauthorised characters become '-', runs of '-' collapse, '-'/'_' trimmed, and a smart
 * truncation cuts at the last '-' at or before maxSize.
 */
export function slugify(...args: unknown[]): string {
  const name = stringValue(args[args.length - 1]);
  const maxSize = args.length > 1 ? intArg(args[0], 'slugify') : 50;
  const smart = args.length > 2 ? Boolean(args[1]) : true;
  let slug = normalize(name);
  if (!smart && slug.length >= maxSize) slug = slug.slice(0, maxSize);
  slug = slug
    .replace(/[^a-zA-Z0-9_-]/g, '-')
    .replace(/-+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  if (smart && maxSize > 0 && slug.length > maxSize) {
    const cut = slug.lastIndexOf('-', maxSize);
    slug = cut >= 0 ? slug.slice(0, cut) : slug.slice(0, maxSize);
  }
  return slug;
}

/** sprig `trunc n s`: the first n characters, or the last -n when n is negative. */
export function trunc(count: unknown, value: unknown): string {
  const s = stringValue(value);
  const n = intArg(count, 'trunc');
  if (n < 0) return s.length + n > 0 ? s.slice(s.length + n) : s;
  return s.length > n ? s.slice(0, n) : s;
}

/** sprig `substr start end s`. */
export function substr(start: unknown, end: unknown, value: unknown): string {
  const s = stringValue(value);
  const from = intArg(start, 'substr');
  const to = intArg(end, 'substr');
  if (from < 0) return s.slice(0, to);
  if (to < 0 || to > s.length) return s.slice(from);
  return s.slice(from, to);
}

/** sprig `title`: upper-cases the first letter of every word. */
export function title(value: unknown): string {
  return stringValue(value).replace(/(^|[^\p{L}\p{N}_'])(\p{L})/gu, (_m, before: string, letter: string) => before + letter.toUpperCase());
}

/** sprig `repeat n s`, bounded by {@link MAX_FUNCTION_OUTPUT}. */
export function repeat(count: unknown, value: unknown): string {
  const s = stringValue(value);
  const n = intArg(count, 'repeat');
  if (n < 0) throw new TemplateProblem('repeat: negative count');
  if (n * s.length > MAX_FUNCTION_OUTPUT) throw new TemplateProblem(`repeat: the result would exceed ${MAX_FUNCTION_OUTPUT} characters`);
  return s.repeat(n);
}

/** sprig `indent n s`: every line prefixed by n spaces. */
export function indent(count: unknown, value: unknown): string {
  const n = intArg(count, 'indent');
  if (n < 0 || n > 1000) throw new TemplateProblem('indent: the width must be between 0 and 1000');
  const pad = ' '.repeat(n);
  const out = pad + stringValue(value).replace(/\n/g, `\n${pad}`);
  if (out.length > MAX_FUNCTION_OUTPUT) throw new TemplateProblem(`indent: the result would exceed ${MAX_FUNCTION_OUTPUT} characters`);
  return out;
}

/** Go's `%q` for a string (sprig `quote`): double-quoted with backslash escapes. */
export function goQuote(value: string): string {
  return JSON.stringify(value)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
    .replace(/\\u007f/g, '\\x7f');
}

/** sprig `quote`: each non-nil argument quoted, joined by spaces. */
export function quote(...values: unknown[]): string {
  return values
    .filter((v) => v !== undefined && v !== null)
    .map((v) => goQuote(stringValue(v)))
    .join(' ');
}

/** sprig `squote`: each non-nil argument in single quotes, joined by spaces. */
export function squote(...values: unknown[]): string {
  return values
    .filter((v) => v !== undefined && v !== null)
    .map((v) => `'${stringValue(v)}'`)
    .join(' ');
}

/** sprig `b64dec`: strict standard base64, refused with an error when invalid (sprig would print the error text). */
export function b64dec(value: unknown): string {
  const s = stringValue(value);
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s)) throw new TemplateProblem(`b64dec: ${goQuote(s)} is not valid base64`);
  return Buffer.from(s, 'base64').toString('utf8');
}

/** sprig `trimAll cutset s`: removes any of the cutset's characters from both ends. */
export function trimAll(cutset: unknown, value: unknown): string {
  const cut = new Set(stringValue(cutset));
  const chars = [...stringValue(value)];
  let start = 0;
  let end = chars.length;
  while (start < end && cut.has(chars[start] as string)) start++;
  while (end > start && cut.has(chars[end - 1] as string)) end--;
  return chars.slice(start, end).join('');
}
