import { TemplateProblem } from './template-problem.js';
import { intArg } from './functions-text.js';
import { parseGoInt, sprintOne, toFloat64, toInt64, wrapInt64 } from './go-cast.js';
import { fn, type FunctionTable } from './template-function.js';
import { stringValue } from './plain-values.js';

/**
 * sprig's arithmetic. Integer functions convert with cast.ToInt64 and return Go integers (bigints, with
 * int64 wrap-around); float functions return float64s (numbers). addf, subf, mulf and divf compute in
 * decimal as sprig does (shopspring/decimal), so `addf 0.1 0.2` is 0.3, not 0.30000000000000004.
 */

/** Longest list `until`/`untilStep`/`seq` may build, so one call cannot exhaust memory (sprig has no limit). */
export const MAX_SEQUENCE = 1_000_000;

/** A decimal: coefficient × 10^exponent. */
interface Decimal {
  coef: bigint;
  exp: number;
}

/** decimal.NewFromFloat: the shortest decimal that reads back as the float (JavaScript prints the same digits). */
function decimalOf(value: number, fn: string): Decimal {
  if (!Number.isFinite(value)) throw new TemplateProblem(`${fn}: Cannot create a Decimal from ${value > 0 ? '+Inf' : value < 0 ? '-Inf' : 'NaN'}`);
  const [mantissa = '0', exponent = '0'] = String(value).split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  return { coef: BigInt(whole + fraction), exp: Number(exponent) - fraction.length };
}

function aligned(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const exp = Math.min(a.exp, b.exp);
  return [a.coef * 10n ** BigInt(a.exp - exp), b.coef * 10n ** BigInt(b.exp - exp), exp];
}

/** decimal's Div: 16 decimal places, the last rounded half away from zero. */
function decimalDiv(a: Decimal, b: Decimal, fn: string): Decimal {
  if (b.coef === 0n) throw new TemplateProblem(`${fn}: decimal division by 0`);
  const shift = a.exp - b.exp + 16;
  const num = shift >= 0 ? a.coef * 10n ** BigInt(shift) : a.coef;
  const den = shift >= 0 ? b.coef : b.coef * 10n ** BigInt(-shift);
  let q = num / den;
  const r = num - q * den;
  const abs = (x: bigint) => (x < 0n ? -x : x);
  if (2n * abs(r) >= abs(den)) q += num < 0n !== den < 0n ? -1n : 1n;
  return { coef: q, exp: -16 };
}

type DecimalOp = 'add' | 'sub' | 'mul' | 'div';

/** sprig's execDecimalOp: folds the operands with one decimal operation and returns the float64 result. */
function decimalFold(fn: string, op: DecimalOp, first: unknown, rest: unknown[]): number {
  let acc = decimalOf(toFloat64(first), fn);
  for (const operand of rest) {
    const d = decimalOf(toFloat64(operand), fn);
    if (op === 'mul') acc = { coef: acc.coef * d.coef, exp: acc.exp + d.exp };
    else if (op === 'div') acc = decimalDiv(acc, d, fn);
    else {
      const [x, y, exp] = aligned(acc, d);
      acc = { coef: op === 'add' ? x + y : x - y, exp };
    }
  }
  return Number(`${acc.coef}e${acc.exp}`);
}

/** sprig `round x places [roundOn=.5]`. */
export function round(value: unknown, places: unknown, ...roundOn: unknown[]): number {
  const threshold = roundOn.length > 0 ? toFloat64(roundOn[0]) : 0.5;
  const pow = 10 ** intArg(places, 'round');
  const digit = pow * toFloat64(value);
  const fraction = digit - Math.trunc(digit);
  return (fraction >= threshold ? Math.ceil(digit) : Math.floor(digit)) / pow;
}

/** sprig's untilStep(start, stop, step) as Go ints, bounded by {@link MAX_SEQUENCE}. */
export function untilStep(start: unknown, stop: unknown, step: unknown): bigint[] {
  const [a, b, c] = [BigInt(intArg(start, 'untilStep')), BigInt(intArg(stop, 'untilStep')), BigInt(intArg(step, 'untilStep'))];
  return sequence(a, b, c);
}

function sequence(start: bigint, stop: bigint, step: bigint): bigint[] {
  if (stop < start ? step >= 0n : step <= 0n) return [];
  const span = stop < start ? start - stop : stop - start;
  const magnitude = step < 0n ? -step : step;
  const count = (span + magnitude - 1n) / magnitude;
  if (count > BigInt(MAX_SEQUENCE)) throw new TemplateProblem(`the sequence would have ${count} elements; at most ${MAX_SEQUENCE} are allowed`);
  return Array.from({ length: Number(count) }, (_, i) => start + BigInt(i) * step);
}

/** sprig `seq`: like the Unix command, 1 to n, start to end, or start step end, as one spaced string. */
export function seq(...params: unknown[]): string {
  const p = params.map((v) => BigInt(intArg(v, 'seq')));
  const [a = 0n, b = 0n, c = 0n] = p;
  const text = (list: bigint[]) => list.join(' ');
  if (p.length === 1) return text(sequence(1n, a + (a < 1n ? -1n : 1n), a < 1n ? -1n : 1n));
  if (p.length === 2) return text(sequence(a, b + (b < a ? -1n : 1n), b < a ? -1n : 1n));
  if (p.length === 3) {
    if (c < a && b > 0n) return '';
    return text(sequence(a, c + (c < a ? -1n : 1n), b));
  }
  return '';
}

const int64Fold = (values: unknown[], f: (acc: bigint, v: bigint) => bigint, start: bigint): bigint =>
  values.reduce<bigint>((acc, v) => wrapInt64(f(acc, toInt64(v))), start);

function divide(a: unknown, b: unknown, fn: 'div' | 'mod'): bigint {
  const divisor = toInt64(b);
  if (divisor === 0n) throw new TemplateProblem(`${fn}: integer divide by zero`);
  return wrapInt64(fn === 'div' ? toInt64(a) / divisor : toInt64(a) % divisor);
}

/** The arithmetic functions by name. */
export const MATH_FUNCTIONS: FunctionTable = {
  add: fn((...v) => int64Fold(v, (a, b) => a + b, 0n)),
  add1: fn((v) => wrapInt64(toInt64(v) + 1n)),
  sub: fn((a, b) => wrapInt64(toInt64(a) - toInt64(b))),
  mul: fn((first, ...rest) => int64Fold(rest, (a, b) => a * b, toInt64(first))),
  div: fn((a, b) => divide(a, b, 'div')),
  mod: fn((a, b) => divide(a, b, 'mod')),
  max: fn((first, ...rest) => int64Fold(rest, (a, b) => (b > a ? b : a), toInt64(first))),
  biggest: fn((first, ...rest) => int64Fold(rest, (a, b) => (b > a ? b : a), toInt64(first))),
  min: fn((first, ...rest) => int64Fold(rest, (a, b) => (b < a ? b : a), toInt64(first))),
  int: fn(toInt64),
  int64: fn(toInt64),
  float64: fn(toFloat64),
  atoi: fn((v) => parseGoInt(stringValue(v), 10) ?? 0n),
  toDecimal: fn((v) => parseGoInt(sprintOne(v), 8) ?? 0n),
  add1f: fn((v) => decimalFold('add1f', 'add', v, [1n])),
  addf: fn((...v) => decimalFold('addf', 'add', 0, v)),
  subf: fn((first, ...rest) => decimalFold('subf', 'sub', first, rest)),
  mulf: fn((first, ...rest) => decimalFold('mulf', 'mul', first, rest)),
  divf: fn((first, ...rest) => decimalFold('divf', 'div', first, rest)),
  maxf: fn((first, ...rest) => rest.reduce<number>((a, b) => Math.max(a, toFloat64(b)), toFloat64(first))),
  minf: fn((first, ...rest) => rest.reduce<number>((a, b) => Math.min(a, toFloat64(b)), toFloat64(first))),
  floor: fn((v) => Math.floor(toFloat64(v))),
  ceil: fn((v) => Math.ceil(toFloat64(v))),
  round: fn(round),
  seq: fn(seq),
  until: fn((n) => {
    const count = BigInt(intArg(n, 'until'));
    return sequence(0n, count, count < 0n ? -1n : 1n);
  }),
  untilStep: fn(untilStep),
};
