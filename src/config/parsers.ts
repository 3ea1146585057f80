/** Parsers for setting text; each throws an Error that says what was expected. */

/** `true`/`false` (also `1`/`0`, `yes`/`no`). */
export function parseBoolean(raw: string): boolean {
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(value)) return true;
  if (['false', '0', 'no'].includes(value)) return false;
  throw new Error(`expected true or false, got "${raw}"`);
}

/** An integer within [min, max]. */
export function integerIn(min: number, max: number): (raw: string) => number {
  return (raw) => {
    const value = Number(raw.trim());
    if (!Number.isInteger(value) || value < min || value > max) throw new Error(`expected an integer from ${min} to ${max}, got "${raw}"`);
    return value;
  };
}

/** A number within [min, max]. */
export function numberIn(min: number, max: number): (raw: string) => number {
  return (raw) => {
    const value = Number(raw.trim());
    if (!Number.isFinite(value) || value < min || value > max) throw new Error(`expected a number from ${min} to ${max}, got "${raw}"`);
    return value;
  };
}

/** A duration such as `30s`, `5m`, `1h`, `250ms` or a plain number of seconds, in milliseconds. */
export function parseDurationMs(raw: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw.trim());
  if (!match?.[1]) throw new Error(`expected a duration such as 30s, 5m or 1h, got "${raw}"`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  return Math.round(Number(match[1]) * unit);
}

/** One of a fixed set of words. */
export function oneOf<T extends string>(allowed: readonly T[]): (raw: string) => T {
  return (raw) => {
    const value = raw.trim();
    if (!(allowed as readonly string[]).includes(value)) throw new Error(`expected one of ${allowed.join(', ')}, got "${raw}"`);
    return value as T;
  };
}

/** A comma-separated list; empty items are dropped. */
export function parseList(raw: string): readonly string[] {
  return Object.freeze(
    raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );
}

/** `host:port` or `:port` (all interfaces). */
export function parseListenAddress(raw: string): { readonly host: string; readonly port: number } {
  const match = /^(.*):(\d+)$/.exec(raw.trim());
  const port = Number(match?.[2]);
  if (!match || !Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`expected host:port or :port, got "${raw}"`);
  return Object.freeze({ host: match[1] || '0.0.0.0', port });
}

/** A redis:// or rediss:// URL. */
export function parseRedisUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error('expected a redis:// or rediss:// URL');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new Error(`expected a redis:// or rediss:// URL, got a ${url.protocol} URL`);
  return url.href;
}

/** A comma-separated list of `host:port` (a Sentinel each). */
export function parseHostPortList(raw: string): ReadonlyArray<{ readonly host: string; readonly port: number }> {
  return Object.freeze(
    parseList(raw).map((item) => {
      const match = /^([^:\s]+|\[[0-9a-fA-F:]+\]):(\d+)$/.exec(item);
      const port = Number(match?.[2]);
      if (!match?.[1] || !Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`expected host:port items, got "${item}"`);
      return Object.freeze({ host: match[1].replace(/^\[(.*)\]$/, '$1'), port });
    }),
  );
}
