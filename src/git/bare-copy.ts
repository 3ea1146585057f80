import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What a valid HEAD holds: a symbolic ref or a detached commit. */
const HEAD_CONTENT = /^(ref: refs\/\S+|[0-9a-f]{40}|[0-9a-f]{64})\s*$/;

/**
 * Whether `dir` is a bare repository git would accept: a valid HEAD file plus the `objects` and `refs`
 * folders (what git itself checks before it calls a folder a repository). A copy left half-deleted
 * (HEAD kept, objects gone) fails here, so the cache re-creates it instead of failing every command
 * with "not a git repository" until someone deletes it by hand.
 */
export function isUsableBareCopy(dir: string): boolean {
  try {
    if (!HEAD_CONTENT.test(readFileSync(join(dir, 'HEAD'), 'utf8'))) return false;
    return statSync(join(dir, 'objects')).isDirectory() && statSync(join(dir, 'refs')).isDirectory();
  } catch {
    return false;
  }
}
