// A local HTTP server replaying answers recorded from the providers' APIs, and a log of what it was asked,
// so the provider modules run through the real API client against answers shaped as the real APIs give them.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One recorded answer. `$ORIGIN` in header values and in the body is replaced by the server's own origin. */
export interface RecordedAnswer {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** JSON body; sent with `application/json` unless `headers` name another content type. */
  readonly body?: unknown;
  /** A body sent as it is (an HTML or plain-text error page). */
  readonly text?: string;
}

/** A request the server received. */
export interface SeenRequest {
  readonly method: string;
  /** The path as sent, percent-encoding untouched. */
  readonly path: string;
  /** The query string as sent, without `?`. */
  readonly query: string;
  readonly headers: IncomingHttpHeaders;
}

/** A running recorded API. */
export interface RecordedApi {
  readonly origin: string;
  readonly requests: SeenRequest[];
  close(): Promise<void>;
}

/**
 * Serves `answers`, keyed by the exact request target (`/path?query` as sent): a request the recording does
 * not hold gets a 501 naming it, so a wrong path or query fails the test instead of passing quietly.
 */
export async function serveRecorded(answers: Readonly<Record<string, RecordedAnswer>>): Promise<RecordedApi> {
  const requests: SeenRequest[] = [];
  let origin = '';
  const server = createServer((req, res) => {
    const target = req.url ?? '/';
    const [path = '', query = ''] = target.split(/\?(.*)/s);
    requests.push({ method: req.method ?? 'GET', path, query, headers: req.headers });
    const answer = answers[target];
    if (!answer) {
      res.writeHead(501, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `no recorded answer for ${req.method} ${target}` }));
      return;
    }
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
    for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name.toLowerCase()] = value.replaceAll('$ORIGIN', origin);
    const body = answer.text ?? (answer.body === undefined ? '' : JSON.stringify(answer.body).replaceAll('$ORIGIN', origin));
    res.writeHead(answer.status ?? 200, headers).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** Runs `body` against a recorded API and always shuts the server down. */
export async function withRecorded<T>(answers: Readonly<Record<string, RecordedAnswer>>, body: (api: RecordedApi) => Promise<T>): Promise<T> {
  const api = await serveRecorded(answers);
  try {
    return await body(api);
  } finally {
    await api.close();
  }
}

/** The request targets (`/path?query`) the server received, in order. */
export const targets = (api: RecordedApi): string[] => api.requests.map((r) => (r.query ? `${r.path}?${r.query}` : r.path));
