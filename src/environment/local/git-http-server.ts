import { execFileSync, spawn } from 'node:child_process';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { nodeHttp } from '../../runtime/node-http.js';

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
  /** Calls `listener` after every push that moved a ref, as a forge sends its push webhook. */
  onPush(listener: (push: GitPush) => void): void;
  close(): Promise<void>;
}

/** One ref a push moved; `before` or `after` is all zeros for a created or deleted ref. */
export interface PushedRef {
  readonly ref: string;
  readonly before: string;
  readonly after: string;
}

/** What one push changed: the repository's path below the served folder (`monorepo.git`) and its refs. */
export interface GitPush {
  readonly repository: string;
  readonly refs: readonly PushedRef[];
}

const ZERO_SHA = '0'.repeat(40);

/** Where Git keeps its helper programs (Debian: /usr/lib/git-core); read once, when the first request comes. */
let gitHttpBackend: string | undefined;
const httpBackendPath = (): string => (gitHttpBackend ??= join(execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(), 'git-http-backend'));

/** Serves every repository under `projectRoot` for clone, fetch and push, to clients with `credentials`. */
export async function startGitHttpServer(projectRoot: string, credentials: GitCredentials): Promise<GitHttpServer> {
  const counts = { authorized: 0, rejected: 0 };
  const listeners: Array<(push: GitPush) => void> = [];
  const announce = (push: GitPush): void => listeners.forEach((listener) => listener(push));
  const server = nodeHttp.createServer((req, res) => {
    if (!isAuthorized(req, credentials)) {
      counts.rejected++;
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"', 'content-type': 'text/plain' }).end('unauthorized\n');
      return;
    }
    counts.authorized++;
    runHttpBackend(projectRoot, credentials.username, req, res, announce);
  });
  await listen(server);
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('git http server: no address');
  return {
    baseUrl: `http://127.0.0.1:${address.port}/git`,
    credentials,
    counts,
    onPush: (listener) => void listeners.push(listener),
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
function runHttpBackend(projectRoot: string, user: string, req: IncomingMessage, res: ServerResponse, announce: (push: GitPush) => void): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const pathInfo = decodeURIComponent(url.pathname.replace(/^\/git/, ''));
  if (!pathInfo.startsWith('/') || pathInfo.split('/').includes('..')) {
    res.writeHead(400).end('bad path\n');
    return;
  }
  // A push is a POST to .../git-receive-pack: compare the refs before and after it to say what it moved.
  const pushedRepo = req.method === 'POST' && pathInfo.endsWith('/git-receive-pack') ? pathInfo.slice(1, -'/git-receive-pack'.length) : undefined;
  const refsBefore = pushedRepo === undefined ? undefined : readRefs(join(projectRoot, pushedRepo));
  const backend = spawn(httpBackendPath(), [], {
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
  backend.on('close', (code) => {
    if (pushedRepo === undefined || refsBefore === undefined || code !== 0) return;
    const refs = movedRefs(refsBefore, readRefs(join(projectRoot, pushedRepo)) ?? new Map());
    if (refs.length > 0) announce({ repository: pushedRepo, refs });
  });
}

/** Every ref of a bare repository and the commit it points at; undefined when it is no repository. */
function readRefs(repoPath: string): Map<string, string> | undefined {
  try {
    const out = execFileSync('git', ['-C', repoPath, 'for-each-ref', '--format=%(objectname) %(refname)'], { encoding: 'utf8' });
    return new Map(
      out
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.slice(41), line.slice(0, 40)]),
    );
  } catch {
    return undefined;
  }
}

/** The refs whose commit differs between two readings, created and deleted ones included. */
function movedRefs(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): PushedRef[] {
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return names.map((ref) => ({ ref, before: before.get(ref) ?? ZERO_SHA, after: after.get(ref) ?? ZERO_SHA })).filter((moved) => moved.before !== moved.after);
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
