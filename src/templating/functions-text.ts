import { TemplateProblem } from './template-problem.js';
import { stringValue } from './plain-values.js';
import { fromUtf8, utf8 } from './go-strings.js';

/** String functions with sprig's and Argo CD's semantics. Pure: no file system, environment or network. */

/** Largest string a single function may build (`repeat`, `indent`), so one call cannot exhaust memory. */
export const MAX_FUNCTION_OUTPUT = 1_000_000;

/** An integer argument, as Go's template engine would accept one. */
export function intArg(value: unknown, fn: string): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n))
    throw new TemplateProblem(`${fn}: expected a number, got ${typeof value === 'bigint' ? value : (JSON.stringify(value) ?? 'nothing')}`);
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

/** sprig `trunc n s`: the first n bytes, or the last -n when n is negative (Go slices bytes, not characters). */
export function trunc(count: unknown, value: unknown): string {
  const bytes = utf8(stringValue(value));
  const n = intArg(count, 'trunc');
  if (n < 0 && bytes.length + n > 0) return fromUtf8(bytes.subarray(bytes.length + n));
  if (n >= 0 && bytes.length > n) return fromUtf8(bytes.subarray(0, n));
  return stringValue(value);
}

/** sprig `substr start end s` over bytes; Go's slice-out-of-range panics are errors. */
export function substr(start: unknown, end: unknown, value: unknown): string {
  const bytes = utf8(stringValue(value));
  const from = intArg(start, 'substr');
  const to = intArg(end, 'substr');
  const slice = (a: number, b: number): string => {
    if (a < 0 || b > bytes.length || a > b) throw new TemplateProblem(`substr: slice bounds out of range [${a}:${b}] with length ${bytes.length}`);
    return fromUtf8(bytes.subarray(a, b));
  };
  if (from < 0) return slice(0, to);
  if (to < 0 || to > bytes.length) return slice(from, bytes.length);
  return slice(from, to);
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

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
const QUOTE_ESCAPES: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v' };

/** Go's `%q` for a string (strconv.Quote; sprig `quote`): printable characters as they are, the rest escaped. */
export function goQuote(value: string): string {
  let out = '"';
  for (const ch of value) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if ((cp >= 0x20 && cp < 0x7f) || (cp >= 0x80 && PRINTABLE.test(ch))) out += ch;
    else if (Object.hasOwn(QUOTE_ESCAPES, ch)) out += QUOTE_ESCAPES[ch];
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else out += cp < 0x10000 ? `\\u${cp.toString(16).padStart(4, '0')}` : `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
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
