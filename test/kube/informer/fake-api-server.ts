// A scripted stand-in for kube-apiserver, for pure unit tests of the reflector's protocol handling
// (410s, throttling, resets, frozen streams) that a real server cannot be made to produce on demand.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { kubeConfigFromText, type KubeConfig } from '../../../src/kube/kubeconfig.js';

/** One request the fake server received. */
export interface RecordedRequest {
  path: string;
  query: URLSearchParams;
  watch: boolean;
  authorization: string | undefined;
  acceptEncoding: string | undefined;
}

/** Answers one request; `index` counts requests of the same kind (list or watch) from 0. */
export type FakeHandler = (request: RecordedRequest, response: ServerResponse, index: number) => void;

/** A local HTTP server answering list and watch requests from a script. */
export class FakeApiServer {
  private constructor(
    private readonly server: Server,
    readonly port: number,
    /** Every request received, in order. */
    readonly requests: RecordedRequest[],
  ) {}

  /** Starts the server on `port` (0: any free port). */
  static async start(handler: FakeHandler, port = 0): Promise<FakeApiServer> {
    const requests: RecordedRequest[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const request = {
        path: url.pathname,
        query: url.searchParams,
        watch: url.searchParams.get('watch') === 'true',
        authorization: req.headers.authorization,
        acceptEncoding: req.headers['accept-encoding'],
      };
      requests.push(request);
      const index = requests.filter((r) => r.watch === request.watch).length - 1;
      handler(request, res, index);
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return new FakeApiServer(server, (server.address() as AddressInfo).port, requests);
  }

  /** List requests received. */
  get lists(): RecordedRequest[] {
    return this.requests.filter((r) => !r.watch);
  }

  /** Watch requests received. */
  get watches(): RecordedRequest[] {
    return this.requests.filter((r) => r.watch);
  }

  /** Stops the server and cuts every open connection. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A kubeconfig for a plain-HTTP server on `port` with a bearer token. */
export function fakeKubeConfig(port: number): KubeConfig {
  const config = {
    clusters: [{ name: 'fake', cluster: { server: `http://127.0.0.1:${port}` } }],
    users: [{ name: 'tester', user: { token: 'fake-token' } }],
    contexts: [{ name: 'fake', context: { cluster: 'fake', user: 'tester' } }],
    'current-context': 'fake',
  };
  return kubeConfigFromText(JSON.stringify(config), 'fake-kubeconfig');
}

/** Starts a {@link FakeApiServer} that is closed when the test `t` ends. */
export async function fakeServerFor(t: TestContext, handler: FakeHandler, port?: number): Promise<FakeApiServer> {
  const server = await FakeApiServer.start(handler, port);
  t.after(() => server.close());
  return server;
}

/** A ConfigMap-like object. */
export function object(name: string, resourceVersion: string, data: Record<string, string> = {}): object {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', resourceVersion, uid: `uid-${name}` }, data };
}

/** Answers with a JSON body. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** Answers a list request with one page. */
export function sendList(response: ServerResponse, resourceVersion: string, items: object[], continueToken?: string): void {
  sendJson(response, 200, { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion, continue: continueToken }, items });
}

/** A Status body with `code`. */
export function status(code: number, reason: string, message = reason): object {
  return { kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message };
}

/** Starts a watch stream; write events with `send`, finish with `response.end()`. */
export function openStream(response: ServerResponse): { send(type: string, object: object): void } {
  response.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
  response.flushHeaders();
  return { send: (type, object) => void response.write(JSON.stringify({ type, object }) + '\n') };
}
