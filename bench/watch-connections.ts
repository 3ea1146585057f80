/**
 * Watch connections benchmark: the client CPU of reading one watch of 10,000 Application events over TLS through
 * the transport's stream connections (`StreamConnections` and `streamWatch`: bytes read into one buffer through
 * net's `onread`, lines found in the bytes), side by side with how watches were read until session 39: Node's
 * `https.request` with a keep-alive agent, the response decoded to text and read with an async iterator, lines
 * split in the text. Both cut managedFields and parse every event alike. The server runs in a child process and
 * writes every event as a chunk of its own, in bursts, as the API server does; only the client's CPU is counted.
 * Phases alternate, round after round. Figures: client CPU µs per event and the ratio.
 * Run: npm run bench:watch-connections (node dist/bench/watch-connections.js). Results:
 * bench/results/watch-connections.json.
 */
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import https from 'node:https';
import type { OnReadOpts } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { withoutManagedFields } from '../src/kube/informer/managed-fields-cut.js';
import { streamWatch } from '../src/kube/informer/watch-stream.js';
import { StreamConnections } from '../src/kube/transport/stream-connections.js';
import { applicationEventLine } from './application-event.js';
import { writeBenchResults } from './results-file.js';
import { median, roundTo } from './statistics.js';

const EVENTS = 10_000;
/** Events the server writes per turn of its event loop: a burst of writes, each flushed as a chunk. */
const BURST = 25;
const ROUNDS = 7;
const PATH = '/apis/argoproj.io/v1alpha1/namespaces/bench/applications?watch=true&allowWatchBookmarks=true';

type Phase = 'streamConnections' | 'nodeHttps';

/** The child: an HTTPS server answering every watch with {@link EVENTS} events, one chunk each; sends its port. */
function serve(dir: string): void {
  const lines = Array.from({ length: EVENTS }, (_, i) => `${applicationEventLine(i)}\n`);
  const server = https.createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_request, response) => {
    response.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    let next = 0;
    const burst = (): void => {
      for (const end = Math.min(EVENTS, next + BURST); next < end; next++) response.write(lines[next]);
      if (next < EVENTS) setImmediate(burst);
      else response.end();
    };
    burst();
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.(typeof address === 'object' && address ? address.port : 0);
  });
}

/** The watch through the transport's stream connections and streamWatch, as an informer that drops managedFields reads it. */
async function viaStreamConnections(port: number): Promise<number> {
  const connections = new StreamConnections((onread: OnReadOpts) =>
    tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false, onread } as tls.ConnectionOptions),
  );
  const request = `GET ${PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\r\n`;
  return streamWatch(
    (signal, sink) => connections.open(request, signal, sink),
    () => undefined,
    {
      signal: new AbortController().signal,
      silenceMs: 60_000,
      withoutManagedFields: true,
    },
  );
}

/** The watch as it was read until session 39: node:https, a text-decoded IncomingMessage, an async iterator. */
async function viaNodeHttps(port: number, agent: https.Agent): Promise<number> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = https.request({ host: '127.0.0.1', port, path: PATH, agent, headers: { Accept: 'application/json' } }, resolve);
    request.on('error', reject);
    request.end();
  });
  // The watchdog's timer, restarted per chunk, as streamWatch did.
  const timer = setTimeout(() => response.destroy(new Error('silent')), 60_000);
  response.setEncoding('utf8');
  let pending = '';
  let count = 0;
  const parse = (line: string): void => {
    const event = JSON.parse(withoutManagedFields(line)) as { type?: unknown; object?: unknown };
    if (typeof event.type !== 'string' || typeof event.object !== 'object') throw new Error('not an event');
    count++;
  };
  for await (const chunk of response) {
    timer.refresh();
    const text = chunk as string;
    let start = 0;
    for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
      const line = (pending === '' ? text.slice(start, newline) : pending + text.slice(start, newline)).trim();
      pending = '';
      start = newline + 1;
      if (line) parse(line);
    }
    if (start < text.length) pending += text.slice(start);
  }
  clearTimeout(timer);
  if (pending.trim()) parse(pending.trim());
  return count;
}

/** Reads one whole watch in `phase`; returns the client's CPU µs per event. */
async function runPhase(port: number, phase: Phase, agent: https.Agent): Promise<number> {
  const before = process.cpuUsage();
  const events = phase === 'streamConnections' ? await viaStreamConnections(port) : await viaNodeHttps(port, agent);
  const used = process.cpuUsage(before);
  if (events !== EVENTS) throw new Error(`${phase} read ${events} events, not ${EVENTS}`);
  return (used.user + used.system) / EVENTS;
}

/** A self-signed certificate for 127.0.0.1 in a new directory. */
function certificateDirectory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-watch-connections-'));
  const subject = ['-subj', '/CN=127.0.0.1', '-days', '1'];
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', ...subject],
    {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  return dir;
}

async function main(): Promise<void> {
  if (process.argv[2] === '--serve') {
    serve(process.argv[3] as string);
    return;
  }
  const dir = certificateDirectory();
  const child = fork(new URL(import.meta.url).pathname, ['--serve', dir], { stdio: 'inherit' });
  const agent = new https.Agent({ keepAlive: true, rejectUnauthorized: false });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (message) => resolve(Number(message)));
      child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    });
    const phases: Phase[] = ['streamConnections', 'nodeHttps'];
    for (const phase of phases) await runPhase(port, phase, agent); // warm both
    const perEvent: Record<Phase, number[]> = { streamConnections: [], nodeHttps: [] };
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternated, so neither phase always runs first in a round.
      for (let i = 0; i < phases.length; i++) {
        const phase = phases[(round + i) % phases.length] as Phase;
        perEvent[phase].push(roundTo(await runPhase(port, phase, agent), 2));
      }
      ratios.push((perEvent.streamConnections.at(-1) as number) / (perEvent.nodeHttps.at(-1) as number));
      process.stderr.write(`round ${round + 1}: client CPU µs per event ${phases.map((p) => `${p} ${perEvent[p].at(-1)}`).join(', ')}\n`);
    }
    const figures = {
      events: EVENTS,
      burst: BURST,
      rounds: ROUNDS,
      clientCpuMicrosPerEvent: { streamConnections: median(perEvent.streamConnections), nodeHttps: median(perEvent.nodeHttps) },
      byRound: perEvent,
      pairedRatio: roundTo(median(ratios), 3),
    };
    process.stdout.write(
      `client CPU per watch event, median of ${ROUNDS} alternating rounds of ${EVENTS} events (managedFields cut, parsed):\n` +
        `  stream connections (the transport)   ${figures.clientCpuMicrosPerEvent.streamConnections} µs\n` +
        `  node:https, async iterator           ${figures.clientCpuMicrosPerEvent.nodeHttps} µs (paired ratio ${figures.pairedRatio})\n`,
    );
    process.stderr.write(`results written to ${writeBenchResults('watch-connections', figures)}\n`);
  } finally {
    agent.destroy();
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
