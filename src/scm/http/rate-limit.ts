/** Header names are lower case, as node gives them. */
export type ResponseHeaders = Readonly<Record<string, string>>;

/**
 * How long the provider asks us to wait before the next request, in ms, or undefined when it does not. Only
 * a 403, 429 or 5xx answer can ask: `Retry-After` (seconds or an HTTP date, any provider), else, when the answer says the limit is spent
 * (`X-RateLimit-Remaining: 0` on GitHub and Gitea, `RateLimit-Remaining: 0` on GitLab), the reset time
 * (`X-RateLimit-Reset` / `RateLimit-Reset`, seconds since the epoch).
 */
export function requestedWaitMs(status: number, headers: ResponseHeaders, now: number): number | undefined {
  // A successful (or plainly failed) answer is used as it is, whatever headers it carries.
  if (status !== 403 && status !== 429 && status < 500) return undefined;
  const retryAfter = headers['retry-after'];
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const at = Date.parse(retryAfter);
    if (Number.isFinite(at)) return Math.max(0, at - now);
  }
  if (status !== 403 && status !== 429) return undefined;
  const remaining = headers['x-ratelimit-remaining'] ?? headers['ratelimit-remaining'];
  if (remaining === undefined || Number(remaining) > 0) return status === 429 ? 1000 : undefined;
  const reset = Number(headers['x-ratelimit-reset'] ?? headers['ratelimit-reset']);
  return Number.isFinite(reset) ? Math.max(0, reset * 1000 - now) : 60_000;
}
