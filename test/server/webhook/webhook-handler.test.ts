import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { startOperationsServer, type OperationsServer } from '../../../src/server/http-server.js';
import { createControllerMetrics } from '../../../src/server/metrics.js';
import type { PushEvent } from '../../../src/model/push.js';
import { createWebhookHandler } from '../../../src/server/webhook/webhook-handler.js';
import { payloads, signedHeaders } from './payloads.js';

describe('webhook endpoint', () => {
  const secret = 'hook-secret';
  const pushes: PushEvent[] = [];
  const registry = new Registry();
  const metrics = createControllerMetrics(registry);
  let server: OperationsServer;
  const post = (body: string, headers: Record<string, string>, method = 'POST'): Promise<Response> =>
    fetch(`http://127.0.0.1:${server.port}/api/webhook`, { method, headers, ...(method === 'POST' ? { body } : {}) });

  before(async () => {
    const handler = createWebhookHandler({
      secrets: () => ({ github: secret, gitlab: secret }),
      onPush: (push) => {
        pushes.push(push);
        return Promise.resolve(3);
      },
      log: pino({ level: 'silent' }),
      maxBodyBytes: 64 * 1024,
      perSourcePerMinute: 30,
      metrics: { requests: metrics.webhookRequests, enqueuedPerPush: metrics.webhookEnqueuedPerPush },
    });
    server = await startOperationsServer({
      host: '127.0.0.1',
      port: 0,
      registry,
      readiness: [],
      log: pino({ level: 'silent' }),
      routes: { '/api/webhook': handler },
    });
  });
  after(() => server.close());

  it('accepts a signed push and hands it on', async () => {
    const body = JSON.stringify(payloads.github);
    const response = await post(body, signedHeaders('github', secret, body));
    assert.equal(response.status, 202);
    assert.deepEqual(await response.json(), { enqueued: 3 });
    assert.equal(pushes.length, 1);
    assert.deepEqual(pushes[0]?.revisions, ['main']);
  });

  it('answers 401 to a bad or missing signature and enqueues nothing', async () => {
    const before = pushes.length;
    const body = JSON.stringify(payloads.github);
    assert.equal((await post(body, signedHeaders('github', 'guessed', body))).status, 401);
    assert.equal((await post(body, { 'x-github-event': 'push', 'content-type': 'application/json' })).status, 401);
    assert.equal((await post(JSON.stringify(payloads.gitlab), { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'nope' })).status, 401);
    const giteaBody = JSON.stringify(payloads.gitea);
    assert.equal((await post(giteaBody, signedHeaders('gitea', secret, giteaBody))).status, 401, 'no Gitea secret is configured');
    assert.equal(pushes.length, before);
  });

  it('answers clear 4xx for malformed and unknown requests, and 200 for non-push events', async () => {
    assert.equal((await post('{}', { 'content-type': 'application/json' })).status, 400, 'no provider header');
    const notJson = 'definitely not json';
    assert.equal((await post(notJson, signedHeaders('github', secret, notJson))).status, 400);
    const noRef = JSON.stringify({ repository: payloads.github.repository });
    assert.equal((await post(noRef, signedHeaders('github', secret, noRef))).status, 400);
    const ping = JSON.stringify({ zen: 'hi' });
    const pingHeaders = { ...signedHeaders('github', secret, ping), 'x-github-event': 'ping' };
    const pong = await post(ping, pingHeaders);
    assert.equal(pong.status, 200);
    assert.deepEqual(await pong.json(), { ignored: 'ping' });
    assert.equal((await post('', {}, 'GET')).status, 405);
  });

  it('refuses a body over the size limit with 413, declared or streamed, and hands nothing on', async () => {
    const before = pushes.length;
    const huge = JSON.stringify({ ...payloads.github, padding: 'x'.repeat(70 * 1024) });
    assert.equal((await post(huge, signedHeaders('github', secret, huge))).status, 413);
    // Chunked, with no Content-Length to refuse up front: the reader must stop at the limit by itself.
    const streamed = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: server.port, path: '/api/webhook', method: 'POST', headers: signedHeaders('github', secret, huge) },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 70; i++) req.write('x'.repeat(1024));
      req.end();
    });
    assert.equal(streamed, 413);
    assert.equal(pushes.length, before);
  });

  it('counts requests by provider and result', async () => {
    const text = await registry.metrics();
    assert.match(text, /appset_webhook_requests_total\{provider="github",result="accepted"\} 1/);
    assert.match(text, /appset_webhook_requests_total\{provider="github",result="unauthorized"\} 2/);
    assert.match(text, /appset_webhook_enqueued_applicationsets_sum 3/);
  });

  it('rate-limits one source: once its bucket is empty even a signed push gets 429 and is not handed on', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await post('', {}, 'GET')).status);
    assert.ok(statuses.includes(429), 'the bucket of 30 per minute runs out');
    const before = pushes.length;
    const body = JSON.stringify(payloads.github);
    const limited = await post(body, signedHeaders('github', secret, body));
    assert.equal(limited.status, 429);
    assert.match(((await limited.json()) as { error: string }).error, /too many webhook requests/);
    assert.equal(pushes.length, before);
    assert.match(await registry.metrics(), /appset_webhook_requests_total\{provider="github",result="rate-limited"\} 1/);
  });
});
