import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** How to launch one server process of the test environment. */
export interface ProcessSpec {
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** File that receives stdout and stderr, appended across restarts. */
  logFile: string;
  /** Folder where the pid is recorded, so a later run can reap it if this run is killed. */
  pidDir?: string;
}

const live = new Set<ManagedProcess>();

/** A server process that tests start, stop, kill and restart; it runs in its own process group. */
export class ManagedProcess {
  private child: ChildProcess | undefined;
  private exit: Promise<number | null> | undefined;

  constructor(
    readonly name: string,
    private readonly spec: ProcessSpec,
  ) {}

  /** True while the process is started and has not exited. */
  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The operating-system pid of the running process. */
  get pid(): number | undefined {
    return this.running ? this.child?.pid : undefined;
  }

  /** Starts the process; resolves once it is spawned (readiness is the caller's to check). */
  async start(): Promise<void> {
    if (this.running) throw new Error(`${this.name} is already running`);
    const log = openSync(this.spec.logFile, 'a');
    try {
      const child = spawn(this.spec.command, this.spec.args, {
        cwd: this.spec.cwd,
        env: this.spec.env ?? process.env,
        stdio: ['ignore', log, log],
        detached: true, // own process group, so a stop reaches its children and ctrl-c does not
      });
      this.child = child;
      this.exit = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', (error) => reject(new Error(`${this.name}: cannot start ${this.spec.command}: ${error.message}`)));
      });
    } finally {
      closeSync(log);
    }
    live.add(this);
    this.recordPid();
  }

  /** Stops the process with `signal`, then SIGKILL if it has not exited within `graceMs`. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return this.forget();
    signalGroup(child, signal);
    const exited = await Promise.race([this.exit, delay(graceMs).then(() => 'timeout' as const)]);
    if (exited === 'timeout') {
      signalGroup(child, 'SIGKILL');
      await this.exit;
    }
    this.forget();
  }

  /** Kills the process at once, as a crash would. */
  kill(): Promise<void> {
    return this.stop('SIGKILL');
  }

  /** Sends `signal` to the process group without waiting, e.g. SIGSTOP and SIGCONT to freeze and thaw it. */
  signal(signal: NodeJS.Signals): void {
    if (this.child && this.running) signalGroup(this.child, signal);
  }

  /** Stops and starts the process again with the same command line. */
  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** The last `lines` lines of the process log, for error messages. */
  logTail(lines = 30): string {
    try {
      return readFileSync(this.spec.logFile, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '(no log)';
    }
  }

  /** Throws with the log tail if the process has exited; used while waiting for readiness. */
  assertRunning(): void {
    if (!this.running) throw new Error(`${this.name} exited early; log ${this.spec.logFile}:\n${this.logTail()}`);
  }

  /** SIGKILLs the process group synchronously; safe inside an 'exit' handler. */
  killNow(): void {
    if (this.child && this.running) signalGroup(this.child, 'SIGKILL');
    this.forget();
  }

  private recordPid(): void {
    if (this.spec.pidDir && this.child?.pid)
      writeFileSync(join(this.spec.pidDir, `${this.name}.pid`), `${this.child.pid}\n${executableOf(this.child.pid) ?? ''}\n`);
  }

  private forget(): void {
    live.delete(this);
    if (this.spec.pidDir) rmSync(join(this.spec.pidDir, `${this.name}.pid`), { force: true });
  }
}

/** The file a running process executes (after `spawn`, exec has happened), for the reaper's pid-reuse check. */
export function executableOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return undefined;
  }
}

/** Kills every process still started by this Node process; for exit and signal handlers. */
export function killAllManagedProcesses(): void {
  for (const process of [...live]) process.killNow();
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is already gone
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
