import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiClient, type ApiClientOptions } from '../../../src/scm/http/api-client.js';
import { ScmApiError, ScmRateLimitedError } from '../../../src/scm/http/errors.js';
import { requestedWaitMs } from '../../../src/scm/http/rate-limit.js';
import { json, startLocalApi, type LocalApi } from './local-api.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const signal = (): AbortSignal => new AbortController().signal;

describe('requestedWaitMs', () => {
  const cases: [string, number, Record<string, string>, number | undefined][] = [
    ['Retry-After in seconds', 429, { 'retry-after': '120' }, 120_000],
    ['Retry-After with a fraction', 503, { 'retry-after': '1.5' }, 1500],
    ['Retry-After as an HTTP date', 503, { 'retry-after': new Date(NOW + 90_000).toUTCString() }, 90_000],
    ['Retry-After as a date already past', 429, { 'retry-after': new Date(NOW - 90_000).toUTCString() }, 0],
    ['a negative Retry-After', 429, { 'retry-after': '-5' }, 0],
    ['an unreadable Retry-After on a 429 (the 1 s default)', 429, { 'retry-after': 'soon' }, 1000],
    ['an unreadable Retry-After on a 503', 503, { 'retry-after': 'soon' }, undefined],
    ['a bare 429', 429, {}, 1000],
    ['a 429 with quota left', 429, { 'x-ratelimit-remaining': '10' }, 1000],
    ['GitHub: 403 with the quota spent, until the reset', 403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 600) }, 600_000],
    ['GitHub: a reset already past', 403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 - 5) }, 0],
    ['GitHub: quota spent but no reset (a minute)', 403, { 'x-ratelimit-remaining': '0' }, 60_000],
    ['GitHub: 403 with quota left (a plain refusal)', 403, { 'x-ratelimit-remaining': '12', 'x-ratelimit-reset': String(NOW / 1000 + 600) }, undefined],
    ['GitHub: a bare 403', 403, {}, undefined],
    ['GitLab: 429 with RateLimit-Remaining 0', 429, { 'ratelimit-remaining': '0', 'ratelimit-reset': String(NOW / 1000 + 30) }, 30_000],
    ['a 200 that says the quota is spent', 200, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 600) }, undefined],
    ['a 404', 404, {}, undefined],
    ['Retry-After wins over the reset', 429, { 'retry-after': '7', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 600) }, 7000],
  ];
  for (const [name, status, headers, expected] of cases) {
    it(`reads ${name}`, () => assert.equal(requestedWaitMs(status, headers, NOW), expected));
  }
});

describe('api client: waiting out rate limits', () => {
  let api: LocalApi;
  before(async () => {
    api = await startLocalApi();
  });
  after(() => api.close());
  const client = (extra: Partial<ApiClientOptions> = {}) => createApiClient({ baseUrl: api.origin, auth: { kind: 'bearer', token: 't' }, ...extra });
  /** Answers the first `limited` requests with `status` and `headers`, then 200. */
  const limitedThenOk = (limited: number, status: number, headers: () => Record<string, string>, body: unknown = { message: 'slow down' }): void => {
    let seen = 0;
    api.answer((_req, res) => (++seen <= limited ? json(res, status, body, headers()) : json(res, 200, { ok: true })));
  };

  it('waits out `Retry-After: 1` on a 429 and retries, succeeding', async () => {
    limitedThenOk(1, 429, () => ({ 'retry-after': '1' }));
    const from = api.requests.length;
    const started = Date.now();
    const answer = await client().request('orgs/o/repos', signal());
    assert.deepEqual(answer.body, { ok: true });
    assert.equal(api.requests.length - from, 2);
    assert.ok(Date.now() - started >= 950, `waited ${Date.now() - started} ms`);
  });

  it('fails with ScmRateLimitedError at once when Retry-After is beyond maxRetryWaitMs, sending one request', async () => {
    limitedThenOk(5, 429, () => ({ 'retry-after': '120' }));
    const from = api.requests.length;
    const started = Date.now();
    await assert.rejects(client({ maxRetryWaitMs: 5000 }).request('orgs/o/repos', signal()), (error: unknown) => {
      assert.ok(error instanceof ScmRateLimitedError);
      assert.equal(error.status, 429);
      assert.ok(Math.abs(error.retryAt - (started + 120_000)) < 5000, `retryAt ${error.retryAt - started} ms from now`);
      assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${api.port} asks to wait 120 s`));
      return true;
    });
    assert.equal(api.requests.length - from, 1);
  });

  it("fails on GitHub's 403 with the quota spent and a distant reset, retryAt being the reset", async () => {
    const reset = Math.floor(Date.now() / 1000) + 3600;
    limitedThenOk(5, 403, () => ({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) }), { message: 'API rate limit exceeded' });
    const from = api.requests.length;
    await assert.rejects(client().request('orgs/o/repos', signal()), (error: unknown) => {
      assert.ok(error instanceof ScmRateLimitedError);
      assert.equal(error.status, 403);
      assert.ok(Math.abs(error.retryAt - reset * 1000) < 2000, `retryAt is ${error.retryAt - reset * 1000} ms off the reset`);
      return true;
    });
    assert.equal(api.requests.length - from, 1);
  });

  it("waits for GitHub's reset when it is near, then succeeds", async () => {
    limitedThenOk(1, 403, () => ({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 1) }));
    const from = api.requests.length;
    assert.deepEqual((await client({ maxRetryWaitMs: 3000 }).request('orgs/o/repos', signal())).body, { ok: true });
    assert.equal(api.requests.length - from, 2);
  });

  it('does not retry a plain 403 (no rate-limit headers) and reports it as a ScmApiError', async () => {
    limitedThenOk(5, 403, () => ({}), { message: 'Resource not accessible by integration' });
    const from = api.requests.length;
    await assert.rejects(client().request('orgs/o/repos', signal()), (error: unknown) => {
      assert.ok(error instanceof ScmApiError && !(error instanceof ScmRateLimitedError));
      assert.equal(error.status, 403);
      assert.match(error.message, /answered 403: Resource not accessible by integration/);
      return true;
    });
    assert.equal(api.requests.length - from, 1);
  });

  it("fails on GitLab's 429 with RateLimit-Remaining 0 and a distant RateLimit-Reset", async () => {
    const reset = Math.floor(Date.now() / 1000) + 600;
    limitedThenOk(5, 429, () => ({ 'ratelimit-remaining': '0', 'ratelimit-reset': String(reset) }));
    const from = api.requests.length;
    await assert.rejects(client().request('groups/g/projects', signal()), (error: unknown) => {
      assert.ok(error instanceof ScmRateLimitedError);
      assert.ok(Math.abs(error.retryAt - reset * 1000) < 2000);
      return true;
    });
    assert.equal(api.requests.length - from, 1);
  });

  it('retries a 503 after a short pause, then succeeds', async () => {
    limitedThenOk(1, 503, () => ({}));
    const from = api.requests.length;
    const started = Date.now();
    assert.deepEqual((await client().request('x', signal())).body, { ok: true });
    assert.equal(api.requests.length - from, 2);
    assert.ok(Date.now() - started >= 450, 'paused about half a second');
  });

  it('gives up after three attempts at a server that keeps answering 502', async () => {
    limitedThenOk(10, 502, () => ({}), { message: 'Bad Gateway' });
    const from = api.requests.length;
    await assert.rejects(
      client().request('x', signal()),
      (error: unknown) => error instanceof ScmApiError && error.status === 502 && /answered 502: Bad Gateway/.test(error.message),
    );
    assert.equal(api.requests.length - from, 3);
  });

  it('gives up after three attempts at a 429 that keeps asking for no wait, as rate limited', async () => {
    limitedThenOk(10, 429, () => ({ 'retry-after': '0' }));
    const from = api.requests.length;
    await assert.rejects(client().request('x', signal()), ScmRateLimitedError);
    assert.equal(api.requests.length - from, 3);
  });

  it('stops waiting when its signal aborts during the wait', async () => {
    limitedThenOk(5, 429, () => ({ 'retry-after': '5' }));
    const from = api.requests.length;
    const controller = new AbortController();
    const started = Date.now();
    const pending = client({ maxRetryWaitMs: 10_000 }).request('x', controller.signal);
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(pending, (error: unknown) => (error as Error).name === 'AbortError');
    assert.ok(Date.now() - started < 2000, 'did not sit out the 5 s');
    assert.equal(api.requests.length - from, 1);
  });

  it('returns a 2xx answer even when it carries Retry-After', async () => {
    api.answer((_req, res) => json(res, 200, { ok: true }, { 'retry-after': '120' }));
    const from = api.requests.length;
    const answer = await client({ maxRetryWaitMs: 1000 }).request('x', signal());
    assert.deepEqual(answer.body, { ok: true });
    assert.equal(api.requests.length - from, 1);
  });
});
