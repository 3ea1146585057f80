import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiClient, type ApiResponse } from '../../../src/scm/http/api-client.js';
import { ScmApiError, ScmRequestRefused } from '../../../src/scm/http/errors.js';
import { collectPages, MAX_PAGES, nextLink } from '../../../src/scm/http/pagination.js';
import { json, startLocalApi, type LocalApi } from './local-api.js';

const page = (body: unknown, headers: Record<string, string> = {}): ApiResponse => ({
  status: 200,
  headers,
  body,
  url: 'https://api.example/items',
  notModified: false,
});

describe('nextLink', () => {
  const cases: [string, string | undefined, string | undefined][] = [
    [
      'GitHub: next among prev, last and first',
      [
        '<https://api.github.com/orgs/o/repos?page=1>; rel="prev"',
        '<https://api.github.com/orgs/o/repos?page=3>; rel="next"',
        '<https://api.github.com/orgs/o/repos?page=9>; rel="last"',
      ].join(', '),
      'https://api.github.com/orgs/o/repos?page=3',
    ],
    [
      'GitLab: next first',
      '<https://gitlab.example/api/v4/groups?page=2&per_page=100>; rel="next", <https://gitlab.example/api/v4/groups?page=1>; rel="first"',
      'https://gitlab.example/api/v4/groups?page=2&per_page=100',
    ],
    ['rel without quotes', '</api/v1/repos?page=2>;rel=next', '/api/v1/repos?page=2'],
    ['only prev and last (the last page)', '<https://x/?page=1>; rel="prev", <https://x/?page=1>; rel="first"', undefined],
    ['no Link header', undefined, undefined],
    ['a link with more parameters', '<https://x/?page=2>; type="application/json"; rel="next"', 'https://x/?page=2'],
  ];
  for (const [name, link, expected] of cases) {
    it(`reads ${name}`, () => assert.equal(nextLink(link === undefined ? {} : { link }), expected));
  }
});

describe('collectPages', () => {
  it('follows the pages to the end, in order, handing on each next reference', async () => {
    const asked: string[] = [];
    const pages: Record<string, ApiResponse> = { p2: page([3, 4], { next: 'p3' }), p3: page([5]) };
    const all = await collectPages(
      () => Promise.resolve(page([1, 2], { next: 'p2' })),
      (next) => {
        asked.push(next);
        return Promise.resolve(pages[next] as ApiResponse);
      },
      (p) => p.headers['next'],
      (p) => p.body as number[],
    );
    assert.deepEqual(all, [1, 2, 3, 4, 5]);
    assert.deepEqual(asked, ['p2', 'p3']);
  });

  it(`refuses to follow more than MAX_PAGES (${MAX_PAGES}) pages of a listing that never ends`, async () => {
    let fetched = 0;
    await assert.rejects(
      collectPages(
        () => Promise.resolve(page(['x'])),
        () => {
          fetched++;
          return Promise.resolve(page(['x']));
        },
        () => 'again',
        (p) => p.body as string[],
      ),
      (error: unknown) => error instanceof ScmApiError && error.status === 0 && /https:\/\/api\.example\/items: more than 1000 pages/.test(error.message),
    );
    assert.equal(fetched, MAX_PAGES - 1, 'the first page plus 999 more: exactly MAX_PAGES pages read');
  });

  it('reads exactly MAX_PAGES pages when the last one ends the listing', async () => {
    let fetched = 0;
    const all = await collectPages(
      () => Promise.resolve(page([0])),
      () => Promise.resolve(page([++fetched])),
      (p) => ((p.body as number[])[0] === MAX_PAGES - 1 ? undefined : 'more'),
      (p) => p.body as number[],
    );
    assert.equal(all.length, MAX_PAGES);
  });
});

describe('collectPages with a real client and Link headers', () => {
  let api: LocalApi;
  let other: LocalApi;
  before(async () => {
    other = await startLocalApi((_req, res) => json(res, 200, ['stolen']));
    api = await startLocalApi((req, res) => {
      const n = Number(new URL(req.url, 'http://x').searchParams.get('page') ?? '1');
      const next: Record<string, string> = n < 3 ? { link: `<${api.origin}/api/items?page=${n + 1}>; rel="next"` } : {};
      json(res, 200, [`item-${n}`], next);
    });
  });
  after(async () => {
    await api.close();
    await other.close();
  });

  it('reads every page of its own origin', async () => {
    const client = createApiClient({ baseUrl: `${api.origin}/api`, auth: { kind: 'bearer', token: 't' } });
    const signal = new AbortController().signal;
    const all = await collectPages(
      () => client.request('items', signal),
      (next) => client.request(next, signal),
      (p) => nextLink(p.headers),
      (p) => p.body as string[],
    );
    assert.deepEqual(all, ['item-1', 'item-2', 'item-3']);
  });

  it('refuses a next link to another port and sends the credentials nowhere else', async () => {
    api.answer((_req, res) => json(res, 200, ['item-1'], { link: `<${other.origin}/api/items?page=2>; rel="next"` }));
    const client = createApiClient({ baseUrl: `${api.origin}/api`, auth: { kind: 'bearer', token: 't' } });
    const signal = new AbortController().signal;
    await assert.rejects(
      collectPages(
        () => client.request('items', signal),
        (next) => client.request(next, signal),
        (p) => nextLink(p.headers),
        (p) => p.body as string[],
      ),
      ScmRequestRefused,
    );
    assert.equal(other.requests.length, 0);
  });
});
