/** One page of a list answer, as far as the reflector reads it. */
export interface ListPage<T> {
  metadata?: { resourceVersion?: string; continue?: string };
  items?: T[];
}

// The list's own metadata holds only scalars (resourceVersion, continue, remainingItemCount), so it is a
// brace-free object. Typed lists (Secrets) are encoded kind, apiVersion, metadata, items: it comes first.
// Custom resource lists are encoded with sorted keys: apiVersion, items, kind, metadata: it comes last.
const HEAD_METADATA = /^\s*\{"kind":"[^"\\]*","apiVersion":"[^"\\]*","metadata":(\{[^{}]*\})/;
const TAIL_METADATA = /"metadata":(\{[^{}]*\})\}\s*$/;
/** The tail metadata is short; matching on the last bytes keeps the regex off a large page body. */
const TAIL_WINDOW = 4096;

/**
 * The continue token of a raw list page, read without parsing the page: `''` for the last page, or
 * undefined when the layout is not one of the two the API server writes. It lets the next page be requested
 * while this one is still being parsed; the caller checks it against the parsed page, so a wrong guess costs
 * one wasted request, never a wrong list.
 */
export function peekContinue(text: string): string | undefined {
  const metadata = HEAD_METADATA.exec(text)?.[1] ?? TAIL_METADATA.exec(text.slice(-TAIL_WINDOW))?.[1];
  if (!metadata) return undefined;
  try {
    const parsed = JSON.parse(metadata) as { continue?: unknown } | null;
    const token = parsed?.continue ?? '';
    return typeof token === 'string' ? token : undefined;
  } catch {
    return undefined;
  }
}

/** Parses a list page body, with an error naming the collection when it is not JSON. */
export function parseListPage<T>(text: string, path: string): ListPage<T> {
  try {
    return JSON.parse(text) as ListPage<T>;
  } catch {
    throw new Error(`GET ${path}: the server sent a body that is not JSON: ${text.slice(0, 200)}`);
  }
}
