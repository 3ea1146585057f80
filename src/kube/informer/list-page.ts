/** One page of a list answer, as far as the reflector reads it. */
export interface ListPage<T> {
  metadata?: { resourceVersion?: string; continue?: string };
  items?: T[];
}

// The list's own metadata holds only scalars (resourceVersion, continue, remainingItemCount), so it is a
// brace-free object. Typed lists (Secrets) are encoded kind, apiVersion, metadata, items: it comes first.
// Custom resource lists are encoded with sorted keys: apiVersion, items, kind, metadata: it comes last.
// Plain string search, no RegExp: V8 keeps the subject of the last RegExp match alive, which would pin a
// whole page body (megabytes for one-page lists) in memory after the list.
const HEAD_PREFIX = '{"kind":"';
const KEY = '"metadata":{';
/** How far into the body the leading metadata may start: after a kind and an apiVersion. */
const HEAD_WINDOW = 512;

/**
 * The continue token of a raw list page, read without parsing the page: `''` for the last page, or
 * undefined when the layout is not one of the two the API server writes. It lets the next page be requested
 * while this one is still being parsed; the caller checks it against the parsed page, so a wrong guess costs
 * one wasted request, never a wrong list.
 */
export function peekContinue(text: string): string | undefined {
  const metadata = text.startsWith(HEAD_PREFIX) ? leadingMetadata(text) : trailingMetadata(text);
  if (metadata === undefined) return undefined;
  try {
    const parsed = JSON.parse(metadata) as { continue?: unknown } | null;
    const token = parsed?.continue ?? '';
    return typeof token === 'string' ? token : undefined;
  } catch {
    return undefined;
  }
}

/** `{"kind":"…","apiVersion":"…","metadata":{…}` : the metadata object, if the body starts that way. */
function leadingMetadata(text: string): string | undefined {
  const apiVersion = text.indexOf('","apiVersion":"', HEAD_PREFIX.length);
  const key = text.indexOf('",' + KEY, apiVersion + 1);
  if (apiVersion < 0 || key < 0 || key > HEAD_WINDOW) return undefined;
  if (text.slice(HEAD_PREFIX.length, key).split('"').length !== 5) return undefined; // just the kind and apiVersion strings before it
  const start = key + 2 + KEY.length - 1;
  const end = text.indexOf('}', start);
  return end < 0 || text.lastIndexOf('{', end) !== start ? undefined : text.slice(start, end + 1);
}

/** `…,"metadata":{…}}` at the very end (a trailing newline allowed): the metadata object, if there. */
function trailingMetadata(text: string): string | undefined {
  const body = text.trimEnd();
  if (!body.endsWith('}}')) return undefined;
  const start = body.lastIndexOf('{', body.length - 2);
  if (start < 0 || body.indexOf('}', start) !== body.length - 2) return undefined; // brace-free object
  return body.slice(start - KEY.length + 1, start) === KEY.slice(0, -1) ? body.slice(start, body.length - 1) : undefined;
}

/** Parses a list page body, with an error naming the collection when it is not JSON. */
export function parseListPage<T>(text: string, path: string): ListPage<T> {
  try {
    return JSON.parse(text) as ListPage<T>;
  } catch {
    throw new Error(`GET ${path}: the server sent a body that is not JSON: ${text.slice(0, 200)}`);
  }
}
