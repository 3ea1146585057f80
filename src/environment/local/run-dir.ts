import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { executableOf } from './managed-process.js';

/** Folders of one test-environment run: data, logs and the pids of its processes. */
export interface RunDir {
  root: string;
  pidDir: string;
  logDir: string;
}

const runsRoot = (): string => join(tmpdir(), 'appset-test-env');

/**
 * A new folder under `parent` (default: where runs live) owned by this Node process: {@link reapStaleRuns}
 * removes it once this process has died without removing it itself.
 */
export function createOwnedFolder(prefix: string, parent = runsRoot()): string {
  mkdirSync(parent, { recursive: true });
  const root = mkdtempSync(join(parent, prefix));
  writeFileSync(join(root, 'owner.pid'), String(process.pid));
  return root;
}

/** Creates the folders of a new run, owned by this Node process. */
export function createRunDir(): RunDir {
  const root = createOwnedFolder(`run-${process.pid}-`);
  const pidDir = join(root, 'pids');
  const logDir = join(root, 'logs');
  mkdirSync(pidDir);
  mkdirSync(logDir);
  return { root, pidDir, logDir };
}

/**
 * Kills the processes of earlier runs whose owner died without cleaning up (a SIGKILLed test run)
 * and removes their folders. Returns how many processes it killed.
 */
export function reapStaleRuns(): number {
  let killed = 0;
  let runs: string[];
  try {
    runs = readdirSync(runsRoot());
  } catch {
    return 0;
  }
  for (const run of runs) {
    const root = join(runsRoot(), run);
    const owner = readPid(join(root, 'owner.pid'));
    if (owner !== undefined && isAlive(owner)) continue;
    for (const file of safeReaddir(join(root, 'pids'))) {
      const pidFile = join(root, 'pids', file);
      const pid = readPid(pidFile);
      if (pid !== undefined && isAlive(pid) && runsRecordedCommand(pid, pidFile)) {
        try {
          process.kill(-pid, 'SIGKILL');
          killed++;
        } catch {
          // gone meanwhile
        }
      }
    }
    rmSync(root, { recursive: true, force: true });
  }
  return killed;
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True if `pid` still runs the executable its pid file recorded (second line). A pid from an old run may
 * have been reused by an unrelated process since, and killing that one's group would be a disaster.
 */
function runsRecordedCommand(pid: number, pidFile: string): boolean {
  const executable = readFileSync(pidFile, 'utf8').split('\n')[1]?.trim();
  // The executable, not the command line: Redis, for one, rewrites its argv into a process title.
  return !!executable && executableOf(pid) === executable;
}

/** True if a process with `pid` exists (EPERM means it exists but is not ours). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
