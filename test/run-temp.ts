import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One temporary folder for a whole test run. Every test process gets it as `TMPDIR`, so the folders tests
 * make with mkdtemp (a few hundred per run: Git repositories, Helm homes, caches, logs) go with it when the
 * run ends instead of piling up in /tmp from run to run.
 */
export interface RunTemp {
  readonly path: string;
  /** The environment variables that point a child process's temporary files here. */
  readonly env: Readonly<Record<string, string>>;
  /** Deletes the folder and everything in it, unless `keep` (a failed run kept for inspection). */
  finish(keep: boolean): void;
}

/** Creates the run's temporary folder under the system's own. */
export function createRunTemp(parent = tmpdir()): RunTemp {
  const path = mkdtempSync(join(parent, 'appset-tests-'));
  return {
    path,
    env: { TMPDIR: path },
    finish: (keep) => {
      if (!keep) rmSync(path, { recursive: true, force: true });
    },
  };
}
