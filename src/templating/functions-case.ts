import { goToLower, goToUpper, isGoSpace, isLetter, isNumber, isPunct, isUpper } from './go-strings.js';
import { stringValue } from './plain-values.js';

/**
 * sprig's `camelcase`, `snakecase` and `kebabcase`, ported from huandu/xstrings v1.5.0 (ToPascalCase,
 * ToSnakeCase, ToKebabCase) step by step, quirks included, so words split exactly where Argo CD splits them.
 * U+FFFD stands for the invalid bytes xstrings skips (Go decodes both as utf8.RuneError).
 */

const ERROR = '\uFFFD';
const isConnector = (ch: string) => ch === '-' || ch === '_' || isGoSpace(ch.codePointAt(0) ?? 0);

/** xstrings' isAlphabet: a letter that is not a CJK ideograph. */
function isAlphabet(ch: string): boolean {
  if (!isLetter(ch)) return false;
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 0x3400) return true;
  return !((cp >= 0x4e00 && cp <= 0x9fcc) || (cp >= 0x3400 && cp <= 0x4d85) || (cp >= 0x20000 && cp <= 0x2b81d));
}

/** xstrings' ToPascalCase: connectors (`-`, `_`, spaces) dropped and the next letter upper-cased. */
export function camelcase(value: unknown): string {
  const chars = [...stringValue(value)];
  if (chars.length === 0) return '';
  let out = '';
  let i = 0;
  let r0 = '';
  let firstUpper = false;
  while (i < chars.length) {
    r0 = chars[i++] ?? '';
    if (!isConnector(r0)) {
      firstUpper = isUpper(r0);
      r0 = goToUpper(r0);
      break;
    }
    out += r0;
  }
  if (i >= chars.length) return out + r0;
  while (i < chars.length) {
    const r1 = r0;
    r0 = chars[i++] ?? '';
    if (isConnector(r0) && isConnector(r1)) {
      out += r1;
      continue;
    }
    if (isConnector(r1)) {
      firstUpper = isUpper(r0);
      r0 = goToUpper(r0);
    } else {
      if (firstUpper) {
        if (isUpper(r0)) r0 = goToLower(r0);
        else firstUpper = false;
      }
      out += r1;
    }
  }
  return out + r0;
}

const enum Word {
  Invalid,
  Number,
  Upper,
  Alphabet,
  Connector,
  Punct,
  Other,
}

/** xstrings' nextValidRune: the next character that is not U+FFFD, how many were read, or `prev` at the end. */
function nextValid(chars: string[], at: number, prev: string): [string, number] {
  let size = 0;
  for (let i = at; i < chars.length; i++) {
    size++;
    if (chars[i] !== ERROR) return [chars[i] ?? '', size];
  }
  return [prev, size];
}

/** The end of a run of characters accepted by `keep`, from `end` (xstrings' word loops). */
function runEnd(chars: string[], end: number, prev: string, keep: (ch: string) => boolean): number {
  let r = prev;
  let stop = end;
  for (let rest = end; rest < chars.length;) {
    let size: number;
    [r, size] = nextValid(chars, rest, r);
    if (!keep(r)) break;
    rest += size;
    stop = rest;
  }
  return stop;
}

const lowerLetter = (ch: string) => isAlphabet(ch) && !isUpper(ch);

/** The end of a word that starts with the capital at `at` (ending at `end`): "Word", "HTTP" (of "HTTPStatus"), "A". */
function upperWordEnd(chars: string[], end: number, first: string): number {
  if (end >= chars.length) return end;
  let [r, size] = nextValid(chars, end, first);
  if (isAlphabet(r) && !isUpper(r)) return runEnd(chars, end + size, r, lowerLetter);
  if (!isUpper(r)) return end;
  let rest = end + size;
  let previous = size;
  let stop = rest;
  while (rest < chars.length) {
    [r, size] = nextValid(chars, rest, r);
    if (!isUpper(r)) break;
    previous = size;
    rest += size;
    stop = rest;
  }
  // "HTTPStatus" is "HTTP" and "Status": the last capital starts the next word.
  return rest < chars.length && isAlphabet(r) ? stop - previous : stop;
}

/** xstrings' nextWord: the type and end of the word starting at `at`. */
function nextWord(chars: string[], at: number): [Word, number] {
  if (at >= chars.length) return [Word.Invalid, at];
  const [r, size] = nextValid(chars, at, ERROR);
  const end = at + size;
  if (r === ERROR) return [Word.Invalid, end];
  if (isConnector(r)) return [Word.Connector, runEnd(chars, end, r, isConnector)];
  if (isPunct(r)) return [Word.Punct, runEnd(chars, end, r, isPunct)];
  if (isUpper(r)) return [Word.Upper, upperWordEnd(chars, end, r)];
  if (isAlphabet(r)) return [Word.Alphabet, runEnd(chars, end, r, lowerLetter)];
  if (isNumber(r)) return [Word.Number, runEnd(chars, end, r, isNumber)];
  return [Word.Other, runEnd(chars, end, r, (ch) => !(isConnector(ch) || isAlphabet(ch) || isNumber(ch) || isPunct(ch)))];
}

/** xstrings' camelCaseToLowerCase: words in lower case joined by `connector`, walking word by word. */
class LowerCaser {
  private readonly chars: string[];
  private out = '';
  private type = Word.Invalid;
  private start = 0;
  private end = 0;

  constructor(
    text: string,
    private readonly connector: string,
  ) {
    this.chars = [...text];
  }

  private lower(type: Word, from: number, to: number): void {
    const word = this.chars.slice(from, to);
    if (type !== Word.Upper && type !== Word.Connector) this.out += word.join('');
    else this.out += word.map((ch) => (isConnector(ch) ? this.connector : isUpper(ch) ? goToLower(ch) : ch)).join('');
  }

  private next(): Word {
    this.start = this.end;
    [this.type, this.end] = nextWord(this.chars, this.start);
    return this.type;
  }

  /** Writes the letters and numbers that follow, then a connector unless the next word is one. */
  private glued(): void {
    while (this.type === Word.Alphabet || this.type === Word.Number) {
      this.lower(this.type, this.start, this.end);
      this.next();
    }
    if (this.type !== Word.Invalid && this.type !== Word.Punct && this.type !== Word.Connector) this.out += this.connector;
  }

  /** After a word that is not a number, connector or punctuation. */
  private afterWord(): void {
    if (this.type !== Word.Number) {
      if (this.type !== Word.Connector && this.type !== Word.Punct) this.out += this.connector;
      return;
    }
    if (this.end >= this.chars.length) return;
    const [numberStart, numberEnd] = [this.start, this.end];
    const following = this.next();
    if (following !== Word.Alphabet) {
      // A number followed by a capital is part of the previous word ("Bld4Floor" is "bld4_floor").
      this.lower(Word.Number, numberStart, numberEnd);
      if (following !== Word.Connector && following !== Word.Punct) this.out += this.connector;
      return;
    }
    // Lower case letters after a number: the connector goes before the number ("HTTP2xx" is "http_2xx").
    this.out += this.connector;
    this.lower(Word.Number, numberStart, numberEnd);
    this.glued();
  }

  convert(): string {
    if (this.chars.length === 0) return '';
    this.next();
    while (this.end < this.chars.length) {
      if (this.type !== Word.Connector) this.lower(this.type, this.start, this.end);
      const [prev, lastStart, lastEnd] = [this.type, this.start, this.end];
      this.next();
      if (prev === Word.Number) this.glued();
      else if (prev === Word.Connector) this.lower(prev, lastStart, lastEnd);
      else if (prev !== Word.Punct) this.afterWord();
    }
    this.lower(this.type, this.start, this.end);
    return this.out;
  }
}

/** sprig `snakecase`. */
export const snakecase = (value: unknown): string => new LowerCaser(stringValue(value), '_').convert();

/** sprig `kebabcase`. */
export const kebabcase = (value: unknown): string => new LowerCaser(stringValue(value), '-').convert();
