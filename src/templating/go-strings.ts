/**
 * Go's view of strings, which several sprig functions depend on: strings are UTF-8 bytes (some helpers
 * walk bytes, not characters), Unicode predicates follow package unicode, and case mapping is one rune
 * to one rune (Go's simple mappings, where JavaScript's toUpperCase may give several characters).
 */

const encoder = new TextEncoder();

/** The UTF-8 bytes of a string. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Length of the valid UTF-8 sequence at `i`, or 0 if the byte there does not start one (Go's DecodeRune). */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i] ?? 0;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => (bytes[i + k] ?? 0) >= lo && (bytes[i + k] ?? 0) <= hi;
  if (b < 0x80) return 1;
  if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
  if (b === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if (b === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (b >= 0xe1 && b <= 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (b === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b >= 0xf1 && b <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

const decoder = new TextDecoder();

/** Bytes back to text; each byte of an invalid sequence becomes U+FFFD, as Go's encoders write it. */
export function fromUtf8(bytes: Uint8Array): string {
  let out = '';
  let start = 0;
  for (let i = 0; i < bytes.length;) {
    const n = sequenceLength(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    out += `${decoder.decode(bytes.subarray(start, i))}\uFFFD`;
    i++;
    start = i;
  }
  return out + decoder.decode(bytes.subarray(start));
}

/** unicode.IsSpace: the Latin-1 spaces (including U+0085, U+00A0), and White_Space elsewhere. */
export function isGoSpace(cp: number): boolean {
  if (cp <= 0xff) return cp === 0x20 || (cp >= 0x09 && cp <= 0x0d) || cp === 0x85 || cp === 0xa0;
  return /\p{White_Space}/u.test(String.fromCodePoint(cp));
}

const UPPER = /^\p{Lu}$/u;
const LOWER = /^\p{Ll}$/u;
const TITLE = /^\p{Lt}$/u;
const LETTER = /^\p{L}$/u;
const NUMBER = /^\p{N}$/u;
const DIGIT = /^\p{Nd}$/u;
const PUNCT = /^\p{P}$/u;

/** unicode.IsUpper of one character. */
export const isUpper = (ch: string) => UPPER.test(ch);
/** unicode.IsLower. */
export const isLower = (ch: string) => LOWER.test(ch);
/** unicode.IsTitle. */
export const isTitle = (ch: string) => TITLE.test(ch);
/** unicode.IsLetter. */
export const isLetter = (ch: string) => LETTER.test(ch);
/** unicode.IsNumber (any number category). */
export const isNumber = (ch: string) => NUMBER.test(ch);
/** unicode.IsDigit (decimal digits). */
export const isDigit = (ch: string) => DIGIT.test(ch);
/** unicode.IsPunct. */
export const isPunct = (ch: string) => PUNCT.test(ch);

/** One-to-one mappings JavaScript gets wrong for Go: the dotted capital I and the title-case digraphs. */
const LOWER_SPECIAL: Record<string, string> = { '\u0130': 'i' };
const TITLE_SPECIAL: Record<string, string> = {
  '\u01c4': '\u01c5',
  '\u01c5': '\u01c5',
  '\u01c6': '\u01c5',
  '\u01c7': '\u01c8',
  '\u01c8': '\u01c8',
  '\u01c9': '\u01c8',
  '\u01ca': '\u01cb',
  '\u01cb': '\u01cb',
  '\u01cc': '\u01cb',
  '\u01f1': '\u01f2',
  '\u01f2': '\u01f2',
  '\u01f3': '\u01f2',
};

/** A mapping that must give exactly one character, like Go's; otherwise the character stays. */
function single(ch: string, mapped: string): string {
  return [...mapped].length === 1 ? mapped : ch;
}

/** unicode.ToUpper of one character. */
export function goToUpper(ch: string): string {
  return single(ch, ch.toUpperCase());
}

/** unicode.ToLower of one character. */
export function goToLower(ch: string): string {
  return LOWER_SPECIAL[ch] ?? single(ch, ch.toLowerCase());
}

/** unicode.ToTitle of one character (upper case except for the digraphs and Georgian letters, which stay). */
export function goToTitle(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  if ((cp >= 0x10d0 && cp <= 0x10fa) || (cp >= 0x10fd && cp <= 0x10ff)) return ch;
  return TITLE_SPECIAL[ch] ?? goToUpper(ch);
}

/** strings.ToUpper / strings.ToLower: rune by rune with the simple mappings. */
export function goUpperString(text: string): string {
  return /^\p{ASCII}*$/u.test(text) ? text.toUpperCase() : [...text].map(goToUpper).join('');
}

/** strings.ToLower with the simple mappings. */
export function goLowerString(text: string): string {
  return /^\p{ASCII}*$/u.test(text) ? text.toLowerCase() : [...text].map(goToLower).join('');
}

/** Go's string ordering (bytes of UTF-8, the same as code point order), which differs from UTF-16 order. */
export function goCompareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return x.length < y.length ? -1 : x.length > y.length ? 1 : 0;
}
