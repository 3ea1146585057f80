import type { CharTest } from './regex-class.js';

/** The tree of a parsed Go regular expression, Go's syntax errors, and the parts of its parser that need no state. */

/** Empty-width assertions. */
export type AssertKind = 'bot' | 'eot' | 'bol' | 'eol' | 'wb' | 'nwb';

/** A node of a parsed regular expression. */
export type RegexNode =
  | { t: 'char'; test: CharTest }
  | { t: 'assert'; k: AssertKind }
  | { t: 'cat'; subs: RegexNode[] }
  | { t: 'alt'; subs: RegexNode[] }
  | { t: 'cap'; index: number; sub: RegexNode }
  | { t: 'rep'; min: number; max: number; greedy: boolean; sub: RegexNode }
  | { t: 'empty' };

/** A pattern Go's regexp.Compile rejects. */
export class RegexSyntaxError extends Error {
  constructor(code: string, expr: string) {
    super(`error parsing regexp: ${code}: \`${expr}\``);
  }
}

/** A parsed pattern: its tree and the name of each capture group (index 0 is the whole match). */
export interface ParsedRegex {
  root: RegexNode;
  names: string[];
}

const isAlnum = (c: string | undefined) => c !== undefined && /^[0-9A-Za-z]$/.test(c);
const isOctal = (c: string | undefined) => c !== undefined && /^[0-7]$/.test(c);

/** Go's repeatIsValid: nested counted repetitions may not multiply past 1000. */
export function repeatIsValid(node: RegexNode, limit: number): boolean {
  let n = limit;
  if (node.t === 'rep' && node.max !== 0) {
    const m = node.max < 0 ? node.min : node.max;
    if (m > n) return false;
    if (m > 0) n = Math.trunc(n / m);
  }
  const subs = node.t === 'cat' || node.t === 'alt' ? node.subs : node.t === 'cap' || node.t === 'rep' ? [node.sub] : [];
  return subs.every((sub) => repeatIsValid(sub, n));
}

/** Go's parseEscape: the code point of the escape at `at` (octal, hex, control or punctuation) and where it ends. */
export function parseEscape(chars: string[], at: number): [number, number] {
  let pos = at + 2;
  const c = chars[at + 1];
  const invalid = () => new RegexSyntaxError('invalid escape sequence', chars.slice(at, pos).join(''));
  if (c === undefined) throw new RegexSyntaxError('trailing backslash at end of expression', '');
  if (c === '0' || (/^[1-7]$/.test(c) && isOctal(chars[pos]))) {
    let value = Number(c);
    for (let i = 1; i < 3 && isOctal(chars[pos]); i++) value = value * 8 + Number(chars[pos++]);
    return [value, pos];
  }
  if (c === 'x') {
    if (chars[pos] === '{') {
      const close = chars.indexOf('}', pos);
      const hex = close < 0 ? '' : chars.slice(pos + 1, close).join('');
      pos = close < 0 ? chars.length : close + 1;
      if (!/^[0-9A-Fa-f]+$/.test(hex) || parseInt(hex, 16) > 0x10ffff) throw invalid();
      return [parseInt(hex, 16), pos];
    }
    const hex = chars.slice(pos, pos + 2).join('');
    pos += 2;
    if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw invalid();
    return [parseInt(hex, 16), pos];
  }
  const controls: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };
  if (Object.hasOwn(controls, c)) return [controls[c] as number, pos];
  if ((c.codePointAt(0) ?? 0) < 0x80 && !isAlnum(c)) return [c.codePointAt(0) ?? 0, pos];
  throw invalid();
}
