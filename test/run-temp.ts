import { rmSync } from 'node:fs';
import { createOwnedFolder } from '../src/environment/local/run-dir.js';

/**
 * One temporary folder for a whole test run. Every test process gets it as `TMPDIR`, so the folders tests
 * make with mkdtemp (a few hundred per run: Git repositories, Helm homes, caches, logs) go with it when the
 * run ends instead of piling up in /tmp from run to run. It is owned like an environment's run folder, so
 * the next environment's start removes it if this run was killed before it could.
 */
export interface RunTemp {
  readonly path: string;
  /** The environment variables that point a child process's temporary files here. */
  readonly env: Readonly<Record<string, string>>;
  /** Deletes the folder and everything in it, unless `keep` (a failed run kept for inspection). */
  finish(keep: boolean): void;
}

/** Creates the run's temporary folder beside the environments' run folders (or under `parent`). */
export function createRunTemp(parent?: string): RunTemp {
  const path = createOwnedFolder('tests-', parent);
  return {
    path,
    env: { TMPDIR: path },
    finish: (keep) => {
      if (!keep) rmSync(path, { recursive: true, force: true });
    },
  };
}
