import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '../kubeconfig.js';
import { AppsetError } from '../../model/errors.js';
import { nodeHttp as http } from '../../runtime/node-http.js';
import { errorFromStatus, parseStatus, readBody, retryAfter, retryAfterMs } from './api-errors.js';
import { ConnectionPool, type Credentials } from './connection-pool.js';
import { StaleConnectionError } from './http1-connections.js';
import { RequestAbortedError } from './request-aborted.js';
import { requestPath, requestTarget, serverAddress, type Query } from './request-url.js';
import type { BodySink } from './response-reader.js';

/** The JSON merge patch content type. */
export const MERGE_PATCH = 'application/merge-patch+json';

/** The server-side apply content type; JSON is YAML, so the object is sent as JSON. */
export const APPLY_PATCH = 'application/apply-patch+yaml';

/** One JSON request of a {@link KubeTransport}. */
export interface KubeRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the server URL, already escaped (see `pathSegment`). */
  readonly path: string;
  readonly query?: Query;
  /** Sent as JSON. */
  readonly body?: unknown;
  /** Content type of the body; default application/json. */
  readonly contentType?: string;
  /** Safe to send twice: retried once when a pooled connection turns out to have been closed by the server. */
  readonly idempotent?: boolean;
  readonly signal?: AbortSignal;
}

/**
 * Connections a transport's JSON requests share unless told otherwise. A converge keeps 200 writes in flight
 * (10 reconciles); over 64 connections the API server applied 3,000 Applications faster and with less CPU
 * than over 200 (fewer TLS handshakes, less of its own queueing), and a replica keeps the C heap of 136 fewer
 * TLS connections. 32 were slower: etcd batches fewer concurrent writes (docs/benchmarks.md).
 */
export const DEFAULT_REQUEST_CONNECTIONS = 64;

/** Settings of {@link createKubeTransport}. */
export interface KubeTransportOptions {
  /** Keep-alive connections JSON requests share; requests beyond wait for one (default {@link DEFAULT_REQUEST_CONNECTIONS}). */
  maxSockets?: number;
  /** List pages streamed at once, each on a connection of its own (default 256); every watch has its own too. */
  maxStreams?: number;
  /** Bound of one JSON request, queueing for a connection included (default 60 s); streams have their own. */
  timeoutMs?: number;
}

/**
 * The one way to the API server of a replica: JSON requests, list pages and watches as streams, over one
 * pool of keep-alive connections with one credential and TLS policy. Created once per replica (src/app/)
 * and injected into the informers and the writers.
 */
export interface KubeTransport {
  /** Sends the request; resolves with the parsed JSON answer (undefined for an empty one), throws KubeApiError for non-2xx. */
  request<T>(request: KubeRequest): Promise<T>;
  /** Like {@link request}, for writes whose answer nobody reads: a successful answer is not parsed. */
  send(request: KubeRequest): Promise<void>;
  /**
   * `GET path?query` read as a stream (a list page, gzipped if asked): resolves with the response once 2xx headers
   * arrived; a non-2xx answer is read and thrown as a KubeApiError. `signal` ends it.
   */
  stream(path: string, query: Query, signal: AbortSignal, options?: { gzip?: boolean }): Promise<IncomingMessage>;
  /**
   * `GET path?query` whose 2xx body goes to `sink` as it arrives (a watch), on a connection of its own: resolves
   * once the server ended the body; a non-2xx answer is read and thrown as a KubeApiError; `signal` ends it.
   */
  streamBody(path: string, query: Query, signal: AbortSignal, sink: BodySink): Promise<void>;
}

/**
 * The {@link KubeTransport} of `kc`'s current context. client-node opens a new TLS connection, with a new
 * secure context, for every request: profiling a controller writing 3,000 Applications showed two thirds of
 * its CPU in TLS set-up (and the API server pays its side of every handshake). Here connections stay open
 * and are reused. Credentials come from the kubeconfig, resolved again every few seconds (token files
 * and exec plugins are refreshed); when the TLS material changes, new connections use the new material.
 */
export function createKubeTransport(kc: KubeConfig, options: KubeTransportOptions = {}): KubeTransport {
  const pool = new ConnectionPool({ requests: options.maxSockets ?? DEFAULT_REQUEST_CONNECTIONS, streams: options.maxStreams ?? 256 });
  const timeoutMs = options.timeoutMs ?? 60_000;
  const withRetry = async (request: KubeRequest, parse: boolean): Promise<unknown> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await sendOnce(kc, pool, request, timeoutMs, parse);
      } catch (error) {
        // A keep-alive connection the server had closed fails at once; the request most likely never
        // arrived, but it may have, so only a request that is safe to repeat is sent again.
        if (!(error instanceof StaleConnectionError) || attempt > 1 || !request.idempotent) throw error instanceof StaleConnectionError ? error.cause : error;
      }
    }
  };
  return {
    request: <T>(request: KubeRequest) => withRetry(request, true) as Promise<T>,
    send: async (request) => void (await withRetry(request, false)),
    stream: async (path, query, signal, streamOptions = {}) => {
      const headers = streamOptions.gzip ? { 'Accept-Encoding': 'gzip' } : {};
      const response = await openStream(kc, await pool.credentials(kc), path, query, signal, headers);
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) return response;
      const body = (await readBody(response).catch(() => Buffer.alloc(0))).toString('utf8');
      throw errorFromStatus(status, parseStatus(body), retryAfter(response));
    },
    streamBody: async (path, query, signal, sink) => {
      const credentials = await pool.credentials(kc);
      await credentials.streams.open(requestText(kc, credentials, { method: 'GET', path, query }), signal, sink);
    },
  };
}

/** No answer came within the transport's bound. */
export class RequestTimeoutError extends AppsetError {
  constructor(request: KubeRequest, timeoutMs: number) {
    super(`${request.method} ${request.path}: no complete answer within ${timeoutMs} ms`);
  }
}

async function sendOnce(kc: KubeConfig, pool: ConnectionPool, request: KubeRequest, timeoutMs: number, parse: boolean): Promise<unknown> {
  const signal = request.signal;
  if (signal?.aborted) throw new RequestAbortedError(signal.reason);
  const credentials = await pool.credentials(kc);
  const exchange = credentials.requests.exchange(requestText(kc, credentials, request), parse);
  // One timer bounds the whole exchange, the wait for a connection and the reading of the answer included.
  // Not AbortSignal.timeout: with AbortSignal.any and the request's abort listener it cost more CPU than
  // building the request itself.
  const deadline = setTimeout(() => exchange.cancel(new RequestTimeoutError(request, timeoutMs)), timeoutMs);
  const onAbort = (): void => exchange.cancel(new RequestAbortedError(signal?.reason));
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const answer = await exchange.answer;
    const ok = answer.status >= 200 && answer.status < 300;
    if (!ok) throw errorFromStatus(answer.status, parseStatus(answer.body), retryAfterMs(answer.retryAfter));
    if (!parse || answer.body === '') return undefined;
    try {
      return JSON.parse(answer.body) as unknown;
    } catch {
      throw new Error(`${request.method} ${request.path}: the server sent a body that is not JSON: ${answer.body.slice(0, 200)}`);
    }
  } finally {
    clearTimeout(deadline);
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * The `Host` line and the credential lines of each credentials' headers, built once: every request of a
 * transport sends the same ones (a transport has one server; credentials are resolved anew every few seconds).
 */
const headerBlocks = new WeakMap<Credentials['headers'], string>();

function headerBlock(kc: KubeConfig, headers: Credentials['headers']): string {
  let block = headerBlocks.get(headers);
  if (block === undefined) {
    block = `Host: ${serverAddress(kc.server).hostHeader}\r\n`;
    for (const [name, value] of Object.entries(headers)) {
      for (const one of typeof value === 'string' ? [value] : value) {
        // A line break in a token or an impersonated name would start a header (or a request) of its own.
        if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || /[\r\n\0]/.test(one)) throw new Error(`the credentials hold a header that cannot be sent: ${name}`);
        block += `${name}: ${one}\r\n`;
      }
    }
    headerBlocks.set(headers, block);
  }
  return block;
}

/**
 * The whole request as one string: the head and the JSON body together go out in one write (with a Buffer
 * body Node wrote two chunks, a writev, and the client and the API server both spent about a tenth more).
 */
function requestText(kc: KubeConfig, credentials: Credentials, request: KubeRequest): string {
  const path = requestPath(kc, request.path, request.query);
  // Paths are escaped by their builders (pathSegment, the query's encoding); anything else is a bug, never sent.
  if (!/^\/[\x21-\x7e]*$/.test(path)) throw new Error(`${request.method} ${JSON.stringify(path)}: a request path must be escaped`);
  let head = `${request.method} ${path} HTTP/1.1\r\n${headerBlock(kc, credentials.headers)}Accept: application/json\r\n`;
  if (request.body === undefined) return `${head}\r\n`;
  const body = JSON.stringify(request.body);
  head += `Content-Type: ${request.contentType ?? 'application/json'}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
  return head + body;
}

/**
 * Opens one stream (a list page or a watch) with the stream agent: its response once the headers arrived.
 * `signal` aborts it.
 */
function openStream(
  kc: KubeConfig,
  credentials: Pick<Credentials, 'headers' | 'streamAgent'>,
  path: string,
  query: Query,
  signal: AbortSignal,
  extraHeaders: OutgoingHttpHeaders,
): Promise<IncomingMessage> {
  const { protocol, ...target } = requestTarget(kc, path, query);
  const options: https.RequestOptions = {
    ...target,
    // The agent carries the TLS material as one secure context.
    headers: { ...(credentials.headers as OutgoingHttpHeaders), Accept: 'application/json', ...extraHeaders },
    agent: credentials.streamAgent,
    method: 'GET',
    signal,
  };
  const outgoing = (protocol === 'http:' ? http.request : https.request)(options);
  const answered = new Promise<IncomingMessage>((resolve, reject) => {
    outgoing.once('response', resolve);
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      // V8 keeps an error's call-site frames (functions and their receivers) until `.stack` is first read.
      // The socket holds an aborted request, and so its AbortError, until it has closed: unread, those
      // frames kept a stopped informer's whole cache reachable that long (Node 24).
      void error.stack;
      const stale = outgoing.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
      reject(stale ? new StaleConnectionError(error) : error);
    });
  });
  outgoing.end();
  return answered;
}
