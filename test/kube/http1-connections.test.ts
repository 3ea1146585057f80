import assert from 'node:assert/strict';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { KubeConfig } from '../../src/kube/kubeconfig.js';
import { ConnectionLostError, Http1Connections, StaleConnectionError } from '../../src/kube/transport/http1-connections.js';
import { createKubeTransport } from '../../src/kube/transport/transport.js';

/** What the raw test server does with the n-th request (from 1) on one connection. */
type Behaviour = (socket: Socket, request: string, onConnection: number) => void;

const ok = (body = '{}', extra = ''): string => `HTTP/1.1 200 OK\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

describe('Http1Connections against a raw server', () => {
  let server: Server;
  let port = 0;
  let behaviour: Behaviour = (socket) => socket.write(ok());
  let connections = 0;
  const requests: string[] = [];

  before(async () => {
    server = createServer((socket) => {
      connections++;
      let onConnection = 0;
      let buffered = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => {
        buffered += chunk;
        // One request per read in these tests: the head, then a body of its Content-Length.
        const end = buffered.indexOf('\r\n\r\n');
        const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
        if (end < 0 || buffered.length < end + 4 + length) return;
        const request = buffered;
        buffered = '';
        requests.push(request);
        behaviour(socket, request, ++onConnection);
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => server.close());

  const pool = (max = 4): Http1Connections =>
    new Http1Connections({ connect: (onread) => connect({ host: '127.0.0.1', port, onread }), maxConnections: max, idleTimeoutMs: 5_000 });
  const kubeConfig = (headers: Record<string, string> = {}): KubeConfig => ({
    server: `http://127.0.0.1:${port}`,
    namespace: undefined,
    connection: () => Promise.resolve({ headers, tls: { rejectUnauthorized: true } }),
  });

  it('reuses one connection for requests one after another, and writes each request whole', async () => {
    behaviour = (socket) => socket.write(ok('{"n":1}'));
    const before = connections;
    const connectionsOf = pool();
    for (let i = 0; i < 5; i++) {
      const answer = await connectionsOf.exchange(`GET /a/${i} HTTP/1.1\r\nHost: x\r\n\r\n`, true).answer;
      assert.deepEqual(answer, { status: 200, retryAfter: undefined, body: '{"n":1}' });
    }
    assert.equal(connections - before, 1);
    connectionsOf.retire();
  });

  it('opens no more than its limit, and queued requests go out as connections come free', async () => {
    behaviour = (socket) => setTimeout(() => socket.write(ok()), 5);
    const before = connections;
    const connectionsOf = pool(2);
    await Promise.all(Array.from({ length: 12 }, (_, i) => connectionsOf.exchange(`GET /q/${i} HTTP/1.1\r\nHost: x\r\n\r\n`, false).answer));
    assert.equal(connections - before, 2);
    assert.equal(connectionsOf.openConnections, 2);
    connectionsOf.retire();
  });

  it('says a reused connection was stale when it closes before any answer, and the transport sends an idempotent request again', async () => {
    // The server closes every connection on its second request, as an API server closing idle connections can.
    behaviour = (socket, _request, n) => (n === 1 ? socket.write(ok('{"first":true}')) : socket.destroy());
    const connectionsOf = pool(1);
    await connectionsOf.exchange('GET /s HTTP/1.1\r\nHost: x\r\n\r\n', true).answer;
    await assert.rejects(connectionsOf.exchange('GET /s HTTP/1.1\r\nHost: x\r\n\r\n', true).answer, StaleConnectionError);

    const transport = createKubeTransport(kubeConfig(), { maxSockets: 1 });
    assert.deepEqual(await transport.request({ method: 'GET', path: '/s', idempotent: true }), { first: true });
    assert.deepEqual(await transport.request({ method: 'GET', path: '/s', idempotent: true }), { first: true }, 'sent again on a new connection');
    // A write is not repeated: it may have arrived.
    await assert.rejects(transport.send({ method: 'PATCH', path: '/s', body: {} }), ConnectionLostError);
  });

  it('does not reuse a connection the server said it closes', async () => {
    behaviour = (socket) => socket.write(ok('{}', 'Connection: close\r\n'));
    const before = connections;
    const connectionsOf = pool(1);
    for (let i = 0; i < 3; i++) await connectionsOf.exchange('GET /c HTTP/1.1\r\nHost: x\r\n\r\n', false).answer;
    assert.equal(connections - before, 3);
  });

  it('drops a connection whose server speaks out of turn, and answers the next request on a new one', async () => {
    behaviour = (socket) => {
      socket.write(ok());
      setTimeout(() => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'), 20); // an answer nobody asked for
    };
    const before = connections;
    const connectionsOf = pool(1);
    await connectionsOf.exchange('GET /o HTTP/1.1\r\nHost: x\r\n\r\n', false).answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(connectionsOf.openConnections, 0);
    await connectionsOf.exchange('GET /o HTTP/1.1\r\nHost: x\r\n\r\n', false).answer;
    assert.equal(connections - before, 2);
    connectionsOf.retire();
  });

  it('never sends a header line smuggled in through the credentials, nor a path that is not escaped', async () => {
    behaviour = (socket) => socket.write(ok());
    const sent = requests.length;
    const smuggling = createKubeTransport(kubeConfig({ Authorization: 'Bearer t\r\nImpersonate-User: admin' }));
    await assert.rejects(smuggling.send({ method: 'GET', path: '/x' }), /credentials hold a header that cannot be sent: Authorization/);
    const transport = createKubeTransport(kubeConfig());
    await assert.rejects(transport.send({ method: 'GET', path: '/a b HTTP/1.1\r\nX: y' }), /a request path must be escaped/);
    assert.equal(requests.length, sent, 'nothing reached the server');
  });
});
