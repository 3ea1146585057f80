import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, it } from 'node:test';
import type { Connection, KubeConfig } from '../../src/kube/kubeconfig.js';
import { ConnectionPool, PooledAgent } from '../../src/kube/transport/connection-pool.js';
import { Http1Connections } from '../../src/kube/transport/http1-connections.js';

/** A kubeconfig whose connection is whatever `current` holds when asked; counts the resolutions. */
function changing(server: string, current: { connection: Connection }): KubeConfig & { resolved: number } {
  const kc = { server, namespace: undefined, resolved: 0, connection: () => (kc.resolved++, Promise.resolve(current.connection)) };
  return kc;
}

const LIMITS = { requests: 4, streams: 16 };

describe('ConnectionPool', () => {
  it('keeps its connections while the TLS material stays, and new ones when it changes', async () => {
    const current = { connection: { headers: { Authorization: 'Bearer a' }, tls: { rejectUnauthorized: true } } as Connection };
    const kc = changing('https://api:6443', current);
    const pool = new ConnectionPool(LIMITS, 0);
    const first = await pool.credentials(kc);
    assert.ok(first.requests instanceof Http1Connections);
    assert.ok(first.streamAgent instanceof PooledAgent);
    current.connection = { headers: { Authorization: 'Bearer b' }, tls: { rejectUnauthorized: true } };
    const second = await pool.credentials(kc);
    assert.equal(second.requests, first.requests, 'a new token alone keeps the connections');
    assert.deepEqual(second.headers, { Authorization: 'Bearer b' });
    current.connection = { headers: {}, tls: { rejectUnauthorized: true, servername: 'kubernetes' } };
    const third = await pool.credentials(kc);
    assert.notEqual(third.requests, first.requests, 'new TLS material gets new connections');
    assert.notEqual(third.streamAgent, first.streamAgent, 'streams too');
  });

  it('gives requests and streams connections of their own, each with its limit', async () => {
    for (const server of ['https://api:6443', 'http://127.0.0.1:8080']) {
      const { requests, streamAgent } = await new ConnectionPool(LIMITS, 0).credentials(
        changing(server, { connection: { headers: {}, tls: { rejectUnauthorized: true } } }),
      );
      assert.equal(requests.maxConnections, 4, server);
      assert.equal(streamAgent.maxSockets, 16, server);
    }
  });

  it('refuses a limit that is not a positive integer', () => {
    assert.throws(() => new ConnectionPool({ requests: 0, streams: 16 }), /requests must be a positive integer/);
    assert.throws(() => new ConnectionPool({ requests: 4, streams: 1.5 }), /streams must be a positive integer/);
  });

  it('resolves again only after its time to live', async () => {
    const kc = changing('https://api:6443', { connection: { headers: {}, tls: { rejectUnauthorized: true } } });
    const pool = new ConnectionPool(LIMITS, 60_000);
    await Promise.all([pool.credentials(kc), pool.credentials(kc)]);
    await pool.credentials(kc);
    assert.equal(kc.resolved, 1);
  });

  it('uses a plain keep-alive HTTP agent for the streams of an http server', async () => {
    const kc = changing('http://127.0.0.1:8080', { connection: { headers: {}, tls: { rejectUnauthorized: true } } });
    const { streamAgent } = await new ConnectionPool(LIMITS, 0).credentials(kc);
    assert.ok(streamAgent instanceof http.Agent && !(streamAgent instanceof PooledAgent));
  });

  it('does not keep a failed resolution', async () => {
    let fail = true;
    const kc: KubeConfig = {
      server: 'https://api',
      namespace: undefined,
      connection: () => (fail ? Promise.reject(new Error('plugin failed')) : Promise.resolve({ headers: {}, tls: { rejectUnauthorized: true } })),
    };
    const pool = new ConnectionPool(LIMITS, 60_000);
    await assert.rejects(pool.credentials(kc), /plugin failed/);
    fail = false;
    assert.ok((await pool.credentials(kc)).requests);
  });
});
