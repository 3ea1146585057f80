import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { ArgoCdBinaries } from '../test/system/argocd-process.js';

const run = promisify(execFile);

/**
 * Drops each file's pages from the page cache (GNU dd's `iflag=nocache count=0`: posix_fadvise DONTNEED over the
 * whole file; pages a running process maps stay). No root needed. A failure throws: a memory figure taken on an
 * unknown cache state is not worth reporting.
 */
export async function evictFromPageCache(paths: readonly string[]): Promise<void> {
  for (const path of paths) await run('dd', [`if=${path}`, 'iflag=nocache', 'count=0', 'status=none']);
}

/**
 * Starts Argo CD's binaries from a cold page cache, so its file-backed resident memory does not depend on how the
 * binaries came into the cache: read whole and in order (as a build writes them), the controller maps 86-88 MiB of
 * its binary instead of 57-60 (session 29). Node's binary stays warm, as the benchmark's own process maps it.
 */
export function coldArgoCdBinaries(binaries: ArgoCdBinaries): Promise<void> {
  return evictFromPageCache([binaries.controller, binaries.repoServer]);
}
