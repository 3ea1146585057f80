import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../../src/environment/local/wait-for.js';
import type { WorkerProcessConfig } from './worker-config.js';
import { readyPids } from './worker-records.js';

const queueWorkerScript = fileURLToPath(new URL('./worker-process.js', import.meta.url));

/** Worker processes started by one test; `stopAll` ends whatever is left. */
export class WorkerProcesses {
  readonly children: ChildProcess[] = [];

  /** `script` is the worker program: this queue's by default, another one (plain BullMQ) for a benchmark baseline. */
  constructor(private readonly script = queueWorkerScript) {}

  /** Starts `count` worker processes with `config` and waits until each has started its queue. */
  async start(count: number, config: WorkerProcessConfig): Promise<ChildProcess[]> {
    const started = Array.from({ length: count }, () =>
      spawn(process.execPath, ['--enable-source-maps', this.script, JSON.stringify(config)], { stdio: ['ignore', 'ignore', 'inherit'] }),
    );
    this.children.push(...started);
    await waitFor(() => started.every((child) => readyPids(config.recordFile).includes(child.pid ?? -1)), {
      what: `${count} worker processes ready`,
      timeoutMs: 90_000,
    });
    return started;
  }

  /** The child with operating-system pid `pid`. */
  byPid(pid: number): ChildProcess {
    const child = this.children.find((c) => c.pid === pid);
    if (!child) throw new Error(`no worker process with pid ${pid}`);
    return child;
  }

  /** Sends `signal` and resolves with the exit code once the child has exited. */
  static stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    return exited;
  }

  /** Stops every child still running: SIGTERM, then SIGKILL after `graceMs`. */
  async stopAll(graceMs = 15_000): Promise<void> {
    await Promise.all(
      this.children.map(async (child) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await WorkerProcesses.stop(child);
        clearTimeout(timer);
      }),
    );
  }
}
