import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { Counter, Registry } from 'prom-client';
import { startOperationsServer, type OperationsServer } from '../../src/server/http-server.js';

describe('operations server', () => {
  const registry = new Registry();
  const counter = new Counter({ name: 'appset_test_total', help: 'a test counter', registers: [registry] });
  let queueReachable = true;
  let server: OperationsServer;
  const get = async (path: string): Promise<{ status: number; body: string }> => {
    const response = await fetch(`http://127.0.0.1:${server.port}${path}`);
    return { status: response.status, body: await response.text() };
  };

  before(async () => {
    server = await startOperationsServer({
      host: '127.0.0.1',
      port: 0,
      registry,
      log: pino({ level: 'silent' }),
      checkTimeoutMs: 200,
      readiness: [
        { name: 'informers', check: () => Promise.resolve() },
        { name: 'queue', check: () => (queueReachable ? Promise.resolve() : Promise.reject(new Error('redis: connection refused'))) },
      ],
      routes: { '/api/webhook': (_req, res) => void res.writeHead(202).end('queued\n') },
    });
  });
  after(() => server.close());

  it('answers /healthz while the process runs', async () => {
    assert.deepEqual(await get('/healthz'), { status: 200, body: 'ok\n' });
  });

  it('is ready only while every check passes, and names the failing one', async () => {
    queueReachable = true;
    const ready = await get('/readyz');
    assert.equal(ready.status, 200);
    assert.match(ready.body, /\[\+\] informers ok\n\[\+\] queue ok\nready/);
    queueReachable = false;
    const notReady = await get('/readyz');
    assert.equal(notReady.status, 503);
    assert.match(notReady.body, /\[-\] queue failed: redis: connection refused/);
  });

  it('counts a check that hangs as failed', async () => {
    const hanging = await startOperationsServer({
      host: '127.0.0.1',
      port: 0,
      registry,
      log: pino({ level: 'silent' }),
      checkTimeoutMs: 50,
      readiness: [{ name: 'stuck', check: () => new Promise(() => undefined) }],
    });
    try {
      const response = await fetch(`http://127.0.0.1:${hanging.port}/readyz`);
      assert.equal(response.status, 503);
      assert.match(await response.text(), /stuck did not answer within 50 ms/);
    } finally {
      await hanging.close();
    }
  });

  it('serves Prometheus metrics, extra routes, and 404 elsewhere', async () => {
    counter.inc(3);
    const metrics = await get('/metrics');
    assert.equal(metrics.status, 200);
    assert.match(metrics.body, /^appset_test_total 3$/m);
    assert.deepEqual(await get('/api/webhook'), { status: 202, body: 'queued\n' });
    assert.equal((await get('/nothing')).status, 404);
  });
});
