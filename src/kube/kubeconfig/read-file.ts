import { readFileSync } from 'node:fs';
import { KubeConfigError } from './errors.js';

/** Reads `path` as text for `what` (e.g. `user "x": client-key`), naming both when it cannot be read. */
export function readNamedFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new KubeConfigError(`${what}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}
