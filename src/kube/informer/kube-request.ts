import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { AppsetError } from '../../model/errors.js';

/** A non-2xx answer of the API server, with the Status it sent. */
export class KubeApiError extends AppsetError {
  constructor(
    readonly status: number,
    /** The Status's own reason (`NotFound`, `Conflict`, `Expired`, ...), when the server gave one. */
    readonly statusReason: string | undefined,
    message: string,
    /** Delay the server asked for (429/503 Retry-After), in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'KubeApiError';
  }

  /** The server's Status reason, else the class name. */
  override get reason(): string {
    return this.statusReason ?? this.name;
  }
}

/** 410 Gone: the resourceVersion or continue token is older than what the server still keeps; list again. */
export class GoneError extends KubeApiError {
  constructor(reason: string | undefined, message: string) {
    super(410, reason, message);
    this.name = 'GoneError';
  }
}

/** Query parameters; undefined values are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/** A Kubernetes `Status` object as sent in error bodies and watch ERROR events. */
export interface KubeStatus {
  kind?: string;
  code?: number;
  reason?: string;
  message?: string;
}

/** The error a Status body stands for: {@link GoneError} for 410, else {@link KubeApiError}. */
export function errorFromStatus(httpStatus: number, status: KubeStatus | undefined, retryAfterMs?: number): KubeApiError {
  const code = status?.code ?? httpStatus;
  const message = `HTTP ${code}${status?.reason ? ` ${status.reason}` : ''}: ${status?.message ?? 'no message'}`;
  return code === 410 ? new GoneError(status?.reason, message) : new KubeApiError(code, status?.reason, message, retryAfterMs);
}

/** The URL of `path?query` on the kubeconfig's current cluster; undefined query values are left out. */
export function requestUrl(kc: KubeConfig, path: string, query: Query = {}): URL {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster');
  const url = new URL(cluster.server.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
  return url;
}

/**
 * Connections shared by the requests of one paginated list: client-node builds a new agent without
 * keep-alive per request, so every page would pay a TLS handshake. Call {@link close} when the list ends.
 */
export class ConnectionReuse {
  private agent: https.Agent | undefined;

  /** The keep-alive agent to use instead of `fresh` (the one client-node built), or `fresh` itself. */
  use(fresh: unknown): unknown {
    // Only a plain https.Agent is cloned (its options carry the CA, client certificate and SNI client-node
    // chose); proxy agents and plain HTTP are used as given.
    if (!(fresh instanceof https.Agent) || fresh.constructor !== https.Agent) return fresh;
    this.agent ??= new https.Agent({ ...fresh.options, keepAlive: true, maxSockets: 1 });
    return this.agent;
  }

  /** Closes the pooled connection. */
  close(): void {
    this.agent?.destroy();
    this.agent = undefined;
  }
}

/**
 * Sends `GET path?query` with the credentials, CA and proxy of the kubeconfig's current context (through
 * client-node's `applyToHTTPSOptions`, so token files and exec plugins are refreshed per request) and resolves
 * with the response once its headers arrived. A non-2xx answer is read and thrown as a {@link KubeApiError}.
 * We do the request ourselves because client-node's `Watch` neither exposes the response nor a watchdog hook.
 */
export async function openGet(kc: KubeConfig, path: string, query: Query, signal: AbortSignal, reuse?: ConnectionReuse, acceptGzip = false): Promise<IncomingMessage> {
  const url = requestUrl(kc, path, query);
  const options: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(options);
  options.headers = { ...options.headers, Accept: 'application/json', ...(acceptGzip ? { 'Accept-Encoding': 'gzip' } : {}) };
  if (reuse) options.agent = reuse.use(options.agent) as https.Agent;
  const send = url.protocol === 'http:' ? http.request : https.request;
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = send(url, { ...options, method: 'GET', signal }, resolve);
    request.on('error', (error) => {
      // V8 keeps an error's call-site frames (functions and their receivers) until `.stack` is first read.
      // The socket holds an aborted request, and so its AbortError, until it has closed: unread, those
      // frames kept a stopped informer's whole cache reachable that long (Node 24).
      void error.stack;
      reject(error);
    });
    request.end();
  });
  const status = response.statusCode ?? 0;
  if (status >= 200 && status < 300) return response;
  const body = await readText(response).catch(() => '');
  throw errorFromStatus(status, parseStatus(body), retryAfter(response));
}

/** The whole body of a response. */
export async function readBody(response: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function readText(response: IncomingMessage): Promise<string> {
  return (await readBody(response)).toString('utf8');
}

/** The Status object of an error body; a body that is not JSON becomes its message. */
export function parseStatus(body: string): KubeStatus | undefined {
  try {
    const parsed = JSON.parse(body) as KubeStatus | null;
    return parsed && typeof parsed === 'object' ? parsed : undefined;
  } catch {
    return body ? { message: body.slice(0, 200) } : undefined;
  }
}

/** The delay a 429/503 answer asked for (Retry-After), in ms. */
export function retryAfter(response: IncomingMessage): number | undefined {
  const seconds = Number(response.headers['retry-after']);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}
