import { createHmac, randomUUID } from 'node:crypto';
import type { PushedRef } from '../environment/local/git-http-server.js';
import { nodeHttp } from '../runtime/node-http.js';

/** Where a push webhook goes and how it is signed. */
export interface PushWebhookTarget {
  /** `http://127.0.0.1:PORT/api/webhook` of one controller replica. */
  readonly url: string;
  /** The shared secret of the `webhook.gitea.secret` key. */
  readonly secret: string;
}

/**
 * Sends one Gitea push webhook per moved ref, signed as Gitea signs it (hex HMAC-SHA256 of the body in
 * `X-Gitea-Signature`), so local mode exercises the same receiver a real forge reaches. Resolves with
 * the HTTP status of each delivery.
 */
export async function sendPushWebhooks(target: PushWebhookTarget, repoUrl: string, refs: readonly PushedRef[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const moved of refs) {
    const body = JSON.stringify({
      ref: moved.ref,
      before: moved.before,
      after: moved.after,
      repository: { clone_url: repoUrl, html_url: repoUrl.replace(/\.git$/, ''), default_branch: 'main' },
    });
    statuses.push(
      await post(target.url, body, {
        'x-gitea-event': 'push',
        'x-gitea-delivery': randomUUID(),
        'x-gitea-signature': createHmac('sha256', target.secret).update(body).digest('hex'),
      }),
    );
  }
  return statuses;
}

function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = nodeHttp.request(
      url,
      { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, timeout: 5_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`webhook to ${url} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}
