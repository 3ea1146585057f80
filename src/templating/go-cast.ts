import { goFormat, MissingValue } from './plain-values.js';

/**
 * Go's numbers as template values: a JavaScript number is a float64 (every number in parameters, as JSON
 * decoding gives Go), a bigint is a Go integer (literals like `3`, `len`, and sprig's integer results).
 * The conversions below follow spf13/cast, which sprig uses, and strconv's parsing rules.
 */

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Wraps like Go's int64 arithmetic does on overflow. */
export function wrapInt64(value: bigint): bigint {
  return BigInt.asIntN(64, value);
}

/** Go's `int64(f)` on amd64: truncation, and the minimum int64 for NaN or out-of-range values. */
export function floatToInt64(value: number): bigint {
  if (!Number.isFinite(value)) return INT64_MIN;
  const truncated = BigInt(Math.trunc(value));
  return truncated < INT64_MIN || truncated > INT64_MAX ? INT64_MIN : truncated;
}

/** strconv's rule for `_` in numbers: only between digits, or after a base prefix. */
function underscoreOK(text: string): boolean {
  let s = text.replace(/^[+-]/, '');
  let saw = '^';
  let hex = false;
  if (/^0[bBoOxX]/.test(s)) {
    hex = /^0[xX]/.test(s);
    saw = '0';
    s = s.slice(2);
  }
  for (const ch of s) {
    if (/[0-9]/.test(ch) || (hex && /[a-fA-F]/.test(ch))) saw = '0';
    else if (ch === '_') {
      if (saw !== '0') return false;
      saw = '_';
    } else {
      if (saw === '_') return false;
      saw = '!';
    }
  }
  return saw !== '_';
}

/** strconv.ParseInt(s, base, 64) for base 0 (Go prefixes, `_` separators) or an explicit base; undefined on error. */
export function parseGoInt(text: string, base = 0): bigint | undefined {
  const negative = text.startsWith('-');
  let digits = text.startsWith('-') || text.startsWith('+') ? text.slice(1) : text;
  let radix = base;
  if (base === 0) {
    radix = 10;
    if (/^0[bB]./.test(digits)) [radix, digits] = [2, digits.slice(2)];
    else if (/^0[oO]./.test(digits)) [radix, digits] = [8, digits.slice(2)];
    else if (/^0[xX]./.test(digits)) [radix, digits] = [16, digits.slice(2)];
    else if (digits.startsWith('0')) [radix, digits] = [8, digits.slice(1)];
    if (digits.includes('_')) {
      if (!underscoreOK(text)) return undefined;
      digits = digits.replace(/_/g, '');
    }
  }
  const valid = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, radix);
  if (digits === '' ? !(base === 0 && /^[+-]?0$/.test(text)) : ![...digits.toLowerCase()].every((c) => valid.includes(c))) return undefined;
  let value = 0n;
  for (const c of digits.toLowerCase()) value = value * BigInt(radix) + BigInt(valid.indexOf(c));
  if (negative) value = -value;
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}

const DECIMAL_FLOAT = /^[+-]?(?:[0-9_]+\.?[0-9_]*|\.[0-9_]+)(?:[eE][+-]?[0-9_]+)?$/;
const HEX_FLOAT = /^([+-]?)0[xX]([0-9a-fA-F_]*)\.?([0-9a-fA-F_]*)[pP]([+-]?[0-9_]+)$/;

/** strconv.ParseFloat(s, 64): decimal and hex forms, `inf`/`nan`; undefined on a syntax or range error. */
export function parseGoFloat(text: string): number | undefined {
  const special = /^([+-]?)(inf|infinity)$/i.exec(text);
  if (special) return special[1] === '-' ? -Infinity : Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (!/[0-9]/.test(text) || !underscoreOK(text)) return undefined;
  let value: number;
  const hex = HEX_FLOAT.exec(text);
  if (hex) {
    const [, sign, whole = '', fraction = '', exponent = '0'] = hex;
    const mantissa = BigInt(`0x${(whole + fraction).replace(/_/g, '') || '0'}`);
    value = Number(mantissa) * 2 ** (Number(exponent.replace(/_/g, '')) - 4 * fraction.replace(/_/g, '').length);
    if (sign === '-') value = -value;
  } else if (DECIMAL_FLOAT.test(text)) value = Number(text.replace(/_/g, ''));
  else return undefined;
  return Number.isFinite(value) ? value : undefined;
}

/** cast's trimZeroDecimal: "12.00" becomes "12" before integer parsing. */
function trimZeroDecimal(text: string): string {
  let foundZero = false;
  for (let i = text.length; i > 0; i--) {
    const c = text[i - 1];
    if (c === '.') {
      if (foundZero) return text.slice(0, i - 1);
    } else if (c === '0') foundZero = true;
    else return text;
  }
  return text;
}

/** cast.ToInt64 (and ToInt, the same on 64-bit): anything it cannot convert is 0. */
export function toInt64(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return floatToInt64(value);
  if (typeof value === 'string') return parseGoInt(trimZeroDecimal(value)) ?? 0n;
  if (typeof value === 'boolean') return value ? 1n : 0n;
  return 0n;
}

/** cast.ToFloat64: anything it cannot convert is 0. */
export function toFloat64(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string') return parseGoFloat(value) ?? 0;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return 0;
}

/** fmt.Sprint of one value, as sprig passes it to strconv (nil prints `<nil>`). */
export function sprintOne(value: unknown): string {
  return value === null || value === undefined || value instanceof MissingValue ? '<nil>' : goFormat(value);
}
