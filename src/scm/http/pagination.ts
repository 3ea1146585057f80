import type { ApiResponse } from './api-client.js';
import { ScmApiError } from './errors.js';

/** Most pages any one listing may follow; a provider that never stops paging is an error, not a hang. */
export const MAX_PAGES = 1000;

/** The `rel="next"` target of an RFC 8288 `Link` header (GitHub, Gitea, GitLab), if any. */
export function nextLink(headers: Readonly<Record<string, string>>): string | undefined {
  const link = headers['link'];
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const match = /<([^>]*)>\s*;(.*)/.exec(part.trim());
    if (match && /\brel="?next"?/.test(match[2] ?? '')) return match[1];
  }
  return undefined;
}

/**
 * Follows a listing to its end: `first` fetches the first page, `next` names the following one (a path or
 * same-origin URL) or undefined on the last page, `items` reads a page's entries.
 */
export async function collectPages<T>(
  first: () => Promise<ApiResponse>,
  fetchPage: (next: string) => Promise<ApiResponse>,
  next: (page: ApiResponse) => string | undefined,
  items: (page: ApiResponse) => readonly T[],
): Promise<T[]> {
  const all: T[] = [];
  let page = await first();
  for (let count = 1; ; count++) {
    all.push(...items(page));
    const following = next(page);
    if (following === undefined) return all;
    if (count >= MAX_PAGES) throw new ScmApiError(`${page.url}: more than ${MAX_PAGES} pages; refusing to follow further`, 0);
    page = await fetchPage(following);
  }
}
