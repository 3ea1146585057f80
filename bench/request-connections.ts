/**
 * Request connections benchmark: the client CPU of one request through the transport's HTTP/1.1 connections
 * (`Http1Connections`, bytes read into one buffer through net's `onread`), side by side with two baselines over
 * the same TLS server and the same requests: the same connections fed by 'data' events (how they read until
 * session 38), and Node's own `https.request` with a keep-alive agent. The server runs in a child process, so
 * only the client's CPU is counted; each request is an apply of about 1.2 kB answered with 2 kB, as a replica's
 * applies are. Phases alternate, round after round. Figures: client CPU µs per request and the ratios.
 * Run: npm run bench:request-connections (node dist/bench/request-connections.js). Results:
 * bench/results/request-connections.json.
 */
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { OnReadOpts } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { Http1Connections } from '../src/kube/transport/http1-connections.js';
import { writeBenchResults } from './results-file.js';
import { median, roundTo } from './statistics.js';

const REQUESTS = 20_000;
const IN_FLIGHT = 16;
const ROUNDS = 5;
const REQUEST_BODY = JSON.stringify({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', spec: { note: 'x'.repeat(1100) } });
const ANSWER_BODY = JSON.stringify({ kind: 'Application', note: 'y'.repeat(1950) });

type Phase = 'onread' | 'dataEvents' | 'nodeHttps';

/** The child: an HTTPS server answering every request with {@link ANSWER_BODY}; sends its port to the parent. */
function serve(dir: string): void {
  const server = https.createServer(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')), keepAliveTimeout: 60_000 },
    (request, response) => {
      request.resume();
      request.on('end', () =>
        response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(ANSWER_BODY) }).end(ANSWER_BODY),
      );
    },
  );
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.(typeof address === 'object' && address ? address.port : 0);
  });
}

/** The request as the transport writes it: head and body in one string. */
function requestText(): string {
  return (
    'PATCH /apis/argoproj.io/v1alpha1/namespaces/bench/applications/app?fieldManager=bench HTTP/1.1\r\n' +
    `Host: 127.0.0.1\r\nContent-Type: application/apply-patch+yaml\r\nAccept: application/json\r\nContent-Length: ${Buffer.byteLength(REQUEST_BODY)}\r\n\r\n${REQUEST_BODY}`
  );
}

/** Connections reading through `onread` (as the transport does), or fed the same bytes by 'data' events. */
function connections(port: number, phase: 'onread' | 'dataEvents'): Http1Connections {
  return new Http1Connections({
    maxConnections: IN_FLIGHT,
    idleTimeoutMs: 60_000,
    connect: (onread: OnReadOpts) => {
      const common = { host: '127.0.0.1', port, rejectUnauthorized: false };
      if (phase === 'onread') return tls.connect({ ...common, onread } as tls.ConnectionOptions);
      const socket = tls.connect(common);
      const buffer = onread.buffer as Buffer;
      socket.on('data', (chunk: Buffer) => {
        for (let at = 0; at < chunk.length; at += buffer.length) {
          const size = chunk.copy(buffer, 0, at, Math.min(chunk.length, at + buffer.length));
          onread.callback(size, buffer);
        }
      });
      return socket;
    },
  });
}

/** Runs {@link REQUESTS} requests, {@link IN_FLIGHT} at a time; returns the client's CPU µs per request. */
async function runPhase(port: number, phase: Phase): Promise<number> {
  const text = requestText();
  const pool = phase === 'nodeHttps' ? undefined : connections(port, phase);
  const agent = phase === 'nodeHttps' ? new https.Agent({ keepAlive: true, maxSockets: IN_FLIGHT, rejectUnauthorized: false }) : undefined;
  const viaNode = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const request = https.request(
        { host: '127.0.0.1', port, method: 'PATCH', path: '/apis/argoproj.io/v1alpha1/namespaces/bench/applications/app?fieldManager=bench', agent },
        (response) => {
          response.resume();
          response.on('end', resolve);
        },
      );
      request.on('error', reject);
      request.setHeader('Content-Type', 'application/apply-patch+yaml');
      request.end(REQUEST_BODY);
    });
  const one = async (): Promise<void> => {
    if (pool) {
      const answer = await pool.exchange(text, false).answer;
      if (answer.status !== 200) throw new Error(`status ${answer.status}`);
    } else await viaNode();
  };
  // A few requests first, so every phase starts with its connections open.
  await Promise.all(Array.from({ length: IN_FLIGHT }, one));
  let started = 0;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (started < REQUESTS) {
        started++;
        await one();
      }
    }),
  );
  const used = process.cpuUsage(before);
  pool?.retire();
  agent?.destroy();
  return (used.user + used.system) / REQUESTS;
}

async function main(): Promise<void> {
  if (process.argv[2] === '--serve') {
    serve(process.argv[3] as string);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-request-connections-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      'key.pem',
      '-out',
      'cert.pem',
      '-subj',
      '/CN=127.0.0.1',
      '-days',
      '1',
    ],
    {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const child = fork(new URL(import.meta.url).pathname, ['--serve', dir], { stdio: 'inherit' });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (message) => resolve(Number(message)));
      child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    });
    const phases: Phase[] = ['onread', 'dataEvents', 'nodeHttps'];
    const perRequest: Record<Phase, number[]> = { onread: [], dataEvents: [], nodeHttps: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // Rotated, so no phase always runs first in a round.
      for (let i = 0; i < phases.length; i++) {
        const phase = phases[(round + i) % phases.length] as Phase;
        perRequest[phase].push(roundTo(await runPhase(port, phase), 2));
      }
      process.stderr.write(`round ${round + 1}: client CPU µs per request ${phases.map((p) => `${p} ${perRequest[p].at(-1)}`).join(', ')}\n`);
    }
    const med = (phase: Phase): number => median(perRequest[phase]);
    const figures = {
      requests: REQUESTS,
      inFlight: IN_FLIGHT,
      rounds: ROUNDS,
      clientCpuMicrosPerRequest: { onread: med('onread'), dataEvents: med('dataEvents'), nodeHttps: med('nodeHttps') },
      byRound: perRequest,
      ratios: {
        onreadToDataEvents: roundTo(med('onread') / med('dataEvents'), 3),
        onreadToNodeHttps: roundTo(med('onread') / med('nodeHttps'), 3),
      },
    };
    process.stdout.write(
      `client CPU per request, median of ${ROUNDS} rotated rounds of ${REQUESTS} (${IN_FLIGHT} in flight):\n` +
        `  onread (the transport)        ${figures.clientCpuMicrosPerRequest.onread} µs\n` +
        `  'data' events, same reader    ${figures.clientCpuMicrosPerRequest.dataEvents} µs (onread ÷ this ${figures.ratios.onreadToDataEvents})\n` +
        `  node:https, keep-alive agent  ${figures.clientCpuMicrosPerRequest.nodeHttps} µs (onread ÷ this ${figures.ratios.onreadToNodeHttps})\n`,
    );
    process.stderr.write(`results written to ${writeBenchResults('request-connections', figures)}\n`);
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
