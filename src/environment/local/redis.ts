import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { ManagedProcess } from './managed-process.js';
import type { RunDir } from './run-dir.js';
import { waitFor } from './wait-for.js';

/** A running Debian `redis-server` on a loopback port. */
export interface RedisServer {
  url: string;
  port: number;
  process: ManagedProcess;
  /** Waits until the server answers PING. */
  ready(): Promise<void>;
}

/**
 * Starts `redis-server` (from PATH) on a free loopback port, without persistence; `extraArgs` e.g.
 * `['--requirepass', 'x']`. `name` names its data folder, log and pid file (several servers in one run).
 */
export async function startRedis(run: RunDir, binary = 'redis-server', extraArgs: readonly string[] = [], name = 'redis'): Promise<RedisServer> {
  const port = await freePort();
  const dir = join(run.root, name);
  mkdirSync(dir, { recursive: true });
  const process = new ManagedProcess(name, {
    command: binary,
    args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...extraArgs],
    logFile: join(run.logDir, `${name}.log`),
    pidDir: run.pidDir,
  });
  const ready = async (): Promise<void> => {
    await waitFor(
      async () => {
        process.assertRunning();
        const reply = await ping(port);
        return reply === '+PONG' || reply.startsWith('-NOAUTH'); // a password-protected server is up too
      },
      { what: `redis-server PING on port ${port}`, timeoutMs: 20_000 },
    );
  };
  await process.start();
  await ready();
  return { url: `redis://127.0.0.1:${port}`, port, process, ready };
}

/** Sends one inline PING to a loopback port and returns the first reply line. */
export function ping(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(2_000, () => socket.destroy(new Error('PING timed out')));
    socket.on('error', reject);
    socket.once('data', (data) => {
      resolve(data.toString('utf8').trim());
      socket.end();
    });
    socket.write('PING\r\n');
  });
}
