/**
 * The value go-yaml v2 holds after Argo CD's toYaml has taken its detour through JSON: sigs.k8s.io/yaml (v1.6.0)
 * Marshal runs json.Marshal, reads that text back with go-yaml v2 (go.yaml.in/yaml/v2 v2.4.2) as YAML 1.1 and
 * only then writes YAML (go-yaml-emit.ts). The detour leaves marks: numbers become what go-yaml's resolver reads
 * from Go's JSON number text (integers up to uint64, otherwise float64), a raw U+0085 in a string is a line break
 * to the YAML scanner (folded like any quoted line break), characters the YAML reader refuses fail, and so do
 * over-long map keys. This module also holds the encoder's choices made before the emitter runs: map keys in
 * go-yaml's "natural" order and strings double-quoted when they would read back as another YAML 1.1 type.
 */

/** A failure sigs.k8s.io/yaml reports for the value; the message is the one it returns. */
export class GoYamlError extends Error {
  override readonly name = 'GoYamlError';
}

/** How the encoder asks for a scalar to be written; the emitter may still pick another style. */
export type Style = 'plain' | 'single' | 'double' | 'literal';

/** A scalar: its text and the style the encoder asks for. */
export interface Scalar {
  readonly kind: 'scalar';
  readonly text: string;
  /** The text as code points: go-yaml's emitter works character by character. */
  readonly chars: readonly number[];
  readonly style: Style;
}
/** A list (written `[]` when empty). */
export interface Sequence {
  readonly kind: 'sequence';
  readonly items: readonly YamlNode[];
}
/** A map (written `{}` when empty). */
export interface Mapping {
  readonly kind: 'mapping';
  /** Entries in go-yaml's key order. */
  readonly entries: readonly (readonly [Scalar, YamlNode])[];
}
/** A decoded value. */
export type YamlNode = Scalar | Sequence | Mapping;

/** The code points of a (well-formed) string. */
export function codePoints(text: string): number[] {
  const chars: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i) ?? 0;
    chars.push(cp);
    if (cp > 0xffff) i++;
  }
  return chars;
}

const plain = (text: string): Scalar => ({ kind: 'scalar', text, chars: codePoints(text), style: 'plain' });

/** An object json.Marshal would write as a map (the data here comes from JSON or template functions). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** go-yaml's scanner refuses JSON nested deeper than this (its flow level limit). */
const MAX_DEPTH = 10_000;

/** JSON-shaped data as go-yaml decodes json.Marshal's text of it; fails where sigs.k8s.io/yaml fails. */
export function decodeJson(value: unknown, depth = 0): YamlNode {
  if (value === null || value === undefined) return plain('null');
  if (typeof value === 'boolean') return plain(value ? 'true' : 'false');
  if (typeof value === 'number') return plain(numberText(value));
  if (typeof value === 'bigint') return plain(integerLiteralText(value.toString()));
  if (typeof value === 'string') return stringScalar(jsonStringValue(value));
  if (depth + 1 > MAX_DEPTH) throw new GoYamlError(`yaml: exceeded max depth of ${MAX_DEPTH}`);
  if (Array.isArray(value)) return { kind: 'sequence', items: value.map((item: unknown) => decodeJson(item, depth + 1)) };
  if (isPlainObject(value)) {
    const keys = Object.keys(value).map((key) => {
      const text = jsonKeyValue(key);
      return { key, text, chars: codePoints(text) };
    });
    keys.sort((a, b) => (keyLess(a.chars, b.chars) ? -1 : keyLess(b.chars, a.chars) ? 1 : 0));
    return {
      kind: 'mapping',
      entries: keys.map(({ key, text, chars }) => [stringScalar(text, chars), decodeJson(value[key], depth + 1)] as const),
    };
  }
  throw new GoYamlError(`error marshaling into JSON: json: unsupported type: ${typeof value}`);
}

/** Lone surrogates (invalid UTF-16): Go's encoders write invalid text as U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const wellFormed = (text: string) => text.replace(LONE_SURROGATE, '\uFFFD');

/** The characters the YAML reader refuses in its input; json.Marshal writes them unescaped. */
const REFUSED_BY_READER = /[\u007f-\u0084\u0086-\u009f\ufffe\uffff]/;

/**
 * A string as it comes back from the JSON text. Go writes invalid UTF-16 (a lone surrogate here) as U+FFFD.
 * json.Marshal escapes control characters, quotes, `<>&` and U+2028/U+2029 but writes U+0085 (NEL) raw, and
 * in a YAML double-quoted scalar a raw NEL is a line break: spaces around it go, a single break folds to a
 * space, and n breaks in a row leave n-1 newlines. A break also moves the scanner to a new line, where
 * `---` or `...` followed by a blank would end the document.
 */
function jsonStringValue(text: string): string {
  const value = wellFormed(text);
  if (REFUSED_BY_READER.test(value)) throw new GoYamlError('yaml: control characters are not allowed');
  if (!value.includes('\u0085')) return value;
  if (/\u0085(?:---|\.\.\.)[ \u0085]/.test(value)) throw new GoYamlError('yaml: found unexpected document indicator');
  return value.replace(/ *\u0085[ \u0085]*/g, (run) => {
    const breaks = run.split('\u0085').length - 1;
    return breaks === 1 ? ' ' : '\n'.repeat(breaks - 1);
  });
}

/**
 * A map key as it comes back from the JSON text. The YAML scanner only takes a key that sits on one line and
 * whose `:` follows within 1024 characters of its start, so a key with a raw NEL, or whose JSON form
 * (quotes and escapes included) is longer than 1024 characters, makes the JSON text unreadable.
 */
function jsonKeyValue(key: string): string {
  const value = wellFormed(key);
  if (REFUSED_BY_READER.test(value)) throw new GoYamlError('yaml: control characters are not allowed');
  if (value.includes('\u0085') || jsonQuotedLength(value) > 1024) throw new GoYamlError("yaml: did not find expected ',' or '}'");
  return value;
}

/** Length in characters of json.Marshal's quoted form of a string (HTML characters escaped, as it does). */
function jsonQuotedLength(text: string): number {
  let length = 2;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp === 0x22 || cp === 0x5c || cp === 0x08 || cp === 0x0c || cp === 0x0a || cp === 0x0d || cp === 0x09) length += 2;
    else if (cp < 0x20 || cp === 0x3c || cp === 0x3e || cp === 0x26 || cp === 0x2028 || cp === 0x2029) length += 6;
    else length += 1;
  }
  return length;
}

/** The scalar go-yaml's encoder makes of a string (encode.go stringv): its requested style. */
function stringScalar(text: string, chars = codePoints(text)): Scalar {
  // A line break asks for a literal block; a string that would read back as another type (or as a YAML 1.1
  // base-60 number) is double-quoted; anything else is plain if the emitter allows it.
  const style: Style = text.includes('\n') ? 'literal' : resolvesToString(text) && !isBase60Float(text) ? 'plain' : 'double';
  return { kind: 'scalar', text, chars, style };
}

// ---------------------------------------------------------------------------------------------------------
// Numbers: Go's JSON text of the value, read back by go-yaml's resolver, written by the encoder.

/**
 * A float64 as the YAML text: json.Marshal writes it as JavaScript would (same shortest digits and the same
 * exponent cut-offs, 1e-6 and 1e21), and go-yaml reads integer-looking text as an int or uint64, so only
 * non-integers, huge and tiny values stay floats, written with strconv's 'g' format.
 */
function numberText(value: number): string {
  if (!Number.isFinite(value)) {
    throw new GoYamlError(`error marshaling into JSON: json: unsupported value: ${Number.isNaN(value) ? 'NaN' : value > 0 ? '+Inf' : '-Inf'}`);
  }
  const json = String(value);
  return /^-?\d+$/.test(json) ? integerLiteralText(json) : goFloatText(value);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** Decimal integer text as go-yaml decodes it: an int64 or a uint64 when it fits, a float64 otherwise. */
function integerLiteralText(decimal: string): string {
  const n = BigInt(decimal);
  if ((n >= INT64_MIN && n <= INT64_MAX) || (n >= 0n && n <= UINT64_MAX)) return n.toString();
  return goFloatText(Number(decimal));
}

/** strconv.FormatFloat(f, 'g', -1, 64): shortest digits, exponent form below 1e-4 or from 1e6 on (`1e+06`). */
function goFloatText(value: number): string {
  const [mantissa = '', exp = '0'] = value.toExponential().split('e');
  const exponent = Number(exp);
  if (exponent >= -4 && exponent < 6) return String(value);
  const digits = String(Math.abs(exponent)).padStart(2, '0');
  return `${mantissa}e${exponent < 0 ? '-' : '+'}${digits}`;
}

// ---------------------------------------------------------------------------------------------------------
// YAML 1.1 resolution (resolve.go): would a plain scalar with this text read back as a string?

/** Words go-yaml reads as booleans, nulls, infinities, NaN or the merge key. */
const RESOLVED_WORDS = new Set(
  [
    'y Y yes Yes YES true True TRUE on On ON n N no No NO false False FALSE off Off OFF',
    '~ null Null NULL .nan .NaN .NAN .inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF <<',
  ]
    .join(' ')
    .split(' ')
    .concat(''),
);

/** True if go-yaml's resolver reads the plain scalar `text` as a string (encode.go asks before writing plain). */
function resolvesToString(text: string): boolean {
  // The first byte decides what the text may be; other first characters are always strings (so `<<`,
  // which starts with none of them, is never looked up).
  const first = text.charAt(0);
  if (text !== '' && !/[-+0-9yYnNtTfFoO~.]/.test(first)) return true;
  if (RESOLVED_WORDS.has(text)) return false;
  if (/[yYnNtTfFoO~]/.test(first)) return true;
  if (first === '.') return !isGoFloat(text);
  if (/[0-9]/.test(first) && isTimestamp(text)) return false;
  // Underscores are dropped before the number parsers run (`1_000` is 1000).
  const digits = text.replaceAll('_', '');
  if (goParseInt(digits, 0) !== undefined || goParseUint(digits, 0) !== undefined) return false;
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(digits) && Number.isFinite(Number(digits))) return false;
  if (digits.startsWith('0b')) return goParseInt(digits.slice(2), 2) === undefined && goParseUint(digits.slice(2), 2) === undefined;
  if (digits.startsWith('-0b')) return goParseInt(`-${digits.slice(3)}`, 2) === undefined;
  return true;
}

/** strconv.ParseFloat for text starting with `.`: decimal digits, `_` only between digits, no overflow. */
function isGoFloat(text: string): boolean {
  const digitsWithSeparators = '[0-9](?:_?[0-9])*';
  const shape = new RegExp(`^\\.${digitsWithSeparators}(?:[eE][-+]?${digitsWithSeparators})?$`);
  return shape.test(text) && Number.isFinite(Number(text.replaceAll('_', '')));
}

/** strconv.ParseUint(text, base, 64) with base 0 (0b, 0o, 0x and leading-0 octal prefixes) or a fixed base. */
function goParseUint(text: string, base: number): bigint | undefined {
  let digits = text;
  let radix = base;
  if (base === 0) {
    radix = 10;
    if (text.startsWith('0')) {
      const prefix = text.length >= 3 ? text.charAt(1).toLowerCase() : '';
      radix = prefix === 'b' ? 2 : prefix === 'o' ? 8 : prefix === 'x' ? 16 : 8;
      digits = prefix === 'b' || prefix === 'o' || prefix === 'x' ? text.slice(2) : text.slice(1);
      // "0" alone is octal with no digits after the prefix: zero.
      if (digits === '' && text === '0') return 0n;
    }
  }
  if (digits === '') return undefined;
  let n = 0n;
  for (let i = 0; i < digits.length; i++) {
    // Go lower-cases a byte by setting bit 0x20, so only ASCII letters are digits past 9.
    const c = digits.charCodeAt(i);
    const letter = c | 0x20;
    const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : letter >= 0x61 && letter <= 0x7a ? letter - 0x61 + 10 : 99;
    if (d >= radix) return undefined;
    n = n * BigInt(radix) + BigInt(d);
    if (n > UINT64_MAX) return undefined;
  }
  return n;
}

/** strconv.ParseInt(text, base, 64): an optional sign, then ParseUint, within int64. */
function goParseInt(text: string, base: number): bigint | undefined {
  const negative = text.startsWith('-');
  const unsigned = goParseUint(text.startsWith('-') || text.startsWith('+') ? text.slice(1) : text, base);
  if (unsigned === undefined) return undefined;
  const n = negative ? -unsigned : unsigned;
  return n >= INT64_MIN && n <= INT64_MAX ? n : undefined;
}

/** go-yaml v2's parseTimestamp: four digits and `-`, then one of its time.Parse layouts must match. */
function isTimestamp(text: string): boolean {
  if (!/^[0-9]{4}-/.test(text)) return false;
  return TIMESTAMP_LAYOUTS.some((layout) => layout.test(text) && validTimestamp(text));
}

/**
 * go-yaml's layouts as time.Parse reads them: "2006-1-2T15:4:5.999999999Z07:00", the same with a lower-case
 * `t`, "2006-1-2 15:4:5.999999999" (a layout space matches one or more spaces) and "2006-1-2". Months, days,
 * hours, minutes and seconds take one or two digits, the fraction any number after `.` or `,`, the zone `Z`
 * or `±hh:mm`.
 */
const TIMESTAMP_LAYOUTS = [
  /^\d{4}-\d\d?-\d\d?[Tt]\d\d?:\d\d?:\d\d?(?:[.,]\d+)?(?:Z|[-+]\d\d:\d\d)$/,
  /^\d{4}-\d\d?-\d\d? +\d\d?:\d\d?:\d\d?(?:[.,]\d+)?$/,
  /^\d{4}-\d\d?-\d\d?$/,
];

/** time.Parse's range checks for a text one of the layouts matched. */
function validTimestamp(text: string): boolean {
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = (text.match(/\d+/g) ?? []).map(Number);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return false;
  const zone = /([-+])(\d\d):(\d\d)$/.exec(text);
  if (zone && (Number(zone[2]) > 24 || Number(zone[3]) > 60)) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day >= 1 && day <= daysInMonth;
}

/** encode.go isBase60Float: `1:20`-style YAML 1.1 sexagesimal numbers, which go-yaml quotes on output. */
function isBase60Float(text: string): boolean {
  return /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/.test(text);
}

// ---------------------------------------------------------------------------------------------------------
// Key order (sorter.go keyList.Less): letters sort after other characters, runs of digits compare as numbers.

const LETTER = /^\p{L}$/u;
const DIGIT = /^\p{Nd}$/u;
/** unicode.IsLetter (ASCII answered directly: keys are mostly ASCII). */
const isLetter = (cp: number) => (cp < 0x80 ? (cp | 0x20) >= 0x61 && (cp | 0x20) <= 0x7a : LETTER.test(String.fromCodePoint(cp)));
/** unicode.IsDigit; undefined past the end of the key. */
const isDigit = (cp: number | undefined) => cp !== undefined && (cp < 0x80 ? cp >= 0x30 && cp <= 0x39 : DIGIT.test(String.fromCodePoint(cp)));

/**
 * go-yaml's key ordering. It is not transitive for some key sets ("1" < "01" < "0a" < "1"); go-yaml then
 * sorts Go's randomly ordered map keys into one of several orders, so no single output is Argo CD's.
 */
function keyLess(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x === y) continue;
    const xLetter = isLetter(x);
    const yLetter = isLetter(y);
    if (xLetter && yLetter) return x < y;
    if (xLetter || yLetter) return yLetter;
    // Numbers: a run of digits compares by value; a zero inside a number that started with another digit
    // counts as a number that is not zero.
    let xNumber = 0n;
    let yNumber = 0n;
    if (x === 0x30 || y === 0x30) {
      for (let j = i - 1; j >= 0 && isDigit(a[j]); j--) {
        if (a[j] !== 0x30) {
          xNumber = 1n;
          yNumber = 1n;
          break;
        }
      }
    }
    let xEnd = i;
    // Go accumulates in an int64 that wraps, and takes any Unicode digit's code point minus '0'.
    for (; xEnd < a.length && isDigit(a[xEnd]); xEnd++) xNumber = BigInt.asIntN(64, xNumber * 10n + BigInt((a[xEnd] ?? 0) - 0x30));
    let yEnd = i;
    for (; yEnd < b.length && isDigit(b[yEnd]); yEnd++) yNumber = BigInt.asIntN(64, yNumber * 10n + BigInt((b[yEnd] ?? 0) - 0x30));
    if (xNumber !== yNumber) return xNumber < yNumber;
    if (xEnd !== yEnd) return xEnd < yEnd;
    return x < y;
  }
  return a.length < b.length;
}
