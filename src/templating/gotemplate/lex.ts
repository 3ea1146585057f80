import { checkActionCount, TemplateProblem } from '../template-problem.js';

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
  | { kind: 'number'; value: number }
  | { kind: 'punct'; value: '|' | '(' | ')' | ':=' | '=' | ',' }
  | { kind: 'chained'; names: string[] };

const TOKEN =
  /\s*(?:(\.(?:[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)?)|(\$[A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)|("(?:[^"\\]|\\.)*")|(`[^`]*`)|(-?(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?))|([A-Za-z_][A-Za-z0-9_]*)|(:=|[|(),=])|('(?:[^'\\]|\\.)*'|\S))/y;

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
    else if (dq !== undefined) tokens.push({ kind: 'string', value: JSON.parse(dq.replace(/\\x([0-9a-fA-F]{2})/g, '\\u00$1')) as string });
    else if (raw !== undefined) tokens.push({ kind: 'string', value: raw.slice(1, -1) });
    else if (num !== undefined) {
      const value = Number(num);
      if (!Number.isFinite(value)) throw new TemplateProblem(`${where}: the number ${num} is out of range`);
      tokens.push({ kind: 'number', value });
    } else if (ident !== undefined) tokens.push({ kind: 'ident', name: ident });
    else if (punct !== undefined) tokens.push({ kind: 'punct', value: punct as '|' });
    else throw new TemplateProblem(`${where}: unexpected '${other ?? ''}' (character constants and other Go syntax are not supported)`);
  }
  return tokens;
}
