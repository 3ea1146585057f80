import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Counter, Histogram } from 'prom-client';
import { detectProvider, verifyRequest, WebhookRejection, type WebhookSecrets } from './providers.js';
import type { PushEvent } from '../../model/push.js';
import { isPushEvent, parsePushEvent } from './push-event.js';
import { SourceRateLimiter } from './rate-limiter.js';

/** What the webhook receiver needs. */
export interface WebhookHandlerOptions {
  /** Current secrets (re-read when the Secret changes). */
  secrets: () => WebhookSecrets;
  /** Enqueues the ApplicationSets a push affects and returns how many. */
  onPush: (push: PushEvent) => Promise<number>;
  log: Logger;
  /** Largest accepted body; GitHub caps its payloads at 25 MB. */
  maxBodyBytes?: number;
  /** Requests per minute from one source address. */
  perSourcePerMinute?: number;
  metrics?: { requests: Counter<'provider' | 'result'>; enqueuedPerPush: Histogram };
}

/** The webhook route: verifies, parses and hands pushes on; every refusal is a clear 4xx and enqueues nothing. */
export function createWebhookHandler(options: WebhookHandlerOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const maxBodyBytes = options.maxBodyBytes ?? 25 * 1024 * 1024;
  const limiter = new SourceRateLimiter(options.perSourcePerMinute ?? 600);
  const answer = (res: ServerResponse, status: number, body: object, provider: string, result: string): void => {
    options.metrics?.requests.inc({ provider, result });
    res.writeHead(status, { 'content-type': 'application/json' }).end(`${JSON.stringify(body)}\n`);
  };
  return async (req, res) => {
    const provider = detectProvider(req.headers)?.provider ?? 'unknown';
    if (!limiter.take(req.socket.remoteAddress ?? 'unknown'))
      return answer(res, 429, { error: 'too many webhook requests from this source' }, provider, 'rate-limited');
    if (req.method !== 'POST') return answer(res, 405, { error: 'webhooks are POST requests' }, provider, 'method');
    const body = await readBody(req, maxBodyBytes);
    if (body === 'too-large') return answer(res, 413, { error: `webhook body is larger than ${maxBodyBytes} bytes` }, provider, 'too-large');
    try {
      const request = verifyRequest(req.headers, body, options.secrets());
      if (!isPushEvent(request.provider, request.event)) return answer(res, 200, { ignored: request.event }, request.provider, 'ignored');
      const push = parsePushEvent(request.provider, parseJson(body));
      const enqueued = await options.onPush(push);
      options.metrics?.enqueuedPerPush.observe(enqueued);
      options.log.info({ provider: push.provider, repoURLs: push.repoURLs, revisions: push.revisions, enqueued }, 'webhook push');
      return answer(res, 202, { enqueued }, request.provider, 'accepted');
    } catch (error) {
      if (!(error instanceof WebhookRejection)) throw error;
      options.log.warn({ status: error.status, reason: error.message, source: req.socket.remoteAddress }, 'webhook refused');
      return answer(res, error.status, { error: error.message }, provider, error.status === 401 ? 'unauthorized' : 'bad-request');
    }
  };
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    throw new WebhookRejection(400, 'webhook body is not valid JSON (send it as application/json)');
  }
}

/** Reads the body, stopping (and draining nothing more) once it passes `limit`. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      req.resume();
      return resolve('too-large');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        resolve('too-large');
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
