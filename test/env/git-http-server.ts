import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';

/** Basic-auth credentials the Git HTTP server accepts. */
export interface GitCredentials {
  username: string;
  password: string;
}

/** A smart-HTTP Git server (`git http-backend`) over the repositories in one folder, behind basic auth. */
export interface GitHttpServer {
  /** `http://127.0.0.1:PORT/git`; a repository `name` is at `${baseUrl}/${name}`. */
  baseUrl: string;
  credentials: GitCredentials;
  /** Requests answered so far, by outcome; tests use it to prove a clone went over HTTP. */
  readonly counts: { authorized: number; rejected: number };
  close(): Promise<void>;
}

const GIT_HTTP_BACKEND = '/usr/lib/git-core/git-http-backend';

/** Serves every repository under `projectRoot` for clone, fetch and push, to clients with `credentials`. */
export async function startGitHttpServer(projectRoot: string, credentials: GitCredentials): Promise<GitHttpServer> {
  const counts = { authorized: 0, rejected: 0 };
  const server = createServer((req, res) => {
    if (!isAuthorized(req, credentials)) {
      counts.rejected++;
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"', 'content-type': 'text/plain' }).end('unauthorized\n');
      return;
    }
    counts.authorized++;
    runHttpBackend(projectRoot, credentials.username, req, res);
  });
  await listen(server);
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('git http server: no address');
  return {
    baseUrl: `http://127.0.0.1:${address.port}/git`,
    credentials,
    counts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function isAuthorized(req: IncomingMessage, expected: GitCredentials): boolean {
  const header = req.headers.authorization ?? '';
  if (!header.startsWith('Basic ')) return false;
  const given = Buffer.from(header.slice('Basic '.length), 'base64');
  const wanted = Buffer.from(`${expected.username}:${expected.password}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** Bridges one request to `git http-backend` as CGI: request body to stdin, CGI headers + body back. */
function runHttpBackend(projectRoot: string, user: string, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const pathInfo = decodeURIComponent(url.pathname.replace(/^\/git/, ''));
  if (!pathInfo.startsWith('/') || pathInfo.split('/').includes('..')) {
    res.writeHead(400).end('bad path\n');
    return;
  }
  const backend = spawn(GIT_HTTP_BACKEND, [], {
    env: {
      PATH: process.env.PATH,
      GIT_PROJECT_ROOT: projectRoot,
      GIT_HTTP_EXPORT_ALL: '1',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: pathInfo,
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
      HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
      GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      REMOTE_USER: user, // an authenticated user may push (receive-pack)
      REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  req.pipe(backend.stdin);
  let head = Buffer.alloc(0);
  let headersSent = false;
  backend.stdout.on('data', (chunk: Buffer) => {
    if (headersSent) return void res.write(chunk);
    head = Buffer.concat([head, chunk]);
    const end = findHeaderEnd(head);
    if (end === undefined) return;
    writeCgiHead(res, head.subarray(0, end.headerEnd).toString('latin1'));
    headersSent = true;
    res.write(head.subarray(end.bodyStart));
  });
  backend.stdout.on('end', () => {
    if (!headersSent) res.writeHead(502).end('git http-backend sent no headers\n');
    else res.end();
  });
  backend.on('error', (error) => {
    if (!headersSent) res.writeHead(500).end(`git http-backend: ${error.message}\n`);
  });
}

function findHeaderEnd(buffer: Buffer): { headerEnd: number; bodyStart: number } | undefined {
  const crlf = buffer.indexOf('\r\n\r\n');
  if (crlf >= 0) return { headerEnd: crlf, bodyStart: crlf + 4 };
  const lf = buffer.indexOf('\n\n');
  if (lf >= 0) return { headerEnd: lf, bodyStart: lf + 2 };
  return undefined;
}

function writeCgiHead(res: ServerResponse, head: string): void {
  let status = 200;
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 500;
    else headers[name] = value;
  }
  res.writeHead(status, headers);
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
}
