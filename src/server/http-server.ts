import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { nodeHttp } from '../runtime/node-http.js';

/** A named readiness check; it resolves when the part is ready and throws (with the reason) when not. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

/** Handles one request on a path the server does not own itself (the webhook receiver, for example). */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/** What the operations server serves. */
export interface OperationsServerOptions {
  host: string;
  port: number;
  registry: Registry;
  readiness: readonly ReadinessCheck[];
  /** Extra routes by exact path. */
  routes?: Readonly<Record<string, RouteHandler>>;
  log: Logger;
  /** Longest a readiness check may take before it counts as failed. */
  checkTimeoutMs?: number;
}

/** The running operations server. */
export interface OperationsServer {
  /** The bound port (useful when 0 was asked for). */
  port: number;
  close(): Promise<void>;
}

/**
 * Serves `/healthz` (the process answers), `/readyz` (every readiness check passes; the body names the
 * failing ones), `/metrics` (Prometheus text) and any extra routes.
 */
export async function startOperationsServer(options: OperationsServerOptions): Promise<OperationsServer> {
  const server = nodeHttp.createServer((req, res) => {
    handle(options, req, res).catch((error: unknown) => {
      options.log.error({ err: error, path: req.url }, 'operations server request failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('internal error\n');
    });
  });
  await listen(server, options.host, options.port);
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function handle(options: OperationsServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (path === '/healthz' || path === '/livez') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
  if (path === '/readyz') return readyz(options, res);
  if (path === '/metrics') {
    const body = await options.registry.metrics();
    return void res.writeHead(200, { 'content-type': options.registry.contentType }).end(body);
  }
  const route = options.routes?.[path];
  if (route) return route(req, res);
  res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
}

async function readyz(options: OperationsServerOptions, res: ServerResponse): Promise<void> {
  const timeoutMs = options.checkTimeoutMs ?? 2_000;
  const results = await Promise.all(
    options.readiness.map(async (readiness) => {
      const name = readiness.name;
      try {
        await withTimeout(readiness.check(), timeoutMs, `${name} did not answer within ${timeoutMs} ms`);
        return `[+] ${name} ok`;
      } catch (error) {
        return `[-] ${name} failed: ${(error as Error).message}`;
      }
    }),
  );
  const ready = results.every((line) => line.startsWith('[+]'));
  res.writeHead(ready ? 200 : 503, { 'content-type': 'text/plain' }).end(`${results.join('\n')}\n${ready ? 'ready' : 'not ready'}\n`);
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}
