import { classTest, perlClass, posixClass, range, unicodeClass } from './regex-class.js';
import { parseEscape, RegexSyntaxError, repeatIsValid, type AssertKind, type ParsedRegex, type RegexNode } from './regex-syntax.js';

export { RegexSyntaxError, type AssertKind, type RegexNode } from './regex-syntax.js';

/**
 * A parser for Go's regular expression syntax (RE2, as regexp/syntax accepts it with Perl flags), written
 * to accept and reject exactly what Go does, since sprig's regexMatch turns a syntax error into `false`.
 */

interface Flags {
  fold: boolean;
  multiLine: boolean;
  dotNL: boolean;
  ungreedy: boolean;
}

const MAX_DEPTH = 1000;

class Parser {
  private readonly chars: string[];
  private pos = 0;
  private flags: Flags = { fold: false, multiLine: false, dotNL: false, ungreedy: false };
  private depth = 0;
  readonly names: string[] = [''];

  constructor(private readonly pattern: string) {
    this.chars = [...pattern];
  }

  private peek(k = 0): string | undefined {
    return this.chars[this.pos + k];
  }

  private rest(): string {
    return this.chars.slice(this.pos).join('');
  }

  private ahead(text: string): boolean {
    return this.chars.slice(this.pos, this.pos + [...text].length).join('') === text;
  }

  private error(code: string, from = this.pos, to = this.pos + 1): RegexSyntaxError {
    return new RegexSyntaxError(code, this.chars.slice(from, to).join(''));
  }

  parse(): RegexNode {
    const root = this.alternation();
    if (this.pos < this.chars.length) throw new RegexSyntaxError('unexpected )', this.pattern);
    return root;
  }

  private alternation(): RegexNode {
    const alternatives = [this.concat()];
    while (this.peek() === '|') {
      this.pos++;
      alternatives.push(this.concat());
    }
    return alternatives.length === 1 ? (alternatives[0] as RegexNode) : { t: 'alt', subs: alternatives };
  }

  private concat(): RegexNode {
    const items: RegexNode[] = [];
    let lastRepeat = false;
    for (let c = this.peek(); c !== undefined && c !== '|' && c !== ')'; c = this.peek()) {
      const start = this.pos;
      const counted = c === '{' ? this.braces() : undefined;
      if (c === '*' || c === '+' || c === '?' || counted) {
        const [min, max] = counted ? [counted.min, counted.max] : c === '*' ? [0, -1] : c === '+' ? [1, -1] : [0, 1];
        this.pos = counted ? counted.end : this.pos + 1;
        this.repeat(items, min, max, start, lastRepeat, counted !== undefined);
        lastRepeat = true;
        continue;
      }
      this.atom(items);
      lastRepeat = false;
    }
    return items.length === 1 ? (items[0] as RegexNode) : items.length === 0 ? { t: 'empty' } : { t: 'cat', subs: items };
  }

  private repeat(items: RegexNode[], min: number, max: number, start: number, lastRepeat: boolean, counted: boolean): void {
    let greedy = !this.flags.ungreedy;
    if (this.peek() === '?') {
      this.pos++;
      greedy = !greedy;
    }
    if (lastRepeat) throw this.error('invalid nested repetition operator', start - 1, this.pos);
    const sub = items.pop();
    if (!sub) throw this.error('missing argument to repetition operator', start, this.pos);
    const node: RegexNode = { t: 'rep', min, max, greedy, sub };
    if (counted && (min >= 2 || max >= 2) && !repeatIsValid(node, 1000)) throw this.error('invalid repeat count', start, this.pos);
    items.push(node);
  }

  /** `{n}`, `{n,}` or `{n,m}` at the cursor, or undefined where Go reads a literal `{`. */
  private braces(): { min: number; max: number; end: number } | undefined {
    const m = /^\{(0|[1-9][0-9]*)(?:(,)(0|[1-9][0-9]*)?)?\}/.exec(this.rest());
    if (!m) return undefined;
    const num = (s: string) => (s.length > 8 ? -1 : Number(s));
    const min = num(m[1] ?? '');
    const max = m[2] === undefined ? min : m[3] === undefined ? -1 : num(m[3]);
    const end = this.pos + m[0].length;
    if (min < 0 || min > 1000 || max > 1000 || (max >= 0 && min > max) || (m[3] !== undefined && max < 0))
      throw this.error('invalid repeat count', this.pos, end);
    return { min, max, end };
  }

  private literal(ch: string): RegexNode {
    const cp = ch.codePointAt(0) ?? 0;
    return { t: 'char', test: this.flags.fold ? classTest(range(cp, cp), false, true) : (c) => c === cp };
  }

  private atom(items: RegexNode[]): void {
    const c = this.peek() ?? '';
    if (c === '(') return this.group(items);
    if (c === '[') return void items.push(this.charClass());
    if (c === '\\') return this.escape(items);
    this.pos++;
    if (c === '.') items.push({ t: 'char', test: this.flags.dotNL ? () => true : (cp) => cp !== 10 });
    else if (c === '^') items.push({ t: 'assert', k: this.flags.multiLine ? 'bol' : 'bot' });
    else if (c === '$') items.push({ t: 'assert', k: this.flags.multiLine ? 'eol' : 'eot' });
    else items.push(this.literal(c));
  }

  private group(items: RegexNode[]): void {
    const start = this.pos;
    if (++this.depth > MAX_DEPTH) throw new RegexSyntaxError('expression nests too deeply', this.pattern);
    const saved = { ...this.flags };
    let index = -1;
    if (this.peek(1) === '?') {
      const named = /^\(\?P?<([^>]*)>/.exec(this.rest());
      if (this.ahead('(?P<') || this.ahead('(?<')) {
        if (!named || !/^[A-Za-z0-9_]+$/.test(named[1] ?? ''))
          throw this.error('invalid named capture', start, named ? start + [...named[0]].length : this.chars.length);
        index = this.names.push(named[1] ?? '') - 1;
        this.pos += [...named[0]].length;
      } else if (this.flagGroup()) {
        this.depth--;
        return;
      }
    } else {
      this.pos++;
      index = this.names.push('') - 1;
    }
    const sub = this.alternation();
    if (this.peek() !== ')') throw new RegexSyntaxError('missing closing )', this.pattern);
    this.pos++;
    this.flags = saved;
    this.depth--;
    items.push(index >= 0 ? { t: 'cap', index, sub } : sub);
  }

  /** `(?flags)` (true: nothing more to parse) or `(?flags:` (false: a group body follows). */
  private flagGroup(): boolean {
    const start = this.pos;
    this.pos += 2;
    let negate = false;
    let sawFlag = false;
    const next = { ...this.flags };
    for (let c = this.peek(); c !== undefined; c = this.peek()) {
      this.pos++;
      if (c === 'i' || c === 'm' || c === 's' || c === 'U') {
        const key = ({ i: 'fold', m: 'multiLine', s: 'dotNL', U: 'ungreedy' } as const)[c];
        next[key] = !negate;
        sawFlag = true;
      } else if (c === '-' && !negate) {
        negate = true;
        sawFlag = false;
      } else if ((c === ':' || c === ')') && !(negate && !sawFlag)) {
        this.flags = next;
        return c === ')';
      } else break;
    }
    throw this.error('invalid or unsupported Perl syntax', start, this.pos);
  }

  private escape(items: RegexNode[]): void {
    const c = this.peek(1);
    const simple: Record<string, AssertKind> = { A: 'bot', b: 'wb', B: 'nwb', z: 'eot' };
    if (c !== undefined && Object.hasOwn(simple, c)) {
      this.pos += 2;
      return void items.push({ t: 'assert', k: simple[c] as AssertKind });
    }
    if (c === 'C') throw this.error('invalid escape sequence', this.pos, this.pos + 2);
    if (c === 'Q') {
      const end = this.chars.indexOf('\\', this.pos + 2);
      let stop = end;
      while (stop >= 0 && this.chars[stop + 1] !== 'E') stop = this.chars.indexOf('\\', stop + 1);
      const text = this.chars.slice(this.pos + 2, stop < 0 ? undefined : stop);
      this.pos = stop < 0 ? this.chars.length : stop + 2;
      return void items.push(...text.map((ch) => this.literal(ch)));
    }
    const set = this.classEscape();
    if (set !== undefined) return void items.push({ t: 'char', test: classTest(set, false, this.flags.fold) });
    items.push(this.literal(String.fromCodePoint(this.escaped())));
  }

  /** A `\pN`, `\p{Name}` or Perl class (`\d`...) at the cursor as class text, or undefined. */
  private classEscape(): string | undefined {
    const c = this.peek(1);
    if (c === 'p' || c === 'P') {
      const start = this.pos;
      let name: string;
      if (this.peek(2) === '{') {
        const close = this.chars.indexOf('}', this.pos);
        if (close < 0) throw this.error('invalid character class range', start, this.chars.length);
        name = this.chars.slice(this.pos + 3, close).join('');
        this.pos = close + 1;
      } else {
        if (this.peek(2) === undefined) throw this.error('invalid character class range', start, this.pos + 2);
        name = this.peek(2) ?? '';
        this.pos += 3;
      }
      const negated = (c === 'P') !== name.startsWith('^');
      const text = unicodeClass(name.replace(/^\^/, ''), negated);
      if (text === undefined) throw this.error('invalid character class range', start, this.pos);
      return text;
    }
    const perl = c === undefined ? undefined : perlClass(c);
    if (perl !== undefined) this.pos += 2;
    return perl;
  }

  /** An escaped character at the cursor (see parseEscape). */
  private escaped(): number {
    const [cp, next] = parseEscape(this.chars, this.pos);
    this.pos = next;
    return cp;
  }

  private charClass(): RegexNode {
    const start = this.pos++;
    const negated = this.peek() === '^';
    if (negated) this.pos++;
    const parts: string[] = [];
    for (let first = true; this.peek() !== ']' || first; first = false) {
      if (this.peek() === undefined) throw new RegexSyntaxError('missing closing ]', this.chars.slice(start).join(''));
      if (this.ahead('[:')) {
        const after = this.rest().slice(2);
        const close = after.indexOf(':]');
        if (close >= 0) {
          const name = after.slice(0, close);
          const text = posixClass(name.replace(/^\^/, ''), name.startsWith('^'), this.flags.fold);
          if (text === undefined) throw this.error('invalid character class range', this.pos, this.pos + [...name].length + 4);
          parts.push(text);
          this.pos += [...name].length + 4;
          continue;
        }
      }
      const set = this.peek() === '\\' ? this.classEscape() : undefined;
      if (set !== undefined) {
        parts.push(set);
        continue;
      }
      const rangeStart = this.pos;
      const lo = this.classChar(start);
      let hi = lo;
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.pos++;
        hi = this.classChar(start);
        if (hi < lo) throw this.error('invalid character class range', rangeStart, this.pos);
      }
      parts.push(range(lo, hi));
    }
    this.pos++;
    return { t: 'char', test: classTest(parts.join(''), negated, this.flags.fold) };
  }

  private classChar(start: number): number {
    const c = this.peek();
    if (c === undefined) throw new RegexSyntaxError('missing closing ]', this.chars.slice(start).join(''));
    if (c === '\\') return this.escaped();
    this.pos++;
    return c.codePointAt(0) ?? 0;
  }
}

/** Parses a Go regular expression; throws RegexSyntaxError where Go's regexp.Compile fails. */
export function parseRegex(pattern: string): ParsedRegex {
  const parser = new Parser(pattern);
  const root = parser.parse();
  return { root, names: parser.names };
}
