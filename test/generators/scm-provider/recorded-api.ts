// A local HTTP server that answers with recorded provider answers, and the pieces a contract test needs
// around it: a real API client for a provider's connection, and checks of what was asked.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiClient, type ApiAuth, type ApiClient } from '../../../src/scm/http/api-client.js';
import { ScmApiError } from '../../../src/scm/http/errors.js';
import type { AuthPlan } from '../../../src/scm/provider.js';

/** Stands for the recorded server's own origin in answers (Link headers, `next` URLs); replaced by the real one when served. */
export const ORIGIN = 'http://recorded.invalid';

/** One recorded answer. A string body is sent as text, anything else as JSON; `undefined` sends no body. */
export interface RecordedAnswer {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** One request the server received. */
export interface SeenRequest {
  readonly method: string;
  /** The path as sent, percent-escapes kept. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: IncomingHttpHeaders;
}

/** A running recorded API. */
export interface RecordedApi {
  readonly origin: string;
  readonly seen: SeenRequest[];
  /** Requests no recording matched (they were answered 404); a test expects none. */
  readonly unmatched: string[];
}

/** Recordings keyed by `METHOD /path?query` (query order does not matter). */
export type Recordings = Readonly<Record<string, RecordedAnswer>>;

/** The key a request is matched by: method, raw path, and the query sorted by name. */
export function requestKey(method: string, pathAndQuery: string): string {
  const [path = '', query = ''] = pathAndQuery.split(/\?(.*)/s);
  const params = [...new URLSearchParams(query)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const sorted = new URLSearchParams(params).toString();
  return `${method} ${path}${sorted ? `?${sorted}` : ''}`;
}

/** Runs `body` against a server answering `recordings`, and closes the server however `body` ends. */
export async function withRecordedApi(recordings: Recordings, body: (api: RecordedApi) => Promise<void>): Promise<void> {
  const answers = new Map(Object.entries(recordings).map(([key, answer]) => [requestKey(...splitKey(key)), answer]));
  const api: { origin: string; seen: SeenRequest[]; unmatched: string[] } = { origin: '', seen: [], unmatched: [] };
  const server = createServer((req, res) => {
    const raw = req.url ?? '/';
    const key = requestKey(req.method ?? 'GET', raw);
    const [path = ''] = raw.split('?');
    api.seen.push({ method: req.method ?? 'GET', path, query: Object.fromEntries(new URL(raw, api.origin).searchParams), headers: req.headers });
    const answer = answers.get(key);
    if (!answer) api.unmatched.push(key);
    const { status = 200, headers = {}, body: payload } = answer ?? { status: 404, body: { message: `no recording for ${key}` } };
    const text = payload === undefined ? '' : (typeof payload === 'string' ? payload : JSON.stringify(payload)).replaceAll(ORIGIN, api.origin);
    const type = typeof payload === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8';
    const sent = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value.replaceAll(ORIGIN, api.origin)]));
    res.writeHead(status, { ...(text ? { 'content-type': type } : {}), ...sent });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await body(api);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function splitKey(key: string): [string, string] {
  const space = key.indexOf(' ');
  return [key.slice(0, space), key.slice(space + 1)];
}

/** Test credentials, keyed `secretName/key`, as the wiring would read them from Secrets. */
export type TestSecrets = Readonly<Record<string, string>>;

/** The request credentials an auth plan resolves to with `secrets`; a GitHub App is not resolved here. */
export function resolveAuth(plan: AuthPlan, secrets: TestSecrets): ApiAuth {
  const secret = (ref: { secretName: string; key: string }): string => {
    const value = secrets[`${ref.secretName}/${ref.key}`];
    assert.ok(value !== undefined, `test secret ${ref.secretName}/${ref.key} missing`);
    return value;
  };
  switch (plan.kind) {
    case 'none':
      return { kind: 'none' };
    case 'token':
      return plan.toAuth(secret(plan.ref));
    case 'basic':
      return { kind: 'basic', username: plan.username, password: secret(plan.passwordRef) };
    case 'githubApp':
      throw new Error('GitHub App credentials are resolved by the wiring, not by contract tests');
  }
}

/** A real client for `baseUrl` with the plan's credentials. */
export function clientFor(baseUrl: string, plan: AuthPlan, secrets: TestSecrets = {}): ApiClient {
  return createApiClient({ baseUrl, auth: resolveAuth(plan, secrets), maxRetryWaitMs: 0 });
}

/** A signal that ends a hung test instead of letting it wait forever. */
export function testSignal(): AbortSignal {
  return AbortSignal.timeout(10_000);
}

/** The requests seen, as `METHOD /path?sorted-query` keys, in order. */
export function seenKeys(api: RecordedApi): string[] {
  return api.seen.map((request) => requestKey(request.method, `${request.path}?${new URLSearchParams(request.query).toString()}`));
}

/** Checks that `promise` fails with a ScmApiError naming the server's host, `path` and `status`. */
export async function rejectsWithApiError(promise: Promise<unknown>, api: RecordedApi, path: string, status: number): Promise<void> {
  const host = new URL(api.origin).host;
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ScmApiError, `expected a ScmApiError, got ${String(error)}`);
    assert.equal(error.status, status);
    assert.ok(error.message.includes(`${host}${path}`), `"${error.message}" should name ${host}${path}`);
    assert.ok(error.message.includes(String(status)), `"${error.message}" should name status ${status}`);
    return true;
  });
}
