import { intArg } from './functions-text.js';
import { fromUtf8, goCompareStrings, goToLower, goToTitle, goToUpper, isGoSpace, isLetter, isDigit, isLower, isTitle, isUpper, utf8 } from './go-strings.js';
import { markCreated, MissingValue, stringValue } from './plain-values.js';

/**
 * sprig's string functions beyond the basics in functions-text.ts. Several of sprig's helpers (from
 * Masterminds/goutils) walk UTF-8 bytes rather than characters; those are ported byte for byte, so
 * non-ASCII text comes out exactly as Argo CD writes it, odd as that sometimes is.
 */

const s = stringValue;

/** goutils AbbreviateFull over bytes; "" where goutils reports an error (sprig ignores the error). */
function abbreviateFull(text: string, offsetArg: number, maxWidth: number): string {
  const b = utf8(text);
  const len = b.length;
  if (len === 0 || maxWidth < 4) return '';
  if (len <= maxWidth) return text;
  let offset = Math.min(offsetArg, len);
  if (len - offset < maxWidth - 3) offset = len - (maxWidth - 3);
  if (offset <= 4) return `${fromUtf8(b.subarray(0, maxWidth - 3))}...`;
  if (maxWidth < 7) return '';
  if (offset + maxWidth - 3 < len) return `...${abbreviateFull(fromUtf8(b.subarray(offset)), 0, maxWidth - 3)}`;
  return `...${fromUtf8(b.subarray(len - (maxWidth - 3)))}`;
}

/** sprig `abbrev width s`: cut to width bytes ending in "...", unchanged below a width of 4. */
export function abbrev(width: unknown, value: unknown): string {
  const w = intArg(width, 'abbrev');
  return w < 4 ? s(value) : abbreviateFull(s(value), 0, w);
}

/** sprig `abbrevboth left right s`: "..." on both sides around the left offset. */
export function abbrevboth(left: unknown, right: unknown, value: unknown): string {
  const l = intArg(left, 'abbrevboth');
  const r = intArg(right, 'abbrevboth');
  if (r < 4 || (l > 0 && r < 7)) return s(value);
  return abbreviateFull(s(value), l, r);
}

/** sprig `initials`: the first byte of each space-separated word (goutils reads bytes as Latin-1). */
export function initials(value: unknown): string {
  let out = '';
  let gap = true;
  for (const byte of utf8(s(value))) {
    if (isGoSpace(byte)) gap = true;
    else if (gap) {
      out += String.fromCharCode(byte);
      gap = false;
    }
  }
  return out;
}

/** sprig `nospace` (goutils DeleteWhiteSpace): drops space bytes; if any, the rest is re-read as Latin-1. */
export function nospace(value: unknown): string {
  const text = s(value);
  const bytes = utf8(text);
  let out = '';
  for (const byte of bytes) if (!isGoSpace(byte)) out += String.fromCharCode(byte);
  return out.length === bytes.length ? text : out;
}

/** goutils WrapCustom over bytes: breaks at spaces before `width`; long words break only if `wrapLong`. */
export function wrapCustom(text: string, widthArg: number, newLine: string, wrapLong: boolean): string {
  const b = utf8(text);
  if (b.length === 0) return '';
  const nl = utf8(newLine === '' ? '\n' : newLine);
  const width = Math.max(widthArg, 1);
  const out: number[] = [];
  const put = (from: number, to: number) => out.push(...b.subarray(from, to));
  let offset = 0;
  while (b.length - offset > width) {
    if (b[offset] === 0x20) {
      offset++;
      continue;
    }
    const space = b.subarray(offset, width + offset + 1).lastIndexOf(0x20);
    if (space >= 0) {
      put(offset, offset + space);
      out.push(...nl);
      offset += space + 1;
    } else if (wrapLong) {
      put(offset, offset + width);
      out.push(...nl);
      offset += width;
    } else {
      const next = b.subarray(width + offset).indexOf(0x20);
      if (next < 0) {
        put(offset, b.length);
        offset = b.length;
      } else {
        put(offset, next + width + offset);
        out.push(...nl);
        offset = next + width + offset + 1;
      }
    }
  }
  put(offset, b.length);
  return fromUtf8(Uint8Array.from(out));
}

/** goutils SwapCase: upper to lower, lower to upper, and a lower letter after a space to title case. */
export function swapcase(value: unknown): string {
  let space = true;
  return [...s(value)]
    .map((ch) => {
      if (isUpper(ch) || isTitle(ch)) {
        space = false;
        return goToLower(ch);
      }
      if (isLower(ch)) {
        const out = space ? goToTitle(ch) : goToUpper(ch);
        space = false;
        return out;
      }
      space = isGoSpace(ch.codePointAt(0) ?? 0);
      return ch;
    })
    .join('');
}

/** goutils Uncapitalize: the first character of each space-separated word in lower case. */
export function untitle(value: unknown): string {
  let next = true;
  return [...s(value)]
    .map((ch) => {
      if (isGoSpace(ch.codePointAt(0) ?? 0)) {
        next = true;
        return ch;
      }
      if (!next) return ch;
      next = false;
      return goToLower(ch);
    })
    .join('');
}

/** strings.Title's separators: ASCII other than letters, digits and `_`; elsewhere spaces only. */
function isTitleSeparator(ch: string): boolean {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp <= 0x7f) return !/[0-9A-Za-z_]/.test(ch);
  if (isLetter(ch) || isDigit(ch)) return false;
  return isGoSpace(cp);
}

/** sprig `title` (strings.Title): each character after a separator in title case. */
export function title(value: unknown): string {
  let previous = ' ';
  return [...s(value)]
    .map((ch) => {
      const out = isTitleSeparator(previous) ? goToTitle(ch) : ch;
      previous = ch;
      return out;
    })
    .join('');
}

/** strings.SplitN: at most n parts (all when n < 0, none when 0); an empty separator splits characters. */
export function goSplitN(text: string, separator: string, n: number): string[] {
  if (n === 0) return [];
  if (separator === '') {
    const chars = [...text];
    const count = n < 0 || n > chars.length ? chars.length : n;
    return count === 0 ? [] : [...chars.slice(0, count - 1), chars.slice(count - 1).join('')];
  }
  const parts = text.split(separator);
  if (n < 0 || parts.length <= n) return parts;
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(separator)];
}

/** sprig `splitn sep n s`: a map `_0`, `_1`, ... of at most n parts. */
export function splitn(separator: unknown, n: unknown, value: unknown): Record<string, string> {
  const parts = goSplitN(s(value), s(separator), intArg(n, 'splitn'));
  return markCreated(Object.fromEntries(parts.map((p, i) => [`_${i}`, p])));
}

/** sprig's strslice (`toStrings`, and what `join` and `sortAlpha` use): nil elements are dropped. */
export function toStrings(value: unknown): string[] {
  if (value === null || value === undefined || value instanceof MissingValue) return [];
  if (!Array.isArray(value)) return [s(value)];
  return value.filter((v) => v !== null && v !== undefined && !(v instanceof MissingValue)).map(s);
}

/** sprig `sortAlpha`: a list's elements as strings in Go's byte order; anything else as one string. */
export function sortAlpha(value: unknown): string[] {
  if (Array.isArray(value)) return toStrings(value).sort(goCompareStrings);
  if (value === null || value === undefined || value instanceof MissingValue) return ['<nil>'];
  return [s(value)];
}

/** sprig `plural one many n`. */
export function plural(one: unknown, many: unknown, count: unknown): string {
  return intArg(count, 'plural') === 1 ? s(one) : s(many);
}
