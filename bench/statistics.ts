// Small statistics shared by the benchmarks.

/** The median of `values` (the mean of the two middle ones for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

/** `n` rounded to `digits` decimal places (for the figures a benchmark prints and writes). */
export function roundTo(n: number, digits = 2): number {
  return Math.round(n * 10 ** digits) / 10 ** digits;
}
