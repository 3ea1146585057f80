import type { ApiClient, ApiRequestOptions } from '../../../scm/http/api-client.js';
import { collectPages, nextLink } from '../../../scm/http/pagination.js';
import { listOf, type AnswerObject } from './answers.js';

/**
 * Every item of a listing paged by `Link: <…>; rel="next"` (GitHub, Gitea). The links are followed as the
 * provider wrote them (their query carries the page size); the client refuses one that leaves the origin.
 */
export function listByLink(client: ApiClient, path: string, signal: AbortSignal, options: ApiRequestOptions = {}): Promise<AnswerObject[]> {
  return collectPages(
    () => client.request(path, signal, options),
    (next) => client.request(next, signal, { headers: options.headers }),
    (page) => nextLink(page.headers),
    (page) => listOf(page),
  );
}
