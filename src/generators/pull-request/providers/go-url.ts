// Go's URL helpers, reproduced because the SDKs Argo CD uses build their request URLs with them and
// the requests must be the same byte for byte.

/** Bytes Go's `url.PathEscape` leaves as they are: unreserved characters plus `$&+:=@`. */
const PATH_SAFE = /^[A-Za-z0-9\-_.~$&+:=@]$/;

/** Go's `url.PathEscape`: one path segment, `/`, `;`, `,`, `?`, spaces and non-ASCII bytes percent-encoded. */
export function goPathEscape(segment: string): string {
  let out = '';
  for (const byte of Buffer.from(segment, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += byte < 0x80 && PATH_SAFE.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A query with its keys in byte order, as Go's `url.Values.Encode` writes them; undefined values are left out. */
export function goQuery(query: Readonly<Record<string, string | number | undefined>>): Record<string, string | number> {
  const sorted: Record<string, string | number> = {};
  for (const key of Object.keys(query).sort()) {
    const value = query[key];
    if (value !== undefined) sorted[key] = value;
  }
  return sorted;
}

/** The positive whole number `text` holds (Go's `strconv.Atoi` > 0), else undefined. */
export function positiveInteger(text: string | null | undefined): number | undefined {
  if (text === null || text === undefined || !/^[+-]?\d+$/.test(text.trim())) return undefined;
  const value = Number(text.trim());
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}
