// A scripted HTTP server on 127.0.0.1 for unit tests of the SCM HTTP layer: it records every request it
// receives and answers through a handler the test swaps as it goes.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

/** One request as the server received it. */
export interface SeenRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** Answers one request; leaving `res` unanswered makes the server hang (for timeouts). */
export type Answer = (req: SeenRequest, res: ServerResponse) => void;

/** A running local API. */
export interface LocalApi {
  readonly port: number;
  /** `http://127.0.0.1:<port>` (or https). */
  readonly origin: string;
  readonly requests: SeenRequest[];
  /** Replaces the handler for the following requests. */
  answer(handler: Answer): void;
  close(): Promise<void>;
}

/** Sends `body` as JSON with `status` and extra headers. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body === undefined ? '' : JSON.stringify(body));
}

/** Starts a local API on 127.0.0.1 and a free port; with `tls`, an https one serving that key and certificate. */
export async function startLocalApi(handler: Answer = (_req, res) => json(res, 200, {}), tls?: { key: string; cert: string }): Promise<LocalApi> {
  const requests: SeenRequest[] = [];
  let current = handler;
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen: SeenRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(seen);
      current(seen, res);
    });
  };
  const server: Server = tls ? createHttpsServer(tls, listener) : createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    answer: (next) => {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
