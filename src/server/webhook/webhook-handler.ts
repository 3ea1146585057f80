import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Counter, Histogram } from 'prom-client';
import { detectProvider, verifyRequest, WebhookRejection, type VerifiedRequest, type WebhookSecrets } from './providers.js';
import type { PushEvent } from '../../model/push.js';
import { isPushEvent, parsePushEvent } from './push-event.js';
import type { ScmChangeEvent } from '../../model/scm-event.js';
import { isScmChangeEvent, parseScmChangeEvent } from './scm-event.js';
import { SourceRateLimiter } from './rate-limiter.js';

/** What the webhook receiver needs. */
export interface WebhookHandlerOptions {
  /** Current secrets (re-read when the Secret changes). */
  secrets: () => WebhookSecrets;
  /** Enqueues the ApplicationSets a push affects and returns how many. */
  onPush: (push: PushEvent) => Promise<number>;
  /** Enqueues the ApplicationSets a pull request or repository change affects (pull request and SCM provider generators). */
  onScmChange?: (change: ScmChangeEvent) => Promise<number>;
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
      const enqueued = await routeVerified(options, request, body);
      if (enqueued === undefined) return answer(res, 200, { ignored: request.event }, request.provider, 'ignored');
      options.metrics?.enqueuedPerPush.observe(enqueued);
      return answer(res, 202, { enqueued }, request.provider, 'accepted');
    } catch (error) {
      if (!(error instanceof WebhookRejection)) throw error;
      options.log.warn({ status: error.status, reason: error.message, source: req.socket.remoteAddress }, 'webhook refused');
      return answer(res, error.status, { error: error.message }, provider, error.status === 401 ? 'unauthorized' : 'bad-request');
    }
  };
}

/**
 * Hands a verified request on: a push to `onPush` (a payload without ref or repository is a 400), and a pull
 * request or repository change (a push is one too) to `onScmChange`. Returns how many ApplicationSets were
 * enqueued, or undefined when the event is none of these.
 */
async function routeVerified(options: WebhookHandlerOptions, request: VerifiedRequest, body: Buffer): Promise<number | undefined> {
  const isPush = isPushEvent(request.provider, request.event);
  // Parsed once: Azure DevOps names its event in the body, and an unparsable body is refused only when the event counts.
  const parsed = parseJson(body);
  if (!isPush && !isScmChangeEvent(request.provider, request.event, parsed.ok ? parsed.value : undefined)) return undefined;
  if (!parsed.ok) throw new WebhookRejection(400, 'webhook body is not valid JSON (send it as application/json)');
  const payload = parsed.value;
  const push = isPush ? parsePushEvent(request.provider, payload) : undefined;
  const change = options.onScmChange ? parseScmChangeEvent(request.provider, request.event, payload) : undefined;
  if (!push && !change) return undefined;
  let enqueued = 0;
  if (push) {
    const woken = await options.onPush(push);
    enqueued += woken;
    options.log.info({ provider: push.provider, repoURLs: push.repoURLs, revisions: push.revisions, enqueued: woken }, 'webhook push');
  }
  if (change && options.onScmChange) {
    const woken = await options.onScmChange(change);
    enqueued += woken;
    options.log.info(
      { provider: change.provider, kind: change.kind, owner: change.owner, repo: change.repo, action: change.action, enqueued: woken },
      'webhook change',
    );
  }
  return enqueued;
}

/** The body as JSON, or a failure to report once the event turns out to matter. */
function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) as unknown };
  } catch {
    return { ok: false };
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
