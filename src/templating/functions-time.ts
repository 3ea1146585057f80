import { TemplateProblem } from './template-problem.js';
import { parseGoInt, wrapInt64 } from './go-cast.js';
import { fn, type FunctionTable } from './template-function.js';

/**
 * sprig's `duration` and `durationRound`, the clock-free time functions. Both switch on the Go type of
 * their argument: a string is parsed, an int64 used as it is, and anything else (a Go int literal, every
 * float64 parameter) counts as zero. An integer here may be int or int64, so it is refused rather than guessed.
 */

const SECOND = 1_000_000_000n;

/** Go's fmtFrac: the fraction of v/10^prec without trailing zeros (and without a point when it is zero). */
function fraction(v: bigint, prec: number): [string, bigint] {
  let digits = '';
  let printed = false;
  let rest = v;
  for (let i = 0; i < prec; i++) {
    const digit = rest % 10n;
    printed ||= digit !== 0n;
    if (printed) digits = digit.toString() + digits;
    rest /= 10n;
  }
  return [printed ? `.${digits}` : '', rest];
}

/** time.Duration.String: `1h2m3.5s`, `1.5ms`, `0s`. */
export function formatDuration(nanoseconds: bigint): string {
  const negative = nanoseconds < 0n;
  let u = negative ? -nanoseconds : nanoseconds;
  let out: string;
  if (u < SECOND) {
    if (u === 0n) return '0s';
    const [prec, unit] = u < 1000n ? [0, 'ns'] : u < 1_000_000n ? [3, '\u00b5s'] : [6, 'ms'];
    const [frac, whole] = fraction(u, prec);
    out = `${whole}${frac}${unit}`;
  } else {
    const [frac, seconds] = fraction(u, 9);
    out = `${seconds % 60n}${frac}s`;
    u = seconds / 60n;
    if (u > 0n) {
      out = `${u % 60n}m${out}`;
      u /= 60n;
      if (u > 0n) out = `${u}h${out}`;
    }
  }
  return negative ? `-${out}` : out;
}

const UNITS: Record<string, bigint> = { ns: 1n, us: 1000n, '\u00b5s': 1000n, '\u03bcs': 1000n, ms: 1_000_000n, s: SECOND, m: 60n * SECOND, h: 3600n * SECOND };
const LIMIT = 1n << 63n;

/** One `[0-9]*(\.[0-9]*)?unit` element of a duration, or undefined if it is malformed. */
function durationElement(text: string): { value: bigint; rest: string } | undefined {
  const m = /^([0-9]*)(?:\.([0-9]*))?([^0-9.]*)/.exec(text);
  const [whole = '', frac, unitText = ''] = m ? [m[1], m[2], m[3]] : [];
  if (!m || (whole === '' && !frac) || unitText === '') return undefined;
  const unit = UNITS[unitText];
  const v = whole === '' ? 0n : BigInt(whole);
  if (unit === undefined || v > LIMIT / unit) return undefined;
  let value = v * unit;
  if (frac) {
    // Go keeps at most the digits that fit in an int64 and scales in float64, as here.
    let f = 0n;
    let scale = 1;
    for (const c of frac) {
      const next = f * 10n + BigInt(c);
      if (next > LIMIT) break;
      [f, scale] = [next, scale * 10];
    }
    value += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
    if (value > LIMIT) return undefined;
  }
  return { value, rest: text.slice(m[0].length) };
}

/** time.ParseDuration ("1h30m", "-1.5s"); undefined where Go reports an error. */
export function parseDuration(text: string): bigint | undefined {
  const negative = text.startsWith('-');
  let rest = /^[-+]/.test(text) ? text.slice(1) : text;
  if (rest === '0') return 0n;
  if (rest === '') return undefined;
  let total = 0n;
  while (rest !== '') {
    const element = durationElement(rest);
    if (!element) return undefined;
    total += element.value;
    if (total > LIMIT) return undefined;
    rest = element.rest;
  }
  if (negative) return -total;
  return total > LIMIT - 1n ? undefined : total;
}

function refuseInteger(fn: string, value: bigint): never {
  throw new TemplateProblem(
    `${fn}: cannot tell whether the integer ${value} is Go's int (which sprig treats as 0) or int64 (a count); pass a string such as "${value}" instead`,
  );
}

/** sprig `duration seconds`: a string of seconds (or an int64) as a Go duration. */
function duration(value: unknown): string {
  if (typeof value === 'bigint') refuseInteger('duration', value);
  const seconds = typeof value === 'string' ? (parseGoInt(value, 10) ?? 0n) : 0n;
  return formatDuration(wrapInt64(seconds * SECOND));
}

const DAY = 24n * 3600n * SECOND;
const ROUNDED: [bigint, string][] = [
  [365n * DAY, 'y'],
  [30n * DAY, 'mo'],
  [DAY, 'd'],
  [3600n * SECOND, 'h'],
  [60n * SECOND, 'm'],
  [SECOND, 's'],
];

/** sprig `durationRound`: a duration string (or int64 nanoseconds) as its largest whole unit, like `2h`. */
function durationRound(value: unknown): string {
  if (typeof value === 'bigint') refuseInteger('durationRound', value);
  const d = typeof value === 'string' ? (parseDuration(value) ?? 0n) : 0n;
  const u = d < 0n ? -d : d;
  for (const [size, unit] of ROUNDED) if (u > size) return `${u / size}${unit}`;
  return '0s';
}

/** The clock-free time functions by name. */
export const TIME_FUNCTIONS: FunctionTable = {
  duration: fn(duration),
  durationRound: fn(durationRound),
};
