import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiClient, type ApiAuth, type ApiClientOptions } from '../../../src/scm/http/api-client.js';
import { ScmApiError, ScmRequestRefused } from '../../../src/scm/http/errors.js';
import { refusedAddress, TENANT_DEFAULTS } from '../../../src/tenancy/repo-url-safety.js';
import { json, startLocalApi, type LocalApi } from './local-api.js';

const signal = (): AbortSignal => new AbortController().signal;
const isApiError =
  (status: number, ...parts: RegExp[]) =>
  (error: unknown): boolean => {
    assert.ok(error instanceof ScmApiError, `expected a ScmApiError, got ${String(error)}`);
    assert.equal(error.status, status);
    for (const part of parts) assert.match(error.message, part);
    return true;
  };
const isRefused =
  (...parts: RegExp[]) =>
  (error: unknown): boolean => {
    assert.ok(error instanceof ScmRequestRefused, `expected a ScmRequestRefused, got ${String(error)}`);
    for (const part of parts) assert.match(error.message, part);
    return true;
  };

describe('api client: what it sends', () => {
  let api: LocalApi;
  before(async () => {
    api = await startLocalApi((req, res) => json(res, 200, { path: req.url }));
  });
  after(() => api.close());
  const client = (auth: ApiAuth, extra: Partial<ApiClientOptions> = {}) => createApiClient({ baseUrl: `${api.origin}/api/v1/`, auth, ...extra });

  const cases: [string, ApiAuth, Record<string, string | undefined>][] = [
    ['none', { kind: 'none' }, { authorization: undefined }],
    ['bearer', { kind: 'bearer', token: 'tok-1' }, { authorization: 'Bearer tok-1' }],
    ['basic', { kind: 'basic', username: 'bob', password: 'p:w' }, { authorization: `Basic ${Buffer.from('bob:p:w').toString('base64')}` }],
    ['header (GitLab)', { kind: 'header', name: 'PRIVATE-TOKEN', value: 'glpat-x' }, { 'private-token': 'glpat-x', authorization: undefined }],
    ['header (Gitea)', { kind: 'header', name: 'Authorization', value: 'token gt-1' }, { authorization: 'token gt-1' }],
  ];
  for (const [name, auth, expected] of cases) {
    it(`authenticates with ${name} credentials the provider's way`, async () => {
      const from = api.requests.length;
      await client(auth).request('user', signal());
      const seen = api.requests[from];
      assert.ok(seen);
      for (const [header, value] of Object.entries(expected)) assert.equal(seen.headers[header], value, header);
      assert.equal(seen.headers['user-agent'], 'appset-controller');
      assert.equal(seen.headers['accept'], 'application/json');
    });
  }

  it('gives each set of credentials its own identity, and the same credentials the same one', () => {
    const a = client({ kind: 'bearer', token: 'a' }).credentialIdentity;
    assert.equal(client({ kind: 'bearer', token: 'a' }).credentialIdentity, a);
    assert.notEqual(client({ kind: 'bearer', token: 'b' }).credentialIdentity, a);
    assert.notEqual(client({ kind: 'header', name: 'PRIVATE-TOKEN', value: 'a' }).credentialIdentity, a);
    const long = client({ kind: 'bearer', token: 'ghp_secretvalue' }).credentialIdentity;
    assert.match(long, /^[0-9a-f]{24}$/, 'a digest');
    assert.ok(!long.includes('secretvalue'));
  });

  it('joins paths under the base path, with or without a leading slash, and normalises the base URL', async () => {
    const c = createApiClient({ baseUrl: `${api.origin}/api/v1///`, auth: { kind: 'none' } });
    assert.equal(c.baseUrl, `${api.origin}/api/v1`);
    assert.deepEqual((await c.request('repos/o/r', signal())).body, { path: '/api/v1/repos/o/r' });
    assert.deepEqual((await c.request('/repos/o/r', signal())).body, { path: '/api/v1/repos/o/r' });
    assert.equal((await c.request('repos/o/r', signal())).url, `${api.origin}/api/v1/repos/o/r`);
  });

  it('sends query parameters, leaving out undefined ones and writing numbers and booleans as text', async () => {
    const from = api.requests.length;
    await client({ kind: 'none' }).request('pulls', signal(), { query: { state: 'open', page: 2, draft: false, labels: undefined, q: 'a b&c' } });
    const url = new URL(api.requests[from]?.url ?? '', api.origin);
    assert.equal(url.pathname, '/api/v1/pulls');
    assert.deepEqual(
      [...url.searchParams.entries()],
      [
        ['state', 'open'],
        ['page', '2'],
        ['draft', 'false'],
        ['q', 'a b&c'],
      ],
    );
  });

  it('sends a POST body as JSON and passes extra headers', async () => {
    const from = api.requests.length;
    await client({ kind: 'none' }).request('things', signal(), { method: 'POST', body: { a: 1 }, headers: { 'x-extra': 'yes' } });
    const seen = api.requests[from];
    assert.equal(seen?.method, 'POST');
    assert.equal(seen?.headers['content-type'], 'application/json');
    assert.equal(seen?.headers['x-extra'], 'yes');
    assert.deepEqual(JSON.parse(seen?.body ?? ''), { a: 1 });
  });

  it('refuses an API base URL that is not http or https', () => {
    assert.throws(() => createApiClient({ baseUrl: 'ftp://files.example/api', auth: { kind: 'none' } }), isRefused(/must be http or https/));
  });
});

describe('api client: what it reads', () => {
  let api: LocalApi;
  before(async () => {
    api = await startLocalApi();
  });
  after(() => api.close());
  const client = (extra: Partial<ApiClientOptions> = {}) => createApiClient({ baseUrl: api.origin, auth: { kind: 'none' }, ...extra });

  it('parses JSON, reads an empty body as undefined and keeps text that is not JSON as text', async () => {
    api.answer((_req, res) => json(res, 200, [{ id: 1 }], { 'x-total': '1' }));
    const listed = await client().request('list', signal());
    assert.deepEqual(listed.body, [{ id: 1 }]);
    assert.equal(listed.status, 200);
    assert.equal(listed.headers['x-total'], '1');
    assert.equal(listed.notModified, false);
    api.answer((_req, res) => res.writeHead(204).end());
    assert.equal((await client().request('empty', signal())).body, undefined);
    api.answer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('{"looks":"like json"}'));
    assert.equal((await client().request('text', signal())).body, '{"looks":"like json"}');
    api.answer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{broken'));
    assert.equal((await client().request('broken', signal())).body, '{broken');
  });

  it('answers a status listed in allowStatus instead of throwing', async () => {
    api.answer((_req, res) => json(res, 404, { message: 'Not Found' }));
    const answer = await client().request('repos/o/missing/contents/a', signal(), { allowStatus: [404] });
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.body, { message: 'Not Found' });
  });

  const bodies: [string, unknown, string][] = [
    ['message (GitHub, GitLab)', { message: '404 Project Not Found' }, '404 Project Not Found'],
    ['error.message (Bitbucket Cloud)', { type: 'error', error: { message: 'Repository not found' } }, 'Repository not found'],
    ['errors[0].message (Bitbucket Server)', { errors: [{ context: null, message: 'Project PLAT does not exist.' }] }, 'Project PLAT does not exist.'],
    ['error as text', { error: 'invalid_token' }, 'invalid_token'],
  ];
  for (const [name, body, text] of bodies) {
    it(`names method, host, path, status and the provider's ${name} in its error`, async () => {
      api.answer((_req, res) => json(res, 404, body));
      await assert.rejects(client().request('repos/o/r?x=1', signal()), (error: unknown) => {
        isApiError(404)(error);
        const e = error as ScmApiError;
        assert.equal(e.message, `GET 127.0.0.1:${api.port}/repos/o/r answered 404: ${text}`);
        assert.equal(e.providerMessage, text);
        return true;
      });
    });
  }

  it('names the status alone when the body carries no message', async () => {
    api.answer((_req, res) => json(res, 500, { nothing: 'here' }));
    await assert.rejects(client().request('boom', signal()), (error: unknown) => {
      isApiError(500)(error);
      assert.equal((error as ScmApiError).message, `GET 127.0.0.1:${api.port}/boom answered 500`);
      assert.equal((error as ScmApiError).providerMessage, undefined);
      return true;
    });
  });

  it('stops reading an answer larger than maxResponseBytes', async () => {
    api.answer((_req, res) => json(res, 200, { padding: 'x'.repeat(5000) }));
    await assert.rejects(client({ maxResponseBytes: 1000 }).request('big', signal()), isApiError(0, /127\.0\.0\.1:\d+\/big/, /larger than 1000 bytes/));
    assert.ok(await client({ maxResponseBytes: 10_000 }).request('big', signal()), 'the same answer within the limit is read');
  });

  it('gives up on a server that never answers after timeoutMs, naming host and path', async () => {
    api.answer(() => undefined);
    const started = Date.now();
    await assert.rejects(
      client({ timeoutMs: 150 }).request('slow/path', signal()),
      isApiError(0, new RegExp(`GET 127\\.0\\.0\\.1:${api.port}/slow/path`), /150 ms/),
    );
    assert.ok(Date.now() - started < 5000);
  });

  it('stops at once when its signal aborts during a request, with the abort reason', async () => {
    api.answer(() => undefined);
    const controller = new AbortController();
    const pending = client().request('hang', controller.signal);
    setTimeout(() => controller.abort(new Error('reconcile cancelled')), 50);
    await assert.rejects(pending, /reconcile cancelled/);
  });

  it('reports a connection failure as status 0', async () => {
    const closed = await startLocalApi();
    await closed.close();
    await assert.rejects(
      createApiClient({ baseUrl: closed.origin, auth: { kind: 'none' } }).request('x', signal()),
      isApiError(0, new RegExp(`127\\.0\\.0\\.1:${closed.port}/x failed`)),
    );
  });

  it('reports every request to onRequest with host, path and status', async () => {
    const records: unknown[] = [];
    api.answer((_req, res) => json(res, 404, {}));
    await client({ onRequest: (r) => records.push(r) }).request('a/b?page=2', signal(), { allowStatus: [404] });
    assert.deepEqual(records, [{ host: `127.0.0.1:${api.port}`, path: '/a/b', status: 404, notModified: false }]);
  });
});

describe('api client: credentials stay with their origin', () => {
  let api: LocalApi;
  let other: LocalApi;
  before(async () => {
    api = await startLocalApi((req, res) => json(res, 200, { path: req.url }));
    other = await startLocalApi((_req, res) => json(res, 200, { stolen: true }));
  });
  after(async () => {
    await api.close();
    await other.close();
  });
  const client = () => createApiClient({ baseUrl: `${api.origin}/api`, auth: { kind: 'bearer', token: 'secret-token' } });

  it('follows an absolute link of its own origin (pagination)', async () => {
    assert.deepEqual((await client().request(`${api.origin}/api/repos?page=2`, signal())).body, { path: '/api/repos?page=2' });
  });

  const elsewhere: [string, (o: LocalApi) => string][] = [
    ['another host', () => 'http://other-host.invalid/steal'],
    ['another port of the same host', (o) => `${o.origin}/api/repos?page=2`],
    ['another scheme', () => `https://127.0.0.1:${api.port}/api/repos`],
    ['a backslash link that URL parsing turns protocol-relative', (o) => `\\\\127.0.0.1:${o.port}\\steal`],
  ];
  for (const [name, target] of elsewhere) {
    it(`refuses ${name} and sends nothing there`, async () => {
      const before = other.requests.length;
      await assert.rejects(async () => client().request(target(other), signal()), isRefused(/refusing to send credentials/));
      assert.equal(other.requests.length, before);
    });
  }

  it('keeps a protocol-relative path on its own origin, under the base path', async () => {
    const before = other.requests.length;
    const answer = await client().request(`//127.0.0.1:${other.port}/steal`, signal());
    assert.deepEqual(answer.body, { path: `/api/127.0.0.1:${other.port}/steal` });
    assert.equal(other.requests.length, before);
  });

  it('refuses another origin with a rejected promise, not a synchronous throw', () => {
    let thrown: unknown;
    let result: Promise<unknown> | undefined;
    try {
      result = client().request(`${other.origin}/x`, signal());
    } catch (error) {
      thrown = error;
    }
    assert.equal(thrown, undefined, 'request() threw synchronously; `client.request(...).catch(...)` would not catch it');
    return assert.rejects(result ?? Promise.resolve(), ScmRequestRefused);
  });
});

describe('api client: address rules (SSRF)', () => {
  let api: LocalApi;
  before(async () => {
    api = await startLocalApi((_req, res) => json(res, 200, { ok: true }));
  });
  after(() => api.close());
  const refuseLoopback = (address: string): string | undefined => (address === '127.0.0.1' || address === '::1' ? 'loopback is off limits' : undefined);

  it('refuses a literal IP the rules refuse before connecting', async () => {
    const before = api.requests.length;
    const asked: string[] = [];
    const client = createApiClient({ baseUrl: api.origin, auth: { kind: 'bearer', token: 't' }, refusedAddress: (a) => (asked.push(a), refuseLoopback(a)) });
    await assert.rejects(client.request('x', signal()), isRefused(new RegExp(`API URL http://127\\.0\\.0\\.1:${api.port} is refused: loopback is off limits`)));
    assert.deepEqual(asked, ['127.0.0.1']);
    assert.equal(api.requests.length, before);
  });

  it('refuses a host name that resolves to a refused address at lookup', async () => {
    const before = api.requests.length;
    const client = createApiClient({ baseUrl: `http://localhost:${api.port}`, auth: { kind: 'bearer', token: 't' }, refusedAddress: refuseLoopback });
    await assert.rejects(client.request('x', signal()), isRefused(/API host localhost is refused: loopback is off limits/));
    assert.equal(api.requests.length, before);
  });

  it('refuses an IPv4-mapped IPv6 loopback under the tenant rules', async () => {
    const before = api.requests.length;
    const client = createApiClient({
      baseUrl: `http://[::ffff:127.0.0.1]:${api.port}`,
      auth: { kind: 'none' },
      refusedAddress: (a) => refusedAddress(a, TENANT_DEFAULTS),
    });
    await assert.rejects(client.request('x', signal()), isRefused(/loopback/));
    assert.equal(api.requests.length, before);
  });

  it('checks the address of a host name even when a client without address rules just connected to it (kept-alive socket)', async () => {
    const unguarded = createApiClient({ baseUrl: `http://localhost:${api.port}`, auth: { kind: 'none' } });
    await unguarded.request('platform', signal());
    const before = api.requests.length;
    const guarded = createApiClient({ baseUrl: `http://localhost:${api.port}`, auth: { kind: 'bearer', token: 'tenant' }, refusedAddress: refuseLoopback });
    await assert.rejects(guarded.request('tenant', signal()), isRefused(/loopback/));
    assert.equal(api.requests.length, before, 'the tenant request reached the loopback server over the pooled socket');
  });

  it('connects when the rules refuse nothing, by IP and by name', async () => {
    const before = api.requests.length;
    const asked: string[] = [];
    const allow = (address: string): undefined => void asked.push(address);
    assert.equal((await createApiClient({ baseUrl: api.origin, auth: { kind: 'none' }, refusedAddress: allow }).request('a', signal())).status, 200);
    const byName = createApiClient({ baseUrl: `http://localhost:${api.port}`, auth: { kind: 'none' }, refusedAddress: allow });
    assert.equal((await byName.request('b', signal())).status, 200);
    assert.equal(api.requests.length, before + 2);
    assert.ok(asked.includes('127.0.0.1'), `the rules saw the resolved addresses: ${asked.join(', ')}`);
  });
});
