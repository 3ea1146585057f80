import { checkActionCount, TemplateProblem } from '../template-problem.js';
import { parseGoInt } from '../go-cast.js';
import { fromUtf8, utf8 } from '../go-strings.js';

/** Splits Go-template text into text runs and `{{ }}` actions, applying `{{-`/`-}}` whitespace trimming. */

/** A run of literal text or the inside of one `{{ ... }}` action. */
export type GoChunk = { kind: 'text'; value: string } | { kind: 'action'; source: string; body: string; line: number; column: number };

/** Finds 1-based line and column of offsets in one text; offsets must not decrease between calls. */
class PositionFinder {
  private line = 1;
  private lineStart = 0;
  private scanned = 0;
  constructor(private readonly text: string) {}

  /** Where `offset` sits, for error messages; linear over the whole text across all calls. */
  at(offset: number): { line: number; column: number } {
    for (; this.scanned < offset; this.scanned++) {
      if (this.text.charCodeAt(this.scanned) === 10) {
        this.line++;
        this.lineStart = this.scanned + 1;
      }
    }
    return { line: this.line, column: offset - this.lineStart + 1 };
  }
}

/** Offset of the `}}` closing the action whose body starts at `from`, skipping quoted strings. */
function findActionEnd(text: string, from: number): number {
  let quote: string | undefined;
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === '`' || ch === "'") quote = ch;
    else if (ch === '}' && text[i + 1] === '}') return i;
  }
  return -1;
}

/** Splits a Go template into chunks; comments are dropped, trim markers applied. */
export function lexGoTemplate(text: string): GoChunk[] {
  const chunks: GoChunk[] = [];
  let cursor = 0;
  let trimNextText = false;
  const positions = new PositionFinder(text);
  let actions = 0;
  while (cursor <= text.length) {
    const open = text.indexOf('{{', cursor);
    let literal = text.slice(cursor, open < 0 ? text.length : open);
    if (trimNextText) literal = literal.trimStart();
    if (open < 0) {
      if (literal) chunks.push({ kind: 'text', value: literal });
      break;
    }
    const trimLeft = /^\{\{-[ \t\r\n]/.test(text.slice(open, open + 4));
    if (trimLeft) literal = literal.trimEnd();
    if (literal) chunks.push({ kind: 'text', value: literal });
    const bodyStart = open + (trimLeft ? 3 : 2);
    const close = findActionEnd(text, bodyStart);
    const where = positions.at(open);
    if (close < 0) throw new TemplateProblem(`unclosed action at line ${where.line}, column ${where.column}: '{{' has no matching '}}'`);
    const trimRight = /[ \t\r\n]-$/.test(text.slice(bodyStart, close));
    const body = text.slice(bodyStart, trimRight ? close - 1 : close).trim();
    const source = text.slice(open, close + 2);
    if (!(body.startsWith('/*') && body.endsWith('*/'))) chunks.push({ kind: 'action', source, body, ...where });
    checkActionCount(++actions);
    trimNextText = trimRight;
    cursor = close + 2;
  }
  return chunks;
}

/** One token inside an action. */
export type GoToken =
  | { kind: 'field'; names: string[] }
  | { kind: 'variable'; name: string; names: string[] }
  | { kind: 'ident'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number | bigint }
  | { kind: 'punct'; value: '|' | '(' | ')' | ':=' | '=' | ',' }
  | { kind: 'chained'; names: string[] };

const TOKEN =
  /\s*(?:(\.(?:[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)?)|(\$[A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)|("(?:[^"\\]|\\.)*")|(`[^`]*`)|(-?(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?))|([A-Za-z_][A-Za-z0-9_]*)|(:=|[|(),=])|('(?:[^'\\]|\\.)*'|\S))/y;

const SIMPLE_ESCAPES: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, '"': 34 };

/** strconv.Unquote of a double-quoted Go string: `\x` and octal escapes are bytes, `\u`/`\U` characters. */
function unquote(quoted: string, where: string): string {
  const body = quoted.slice(1, -1);
  const bytes: number[] = [];
  const bad = () => new TemplateProblem(`${where}: invalid syntax in the string ${quoted}`);
  for (let i = 0; i < body.length;) {
    const cp = body.codePointAt(i) ?? 0;
    if (cp === 10) throw bad();
    if (cp !== 92) {
      bytes.push(...utf8(String.fromCodePoint(cp)));
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const e = body[i + 1] ?? '';
    const digits = (n: number, pattern: RegExp) => {
      const text = body.slice(i + 2, i + 2 + n);
      if (text.length !== n || !pattern.test(text)) throw bad();
      i += 2 + n;
      return parseInt(text, pattern.source.includes('7') ? 8 : 16);
    };
    if (Object.hasOwn(SIMPLE_ESCAPES, e)) {
      bytes.push(SIMPLE_ESCAPES[e] as number);
      i += 2;
    } else if (e === 'x') bytes.push(digits(2, /^[0-9a-fA-F]+$/));
    else if (/[0-7]/.test(e)) {
      i--;
      const value = digits(3, /^[0-7]+$/);
      if (value > 255) throw bad();
      bytes.push(value);
    } else if (e === 'u' || e === 'U') {
      const value = digits(e === 'u' ? 4 : 8, /^[0-9a-fA-F]+$/);
      if (value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) throw bad();
      bytes.push(...utf8(String.fromCodePoint(value)));
    } else throw bad();
  }
  return fromUtf8(Uint8Array.from(bytes));
}

/** A number literal as Go evaluates it: without `.`, `e` or `E` (or in hex) an integer, otherwise a float64. */
function numberValue(text: string, where: string): number | bigint {
  if (/^-?0[xX]/.test(text) || !/[.eE]/.test(text)) {
    // Go reads a leading 0 as octal ("017" is 15; "08" is an error).
    const value = parseGoInt(text);
    if (value === undefined || BigInt.asIntN(64, value) !== value) throw new TemplateProblem(`${where}: the number ${text} is out of range`);
    return value;
  }
  const value = Number(text);
  if (!Number.isFinite(value)) throw new TemplateProblem(`${where}: the number ${text} is out of range`);
  return value;
}

/** Tokenizes the body of one action; anything unrecognised is reported with its text. */
export function tokenizeAction(body: string, where: string): GoToken[] {
  const tokens: GoToken[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < body.length) {
    const m = TOKEN.exec(body);
    if (!m) break;
    if (m[0].trim() === '') break;
    const adjacent = !/^\s/.test(m[0]);
    const [, field, variable, varFields, dq, raw, num, ident, punct, other] = m;
    if (field !== undefined) {
      const names = field === '.' ? [] : field.slice(1).split('.');
      const last = tokens[tokens.length - 1];
      if (adjacent && last?.kind === 'punct' && last.value === ')') tokens.push({ kind: 'chained', names });
      else tokens.push({ kind: 'field', names });
    } else if (variable !== undefined) tokens.push({ kind: 'variable', name: variable, names: varFields ? varFields.slice(1).split('.') : [] });
    else if (dq !== undefined) tokens.push({ kind: 'string', value: unquote(dq, where) });
    else if (raw !== undefined) tokens.push({ kind: 'string', value: raw.slice(1, -1) });
    else if (num !== undefined) tokens.push({ kind: 'number', value: numberValue(num, where) });
    else if (ident !== undefined) tokens.push({ kind: 'ident', name: ident });
    else if (punct !== undefined) tokens.push({ kind: 'punct', value: punct as '|' });
    else throw new TemplateProblem(`${where}: unexpected '${other ?? ''}' (character constants and other Go syntax are not supported)`);
  }
  return tokens;
}
