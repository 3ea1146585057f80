import { createHash } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { Agent as HttpAgent, IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ConditionalCache } from './conditional-cache.js';
import { ScmApiError, ScmRateLimitedError, ScmRequestRefused } from './errors.js';
import { requestedWaitMs, type ResponseHeaders } from './rate-limit.js';
import { nodeHttp } from '../../runtime/node-http.js';

/** How requests authenticate; providers choose the form their API wants. */
export type ApiAuth =
  | { readonly kind: 'none' }
  | { readonly kind: 'bearer'; readonly token: string }
  | { readonly kind: 'basic'; readonly username: string; readonly password: string }
  /** A header of the provider's own (`Authorization: token …` on Gitea, `PRIVATE-TOKEN` on GitLab). */
  | { readonly kind: 'header'; readonly name: string; readonly value: string };

/** One answer of the API: JSON body parsed (undefined for an empty body). */
export interface ApiResponse {
  readonly status: number;
  readonly headers: ResponseHeaders;
  readonly body: unknown;
  /** The URL asked, without credentials. */
  readonly url: string;
  /** True when the answer is the stored one, revalidated by a `304 Not Modified`. */
  readonly notModified: boolean;
}

/** Options of one request. */
export interface ApiRequestOptions {
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly method?: 'GET' | 'POST';
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Statuses answered instead of thrown (404 for "no such path"). */
  readonly allowStatus?: readonly number[];
}

/** What every request reports, for metrics and the benchmark's request count. */
export interface ApiRequestRecord {
  readonly host: string;
  readonly path: string;
  readonly status: number;
  readonly notModified: boolean;
}

/** How a client reaches one provider API. */
export interface ApiClientOptions {
  /** The API base URL (`https://api.github.com`, `https://gitea.example/api/v1`); paths are joined to it. */
  readonly baseUrl: string;
  readonly auth: ApiAuth;
  /** Extra trusted CA certificates (PEM), from the spec's `caRef` or the platform's root CA file. */
  readonly caCertificates?: string;
  /** Skip TLS verification (the spec's `insecure: true`). */
  readonly insecure?: boolean;
  /** Why traffic may not go to an address the host resolved to (SSRF rules), or undefined when it may. */
  readonly refusedAddress?: (address: string) => string | undefined;
  /** Answers for conditional requests; without it every request is unconditional. */
  readonly conditional?: ConditionalCache;
  /** Longest wait the client sits out for a `Retry-After` or rate-limit reset before failing instead. */
  readonly maxRetryWaitMs?: number;
  readonly timeoutMs?: number;
  readonly maxResponseBytes?: number;
  readonly onRequest?: (record: ApiRequestRecord) => void;
}

/** Requests to one provider API, with its credentials; never to another origin. */
export interface ApiClient {
  /** The normalised base URL. */
  readonly baseUrl: string;
  /** A digest of the credentials, so answers are only shared between callers holding the same ones. */
  readonly credentialIdentity: string;
  /**
   * Sends a request to `path` (relative to the base URL, or an absolute URL of the same origin, as
   * pagination links are) and parses the JSON answer. Throws a ScmApiError for other statuses than
   * 2xx and `allowStatus`, and a ScmRequestRefused for another origin or a refused address.
   */
  request(path: string, signal: AbortSignal, options?: ApiRequestOptions): Promise<ApiResponse>;
}

const USER_AGENT = 'appset-controller';

/** Builds a client for one API base URL and one set of credentials. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = new URL(options.baseUrl.replace(/\/+$/, '') + '/');
  if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new ScmRequestRefused(`the API URL ${options.baseUrl} must be http or https`);
  const credentialIdentity = digest(JSON.stringify(options.auth));
  const send = (url: URL, signal: AbortSignal, request: ApiRequestOptions): Promise<ApiResponse> =>
    sendWithRetries(options, credentialIdentity, url, signal, request);
  return {
    baseUrl: base.href.replace(/\/$/, ''),
    credentialIdentity,
    async request(path, signal, request = {}) {
      const url = resolveUrl(base, path);
      for (const [name, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
      return send(url, signal, request);
    },
  };
}

/** Joins `path` to the base, refusing any URL of another origin: credentials never leave the configured host. */
function resolveUrl(base: URL, path: string): URL {
  const url = /^[a-z][a-z0-9+.-]*:/i.test(path) ? new URL(path) : new URL(path.replace(/^\/+/, ''), base);
  if (url.origin !== base.origin)
    throw new ScmRequestRefused(`refusing to send credentials for ${base.origin} to ${url.origin} (a link in the answer points elsewhere)`);
  return url;
}

async function sendWithRetries(options: ApiClientOptions, identity: string, url: URL, signal: AbortSignal, request: ApiRequestOptions): Promise<ApiResponse> {
  const maxWait = options.maxRetryWaitMs ?? 10_000;
  for (let attempt = 1; ; attempt++) {
    const response = await sendOnce(options, identity, url, signal, request);
    const wait = requestedWaitMs(response.status, response.headers, Date.now());
    const transient = response.status === 502 || response.status === 503 || response.status === 504;
    if (wait === undefined && !transient) return checked(response, request, url);
    if (attempt >= 3) return checked(response, request, url);
    const pause = wait ?? 500 * attempt;
    if (pause > maxWait) {
      throw new ScmRateLimitedError(
        `${url.host} asks to wait ${Math.ceil(pause / 1000)} s before the next request (rate limit); trying again later`,
        response.status,
        Date.now() + pause,
      );
    }
    await sleep(pause, undefined, { signal });
  }
}

function checked(response: ApiResponse, request: ApiRequestOptions, url: URL): ApiResponse {
  if ((response.status >= 200 && response.status < 300) || request.allowStatus?.includes(response.status)) return response;
  const providerMessage = messageOf(response.body);
  const detail = providerMessage ? `: ${providerMessage}` : '';
  if (response.status === 403 || response.status === 429) {
    const wait = requestedWaitMs(response.status, response.headers, Date.now());
    if (wait !== undefined) return throwLimited(url, response.status, wait);
  }
  throw new ScmApiError(`${request.method ?? 'GET'} ${url.host}${url.pathname} answered ${response.status}${detail}`, response.status, providerMessage);
}

function throwLimited(url: URL, status: number, wait: number): never {
  throw new ScmRateLimitedError(`${url.host} is rate limiting this controller for ${Math.ceil(wait / 1000)} s more`, status, Date.now() + wait);
}

/** The error text providers put in their bodies (`message`, `error`, `errors[0].message`, `error.message`). */
function messageOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body.slice(0, 300) || undefined;
  if (body === null || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  const nested = record['error'];
  const first = Array.isArray(record['errors']) ? (record['errors'][0] as Record<string, unknown> | undefined) : undefined;
  const candidates = [
    record['message'],
    typeof nested === 'object' && nested !== null ? (nested as Record<string, unknown>)['message'] : nested,
    first?.['message'],
  ];
  const text = candidates.find((c): c is string => typeof c === 'string' && c !== '');
  return text?.slice(0, 300);
}

async function sendOnce(options: ApiClientOptions, identity: string, url: URL, signal: AbortSignal, request: ApiRequestOptions): Promise<ApiResponse> {
  const method = request.method ?? 'GET';
  refuseLiteralAddress(url, options.refusedAddress);
  const cacheKey = method === 'GET' && options.conditional ? `${identity} ${url.href}` : undefined;
  const stored = cacheKey ? options.conditional?.get(cacheKey) : undefined;
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': USER_AGENT, ...authHeader(options.auth), ...request.headers };
  if (stored?.etag) headers['if-none-match'] = stored.etag;
  else if (stored?.lastModified) headers['if-modified-since'] = stored.lastModified;
  const payload = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
  if (payload) headers['content-type'] = 'application/json';
  const raw = await exchange(url, method, headers, payload, options, signal);
  const printable = `${url.origin}${url.pathname}`;
  options.onRequest?.({ host: url.host, path: url.pathname, status: raw.status, notModified: raw.status === 304 });
  if (raw.status === 304 && stored)
    return { status: 200, headers: { ...stored.headers, ...raw.headers }, body: stored.body, url: printable, notModified: true };
  const body = parseBody(raw.body, raw.headers['content-type']);
  if (cacheKey && raw.status === 200 && (raw.headers['etag'] || raw.headers['last-modified'])) {
    options.conditional?.set(cacheKey, {
      etag: raw.headers['etag'],
      lastModified: raw.headers['last-modified'],
      headers: raw.headers,
      body,
      bytes: raw.body.length,
    });
  }
  return { status: raw.status, headers: raw.headers, body, url: printable, notModified: false };
}

function parseBody(body: Buffer, contentType: string | undefined): unknown {
  if (body.length === 0) return undefined;
  const text = body.toString('utf8');
  if (contentType !== undefined && !contentType.includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function authHeader(auth: ApiAuth): Record<string, string> {
  switch (auth.kind) {
    case 'none':
      return {};
    case 'bearer':
      return { authorization: `Bearer ${auth.token}` };
    case 'basic':
      return { authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}` };
    case 'header':
      return { [auth.name.toLowerCase()]: auth.value };
  }
}

/** A literal IP host never goes through DNS lookup, so the address rules are applied to it here. */
function refuseLiteralAddress(url: URL, refusedAddress: ApiClientOptions['refusedAddress']): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const why = isIP(host) ? refusedAddress?.(host) : undefined;
  if (why) throw new ScmRequestRefused(`API URL ${url.origin} is refused: ${why}`);
}

/** DNS lookup that refuses every answer the address rules refuse, at connect time (no rebinding window). */
function guardedLookup(refusedAddress: (address: string) => string | undefined): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      for (const { address } of addresses) {
        const why = refusedAddress(address);
        if (why) return callback(Object.assign(new ScmRequestRefused(`API host ${hostname} is refused: ${why}`), { code: 'EREFUSED' }), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      return first ? callback(null, first.address, first.family) : callback(new Error(`no address for ${hostname}`), '', 0);
    });
  };
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One HTTP exchange: the answer read whole (up to the size limit), or an error naming the host and path. */
function exchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  payload: Buffer | undefined,
  options: ApiClientOptions,
  signal: AbortSignal,
): Promise<RawAnswer> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const send = url.protocol === 'https:' ? httpsRequest : nodeHttp.request;
  const where = `${method} ${url.host}${url.pathname}`;
  return new Promise<RawAnswer>((resolve, reject) => {
    const fail = (error: unknown): void =>
      reject(error instanceof ScmRequestRefused ? error : new ScmApiError(`${where} failed: ${(error as Error).message}`, 0));
    const req = send(url, transportOptions(url, method, headers, options, signal, timeoutMs), (res) => {
      readAnswer(res, options.maxResponseBytes ?? 32 * 1024 * 1024, where).then(resolve, reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error) => {
      if (signal.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      // A refusal from the guarded lookup arrives as the request's error, or as its cause.
      const cause = (error as { cause?: unknown }).cause;
      return fail(cause instanceof ScmRequestRefused ? cause : error);
    });
    req.end(payload);
  });
}

/** Node's request options: the guarded lookup, and for https the extra CAs (added to Node's roots) and `insecure`. */
function transportOptions(url: URL, method: string, headers: Record<string, string>, options: ApiClientOptions, signal: AbortSignal, timeoutMs: number) {
  const tls =
    url.protocol === 'https:'
      ? { ca: options.caCertificates ? [...rootCertificates, options.caCertificates] : undefined, rejectUnauthorized: !options.insecure }
      : {};
  const guarded = options.refusedAddress ? { lookup: guardedLookup(options.refusedAddress), agent: guardedAgent(url, options.refusedAddress) } : {};
  return { method, headers, signal, timeout: timeoutMs, ...guarded, ...tls };
}

const guardedAgents = new WeakMap<(address: string) => string | undefined, { http: HttpAgent; https: HttpsAgent }>();

/**
 * The connection pool of one set of address rules. Node's shared pool hands out kept-alive sockets by host
 * and port alone, so a socket opened without the rules (by the platform's client) could carry a tenant's
 * request without its lookup ever running: every set of rules gets its own pool, whose every socket was
 * opened through that rule's lookup. Idle sockets close after a few seconds.
 */
function guardedAgent(url: URL, rules: (address: string) => string | undefined): HttpAgent {
  let agents = guardedAgents.get(rules);
  if (!agents) {
    agents = { http: new nodeHttp.Agent({ keepAlive: true, timeout: 5_000 }), https: new HttpsAgent({ keepAlive: true, timeout: 5_000 }) };
    guardedAgents.set(rules, agents);
  }
  return url.protocol === 'https:' ? agents.https : agents.http;
}

/** Reads an answer whole; one larger than `maxBytes` is cut off and refused. */
function readAnswer(res: IncomingMessage, maxBytes: number, where: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      res.destroy();
      reject(new ScmApiError(`${where}: the answer is larger than ${maxBytes} bytes`, 0));
    });
    res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: flatHeaders(res.headers), body: Buffer.concat(chunks) }));
    res.on('error', (error) => reject(new ScmApiError(`${where} failed: ${error.message}`, 0)));
  });
}

function flatHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

/** A short digest of credentials, safe to keep in keys and logs. */
export function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 24);
}
