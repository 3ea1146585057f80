import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { KubeConfig } from '../../src/kube/kubeconfig.js';
import { requestPath, requestTarget } from '../../src/kube/transport/request-url.js';
import { createKubeTransport, RequestTimeoutError } from '../../src/kube/transport/transport.js';

/** A kubeconfig for a plain-HTTP server at `server`, without credentials. */
const plainKubeConfig = (server: string): KubeConfig => ({
  server,
  namespace: undefined,
  connection: () => Promise.resolve({ headers: {}, tls: { rejectUnauthorized: true } }),
});

describe('requestTarget', () => {
  it("keeps the server URL's path prefix and port, and encodes the query", () => {
    const target = requestTarget(plainKubeConfig('https://proxy.example:8443/k8s/clusters/c-1/'), '/api/v1/pods', {
      labelSelector: 'app in (a,b),tier!=db',
      limit: 500,
      watch: true,
      continue: undefined,
    });
    assert.deepEqual(target, {
      protocol: 'https:',
      hostname: 'proxy.example',
      port: 8443,
      path: '/k8s/clusters/c-1/api/v1/pods?labelSelector=app%20in%20(a%2Cb)%2Ctier!%3Ddb&limit=500&watch=true',
    });
    const decoded = new URL(`https://x${target.path}`).searchParams;
    assert.equal(decoded.get('labelSelector'), 'app in (a,b),tier!=db');
    assert.equal(decoded.has('continue'), false);
  });

  it('takes an IPv6 address without brackets and leaves the default port to the agent', () => {
    assert.deepEqual(requestTarget(plainKubeConfig('https://[::1]'), '/version'), { protocol: 'https:', hostname: '::1', port: undefined, path: '/version' });
  });

  it('refuses a server URL that is neither http nor https', () => {
    assert.throws(() => requestTarget(plainKubeConfig('ftp://files.example'), '/version'), /neither http nor https/);
  });

  it('gives requests that write their own head the same path and query as requestTarget', () => {
    const kc = plainKubeConfig('https://proxy.example:8443/k8s/clusters/c-1/');
    const query = { fieldManager: 'appset-controller', force: true, dryRun: undefined, name: 'a&b=c' };
    const path = requestPath(kc, '/apis/argoproj.io/v1alpha1/namespaces/team/applications/web', query);
    assert.equal(path, '/k8s/clusters/c-1/apis/argoproj.io/v1alpha1/namespaces/team/applications/web?fieldManager=appset-controller&force=true&name=a%26b%3Dc');
    assert.equal(path, requestTarget(kc, '/apis/argoproj.io/v1alpha1/namespaces/team/applications/web', query).path);
    assert.throws(() => requestPath(plainKubeConfig('ftp://files.example'), '/version'), /neither http nor https/);
  });
});

describe('KubeTransport against a local server', () => {
  let server: Server;
  let base: string;
  const seen: string[] = [];
  let answer: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;

  before(async () => {
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      answer(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('sends the path under the prefix with the query, and parses the answer', async () => {
    answer = (_req, res) => res.end(JSON.stringify({ kind: 'Status', ok: 1 }));
    const transport = createKubeTransport(plainKubeConfig(`${base}/prefix`));
    const got = await transport.request<{ ok: number }>({
      method: 'GET',
      path: '/apis/x/v1/things',
      query: { labelSelector: 'a=b', limit: 2, continue: undefined },
    });
    assert.equal(got.ok, 1);
    assert.equal(seen.at(-1), 'GET /prefix/apis/x/v1/things?labelSelector=a%3Db&limit=2');
  });

  it('writes a request with a body in one chunk, headers and body together, with the byte length of the body', async () => {
    const bodies: unknown[] = [];
    answer = (req, res) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (text += chunk));
      req.on('end', () => {
        bodies.push(JSON.parse(text));
        res.end();
      });
    };
    // Headers and a Buffer body were two chunks (one writev); one string, one write, cost the client and
    // the API server about a tenth less CPU per apply (docs/benchmarks.md, session 17).
    const chunksPerWrite: number[] = [];
    const port = (server.address() as AddressInfo).port;
    // Read through Reflect: the methods are put back unchanged, never called unbound.
    const write = Reflect.get<Socket, '_write'>(Socket.prototype, '_write');
    const writev = Reflect.get<Socket, '_writev'>(Socket.prototype, '_writev');
    // The client's side only (a new connection writes while still connecting): the server's answers go through the same prototype.
    Socket.prototype._write = function (this: Socket, ...args: Parameters<Socket['_write']>) {
      if (this.connecting || this.remotePort === port) chunksPerWrite.push(1);
      return write.apply(this, args);
    };
    Socket.prototype._writev = function (this: Socket, ...args: Parameters<NonNullable<Socket['_writev']>>) {
      if (this.connecting || this.remotePort === port) chunksPerWrite.push(args[0].length);
      return writev?.apply(this, args);
    };
    try {
      const transport = createKubeTransport(plainKubeConfig(base));
      const objects = [1, 2, 3].map((n) => ({ metadata: { name: `app-${n}` }, spec: { note: 'naïve ✓ '.repeat(n * 50) } }));
      for (const body of objects) await transport.send({ method: 'PATCH', path: '/apis/x/v1/things/a', body, contentType: 'application/apply-patch+yaml' });
      assert.deepEqual(bodies, objects);
      assert.deepEqual(chunksPerWrite, [1, 1, 1]);
    } finally {
      Object.assign(Socket.prototype, { _write: write, _writev: writev });
    }
  });

  it('gives up with a RequestTimeoutError when no answer comes within the bound', async () => {
    answer = () => undefined; // never answers
    const transport = createKubeTransport(plainKubeConfig(base), { timeoutMs: 200 });
    const started = performance.now();
    await assert.rejects(transport.send({ method: 'PATCH', path: '/slow', body: {} }), RequestTimeoutError);
    assert.ok(performance.now() - started < 5_000);
  });

  it('bounds the reading of the answer too: headers and half a body, then silence', async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"half":');
    };
    const transport = createKubeTransport(plainKubeConfig(base), { timeoutMs: 200 });
    await assert.rejects(transport.request({ method: 'GET', path: '/half' }));
    await assert.rejects(transport.send({ method: 'GET', path: '/half' }));
  });

  it('sends requests over at most maxSockets connections, and a long stream takes none of them', async () => {
    const held: ServerResponse[] = [];
    const requestPorts = new Set<number>();
    answer = (req, res) => {
      if (req.url?.startsWith('/watch')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('\n');
        held.push(res); // a watch that lasts until the test ends it
        return;
      }
      requestPorts.add(req.socket.remotePort ?? 0);
      setTimeout(() => res.end('{}'), 5);
    };
    const transport = createKubeTransport(plainKubeConfig(base), { maxSockets: 2, maxStreams: 4 });
    const watches = new AbortController();
    const streams = await Promise.all([1, 2, 3].map((i) => transport.stream(`/watch/${i}`, {}, watches.signal)));
    const bodies = [4, 5, 6].map((i) => transport.streamBody(`/watch/${i}`, {}, watches.signal, { onBody: () => undefined }).catch((error: unknown) => error));
    await Promise.all(Array.from({ length: 20 }, (_, i) => transport.send({ method: 'PATCH', path: `/write/${i}`, body: {} })));
    assert.equal(requestPorts.size, 2, 'twenty writes shared two connections while six streams stayed open');
    watches.abort();
    for (const stream of streams) stream.destroy();
    for (const ended of await Promise.all(bodies)) assert.equal((ended as Error).name, 'AbortError');
    for (const res of held) res.end();
  });

  it('streams a chunked body to the sink as it comes, and resolves when the server ends it', async () => {
    const pieces = ['{"type":"ADDED"}\n', '{"type":"MOD', 'IFIED","note":"grüße 😀"}\n', 'x'.repeat(200_000), '\n'];
    answer = (req, res) => {
      assert.equal(req.headers.accept, 'application/json');
      res.writeHead(200, { 'content-type': 'application/json' });
      let i = 0;
      const next = (): void => {
        if (i === pieces.length) res.end();
        else res.write(pieces[i++], () => setTimeout(next, 2));
      };
      next();
    };
    const transport = createKubeTransport(plainKubeConfig(`${base}/prefix`));
    const order: string[] = [];
    const received: Buffer[] = [];
    await transport.streamBody('/apis/x/v1/things', { watch: true, resourceVersion: '7' }, new AbortController().signal, {
      onResponse: () => order.push('response'),
      onBody: (bytes) => {
        if (order.at(-1) !== 'body') order.push('body');
        received.push(Buffer.from(bytes)); // the stream's buffer is reused after each call
      },
    });
    assert.deepEqual(order, ['response', 'body']);
    assert.equal(Buffer.concat(received).toString('utf8'), pieces.join(''));
    assert.ok(received.length >= pieces.length, 'handed on as the bytes came, not at the end');
    assert.equal(seen.at(-1), 'GET /prefix/apis/x/v1/things?watch=true&resourceVersion=7');
  });

  it("throws a stream's error answer as the API's error, and hands none of it to the sink", async () => {
    answer = (_req, res) => {
      res.writeHead(410, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version: 1 (5)' }));
    };
    let bodies = 0;
    const transport = createKubeTransport(plainKubeConfig(base));
    await assert.rejects(
      transport.streamBody('/watch/expired', {}, new AbortController().signal, { onResponse: () => bodies++, onBody: () => bodies++ }),
      (error: Error) => error.name === 'GoneError' && /too old resource version/.test(error.message),
    );
    assert.equal(bodies, 0);
  });

  it('ends a stream with what its sink throws, or when the server drops it midway, and closes the connection', async () => {
    const closed: Promise<void>[] = [];
    answer = (req, res) => {
      closed.push(new Promise((resolve) => req.socket.once('close', () => resolve())));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"type":"ADDED"}\n');
      if (req.url === '/watch/drop') setTimeout(() => req.socket.destroy(), 20);
    };
    const transport = createKubeTransport(plainKubeConfig(base));
    const signal = new AbortController().signal;
    await assert.rejects(
      transport.streamBody('/watch/throws', {}, signal, {
        onBody: () => {
          throw new Error('the informer failed');
        },
      }),
      /the informer failed/,
    );
    await assert.rejects(
      transport.streamBody('/watch/drop', {}, signal, { onBody: () => undefined }),
      /ended before the response was complete|closed the connection/,
    );
    await Promise.all(closed);
  });

  it("stops at the caller's signal", async () => {
    answer = () => undefined;
    const transport = createKubeTransport(plainKubeConfig(base), { timeoutMs: 60_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(transport.request({ method: 'GET', path: '/waits', signal: controller.signal }), { name: 'AbortError' });
  });
});
