import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { finished } from 'node:stream/promises';
import tls from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node';
import { errorFromStatus, parseStatus, readBody, requestUrl, retryAfter, type Query } from './informer/kube-request.js';
import { AppsetError } from '../model/errors.js';

/** The JSON merge patch content type. */
export const MERGE_PATCH = 'application/merge-patch+json';

/** One request of a {@link KubeClient}. */
export interface KubeRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the server URL, already escaped (see {@link pathSegment}). */
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

/** Settings of {@link createKubeClient}. */
export interface KubeClientOptions {
  /** Connections open at once; requests beyond wait for one (default 256). */
  maxSockets?: number;
  /** Bound of one request, queueing for a connection included (default 60 s). */
  timeoutMs?: number;
}

/** JSON requests to the API server of a kubeconfig over a pool of keep-alive connections. */
export interface KubeClient {
  /** Sends the request; resolves with the parsed JSON answer (undefined for an empty one), throws KubeApiError for non-2xx. */
  request<T>(request: KubeRequest): Promise<T>;
  /** Like {@link request}, for writes whose answer nobody reads: a successful answer is not parsed. */
  send(request: KubeRequest): Promise<void>;
}

/** Escapes one path segment (a namespace or name) so it can never change the request's path. */
export function pathSegment(value: string): string {
  if (value === '' || value === '.' || value === '..') throw new Error(`${JSON.stringify(value)} is not a valid path segment`);
  return encodeURIComponent(value);
}

/**
 * A {@link KubeClient} for `kc`'s current context. client-node opens a new TLS connection, with a new
 * secure context, for every request: profiling a controller writing 3,000 Applications showed two
 * thirds of its CPU in TLS set-up (and the API server pays its side of every handshake). Here
 * connections stay open and are reused. Credentials still come from client-node, resolved again every
 * few seconds (token files and exec plugins are refreshed); when the TLS material changes (a rotated
 * client certificate), new connections use the new material.
 */
export function createKubeClient(kc: KubeConfig, options: KubeClientOptions = {}): KubeClient {
  const agents = new AgentPool(options.maxSockets ?? 256);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const withRetry = async (request: KubeRequest, parse: boolean): Promise<unknown> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await sendOnce(kc, agents, request, timeoutMs, parse);
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
  };
}

/** The request went out on a reused connection that turned out to be closed. */
class StaleConnectionError extends AppsetError {
  constructor(override readonly cause: unknown) {
    super('a reused keep-alive connection was closed by the server');
  }
}

async function sendOnce(kc: KubeConfig, agents: AgentPool, request: KubeRequest, timeoutMs: number, parse: boolean): Promise<unknown> {
  const url = requestUrl(kc, request.path, request.query);
  const { headers, auth, agent, ...tls } = await agents.credentials(kc);
  const body = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
  const options: https.RequestOptions = {
    headers: {
      ...headers,
      Accept: 'application/json',
      ...(body ? { 'Content-Type': request.contentType ?? 'application/json', 'Content-Length': body.length } : {}),
    },
    // The pooled agent carries the TLS material as one secure context; without a pooled agent (proxies,
    // plain HTTP) the request carries it itself.
    ...(agent instanceof PooledAgent ? {} : tls),
    ...(auth ? { auth } : {}),
    agent,
  };
  const signal = request.signal ? AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
  const send = url.protocol === 'http:' ? http.request : https.request;
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = send(url, { ...options, method: request.method, signal }, resolve);
    outgoing.once('error', (error: NodeJS.ErrnoException) => {
      const stale = outgoing.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
      reject(stale ? new StaleConnectionError(error) : error);
    });
    outgoing.end(body);
  });
  const status = response.statusCode ?? 0;
  const ok = status >= 200 && status < 300;
  if (ok && !parse) {
    response.resume(); // the connection goes back to the pool once the answer is read
    await finished(response);
    return undefined;
  }
  const text = (await readBody(response)).toString('utf8');
  if (!ok) throw errorFromStatus(status, parseStatus(text), retryAfter(response));
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`${request.method} ${request.path}: the server sent a body that is not JSON: ${text.slice(0, 200)}`);
  }
}

/** The TLS settings of client-node's per-request agent that decide which connection may be reused. */
const TLS_MATERIAL = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername'] as const;

/** How long the credentials client-node resolved are reused: a token refreshed on disk is picked up within this. */
const CREDENTIALS_TTL_MS = 5_000;

/** A keep-alive agent whose connections share one secure context. */
class PooledAgent extends https.Agent {}

/** What {@link AgentPool.credentials} hands a request: headers, TLS material and the agent to send through. */
type Credentials = Pick<https.RequestOptions, 'headers' | 'auth' | (typeof TLS_MATERIAL)[number]> & { agent: http.Agent | undefined };

/**
 * The credentials of the kubeconfig and one keep-alive agent, replaced when client-node's per-request
 * agent carries different TLS material. Resolving credentials builds a fresh agent and decodes
 * certificates every time, so the result is kept for a few seconds. Proxy agents and plain HTTP agents
 * are used as client-node built them.
 */
class AgentPool {
  private agent: PooledAgent | undefined;
  private agentMaterial: https.AgentOptions | undefined;
  private cached: { at: number; credentials: Promise<Credentials> } | undefined;

  constructor(private readonly maxSockets: number) {}

  credentials(kc: KubeConfig): Promise<Credentials> {
    const now = performance.now();
    if (!this.cached || now - this.cached.at > CREDENTIALS_TTL_MS) {
      const credentials = this.resolve(kc);
      this.cached = { at: now, credentials };
      credentials.catch(() => (this.cached = undefined)); // a failed resolution is not kept
    }
    return this.cached.credentials;
  }

  private async resolve(kc: KubeConfig): Promise<Credentials> {
    const options: https.RequestOptions = {};
    await kc.applyToHTTPSOptions(options);
    const { headers, auth, ca, cert, key, pfx, passphrase, rejectUnauthorized, servername } = options;
    return { headers, auth, ca, cert, key, pfx, passphrase, rejectUnauthorized, servername, agent: this.use(options.agent) };
  }

  private use(fresh: unknown): http.Agent | undefined {
    if (!(fresh instanceof https.Agent) || fresh.constructor !== https.Agent) return fresh as http.Agent | undefined;
    if (!this.agent || !this.agentMaterial || !sameTlsMaterial(this.agentMaterial, fresh.options)) {
      const { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername } = fresh.options;
      // One secure context for every connection: building it (parsing the CA bundle) is the costly part.
      // The agent's own options stay free of certificates: Node names its connection pools by them, per request.
      const secureContext = tls.createSecureContext({ ca, cert, key, pfx, passphrase });
      // The replaced agent's connections finish their requests and then close after their idle timeout.
      this.agent = new PooledAgent({ secureContext, rejectUnauthorized, servername, keepAlive: true, maxSockets: this.maxSockets, timeout: 30_000 });
      this.agentMaterial = fresh.options;
    }
    return this.agent;
  }
}

function sameTlsMaterial(a: https.AgentOptions, b: https.AgentOptions): boolean {
  return TLS_MATERIAL.every((name) => sameValue(a[name], b[name]));
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  return a === b;
}
