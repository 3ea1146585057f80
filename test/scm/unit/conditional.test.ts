import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiClient, type ApiAuth, type ApiRequestRecord } from '../../../src/scm/http/api-client.js';
import { ConditionalCache, type CachedAnswer } from '../../../src/scm/http/conditional-cache.js';
import { json, startLocalApi, type Answer, type LocalApi } from './local-api.js';

const signal = (): AbortSignal => new AbortController().signal;
const answerOf = (bytes: number): CachedAnswer => ({ etag: `"${bytes}"`, headers: {}, body: bytes, bytes });

/** Answers like GitHub: an ETag per token and resource, `304` when If-None-Match matches it. */
function etagServer(version: () => string): Answer {
  return (req, res) => {
    const etag = `"${version()}-${String(req.headers['authorization'])}-${req.url}"`;
    if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag, 'x-ratelimit-remaining': '4999' }).end();
    json(res, 200, { version: version(), auth: req.headers['authorization'] ?? null }, { etag, 'x-ratelimit-remaining': '4998' });
  };
}

describe('conditional requests', () => {
  let api: LocalApi;
  let version = 'v1';
  before(async () => {
    api = await startLocalApi(etagServer(() => version));
  });
  after(() => api.close());
  const client = (cache: ConditionalCache, auth: ApiAuth = { kind: 'bearer', token: 'a' }, records?: ApiRequestRecord[]) =>
    createApiClient({ baseUrl: api.origin, auth, conditional: cache, ...(records ? { onRequest: (r: ApiRequestRecord) => records.push(r) } : {}) });

  it('stores the first answer by its ETag and revalidates it with If-None-Match; a 304 returns the stored body', async () => {
    const cache = new ConditionalCache();
    const records: ApiRequestRecord[] = [];
    const from = api.requests.length;
    const first = await client(cache, undefined, records).request('repos/o/r/pulls', signal());
    assert.equal(cache.size, 1);
    assert.equal(api.requests[from]?.headers['if-none-match'], undefined, 'nothing to revalidate yet');
    const second = await client(cache, undefined, records).request('repos/o/r/pulls', signal());
    assert.equal(api.requests[from + 1]?.headers['if-none-match'], first.headers['etag']);
    assert.deepEqual(second.body, first.body);
    assert.equal(second.status, 200);
    assert.equal(second.notModified, true);
    assert.equal(first.notModified, false);
    assert.equal(second.headers['x-ratelimit-remaining'], '4999', "the 304's own headers win over the stored ones");
    assert.deepEqual(
      records.map((r) => [r.status, r.notModified]),
      [
        [200, false],
        [304, true],
      ],
    );
  });

  it('takes a changed answer and stores its new ETag', async () => {
    const cache = new ConditionalCache();
    await client(cache).request('repos/o/r/pulls', signal());
    version = 'v2';
    const changed = await client(cache).request('repos/o/r/pulls', signal());
    assert.equal(changed.notModified, false);
    assert.deepEqual(changed.body, { version: 'v2', auth: 'Bearer a' });
    const again = await client(cache).request('repos/o/r/pulls', signal());
    assert.equal(again.notModified, true);
    assert.deepEqual(again.body, { version: 'v2', auth: 'Bearer a' });
    version = 'v1';
  });

  it('never revalidates or serves an answer fetched with other credentials', async () => {
    const cache = new ConditionalCache();
    const mine = await client(cache, { kind: 'bearer', token: 'a' }).request('repos/o/r/pulls', signal());
    const from = api.requests.length;
    const theirs = await client(cache, { kind: 'bearer', token: 'b' }).request('repos/o/r/pulls', signal());
    assert.equal(api.requests[from]?.headers['if-none-match'], undefined, 'no ETag of the other token is sent');
    assert.equal(theirs.notModified, false);
    assert.deepEqual(theirs.body, { version: 'v1', auth: 'Bearer b' });
    assert.equal(cache.size, 2);
    const mineAgain = await client(cache, { kind: 'bearer', token: 'a' }).request('repos/o/r/pulls', signal());
    assert.deepEqual(mineAgain.body, mine.body);
    const anonymous = await client(cache, { kind: 'none' }).request('repos/o/r/pulls', signal());
    assert.equal(anonymous.notModified, false);
    assert.deepEqual(anonymous.body, { version: 'v1', auth: null });
  });

  it('keeps answers to other query strings apart', async () => {
    const cache = new ConditionalCache();
    await client(cache).request('repos/o/r/pulls', signal(), { query: { page: 1 } });
    const other = await client(cache).request('repos/o/r/pulls', signal(), { query: { page: 2 } });
    assert.equal(other.notModified, false);
    assert.equal(cache.size, 2);
  });

  it('sends no conditional header without a cache, and never for a POST', async () => {
    const plain = createApiClient({ baseUrl: api.origin, auth: { kind: 'bearer', token: 'a' } });
    await plain.request('x', signal());
    const from = api.requests.length;
    await plain.request('x', signal());
    assert.equal(api.requests[from]?.headers['if-none-match'], undefined);
    const cache = new ConditionalCache();
    await client(cache).request('x', signal(), { method: 'POST', body: {} });
    assert.equal(cache.size, 0, 'a POST answer is not stored');
  });

  it('does not store an answer other than 200', async () => {
    const cache = new ConditionalCache();
    api.answer((_req, res) => json(res, 404, { message: 'Not Found' }, { etag: '"nf"' }));
    await client(cache).request('missing', signal(), { allowStatus: [404] });
    assert.equal(cache.size, 0);
    api.answer(etagServer(() => version));
  });

  it('revalidates with If-Modified-Since when the answer has only Last-Modified', async () => {
    const stamp = 'Wed, 21 Oct 2026 07:28:00 GMT';
    api.answer((req, res) => {
      if (req.headers['if-modified-since'] === stamp) return void res.writeHead(304).end();
      json(res, 200, { listed: true }, { 'last-modified': stamp });
    });
    const cache = new ConditionalCache();
    await client(cache).request('repos', signal());
    const from = api.requests.length;
    const again = await client(cache).request('repos', signal());
    assert.equal(api.requests[from]?.headers['if-modified-since'], stamp);
    assert.equal(api.requests[from]?.headers['if-none-match'], undefined);
    assert.equal(again.notModified, true);
    assert.deepEqual(again.body, { listed: true });
    api.answer(etagServer(() => version));
  });

  it('does not keep an answer larger than a quarter of its byte budget', async () => {
    const cache = new ConditionalCache(400);
    api.answer((_req, res) => json(res, 200, { padding: 'x'.repeat(200) }, { etag: '"big"' }));
    await client(cache).request('big', signal());
    assert.equal(cache.size, 0);
    const from = api.requests.length;
    await client(cache).request('big', signal());
    assert.equal(api.requests[from]?.headers['if-none-match'], undefined);
    api.answer(etagServer(() => version));
  });
});

describe('conditional cache byte budget', () => {
  it('drops the least recently used answers once the budget is spent', () => {
    const cache = new ConditionalCache(1000);
    cache.set('a', answerOf(250));
    cache.set('b', answerOf(250));
    cache.set('c', answerOf(250));
    cache.set('d', answerOf(250));
    assert.equal(cache.size, 4, 'exactly the budget');
    assert.ok(cache.get('a'), 'reading a makes it the most recent');
    cache.set('e', answerOf(250));
    assert.equal(cache.size, 4);
    assert.equal(cache.get('b'), undefined, 'b was the least recently used');
    assert.ok(cache.get('a'));
    assert.ok(cache.get('e'));
  });

  it('counts a replaced answer once', () => {
    const cache = new ConditionalCache(1000);
    for (let i = 0; i < 10; i++) cache.set('same', answerOf(250));
    cache.set('x', answerOf(250));
    cache.set('y', answerOf(250));
    cache.set('z', answerOf(250));
    assert.equal(cache.size, 4, 'nothing evicted: 4 × 250 bytes fit');
  });

  it('keeps nothing above a quarter of the budget, and forgets on delete', () => {
    const cache = new ConditionalCache(1000);
    cache.set('big', answerOf(251));
    assert.equal(cache.get('big'), undefined);
    cache.set('ok', answerOf(250));
    cache.delete('ok');
    cache.delete('ok');
    assert.equal(cache.size, 0);
    for (const key of ['p', 'q', 'r', 's']) cache.set(key, answerOf(250));
    assert.equal(cache.size, 4, 'the deleted bytes were given back');
  });

  it('replacing a stored answer with one too large forgets the old one', () => {
    const cache = new ConditionalCache(1000);
    cache.set('k', answerOf(100));
    cache.set('k', answerOf(600));
    assert.equal(cache.get('k'), undefined);
  });
});
