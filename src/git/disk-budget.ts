import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Bytes used by a folder tree (a bare repository: a few pack files and refs). */
export async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await folderBytes(path);
    else if (entry.isFile()) total += (await stat(path).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

interface Usage {
  bytes: number;
  lastUsed: number;
}

/**
 * Keeps the repository copies under a byte budget: each copy's size and last use are tracked, and
 * when the total exceeds the budget the least recently used copies that nobody holds are deleted.
 */
export class DiskBudget {
  private readonly usage = new Map<string, Usage>();
  private clock = 0;

  constructor(readonly maxBytes: number) {}

  /** Marks `dir` as just used (monotonic, so ties in wall-clock time cannot reorder uses). */
  touch(dir: string): void {
    const entry = this.usage.get(dir) ?? { bytes: 0, lastUsed: 0 };
    entry.lastUsed = ++this.clock;
    this.usage.set(dir, entry);
  }

  /** Re-measures `dir` after it changed on disk; a copy never touched counts as the oldest. */
  async measure(dir: string): Promise<void> {
    const bytes = await folderBytes(dir);
    const entry = this.usage.get(dir) ?? { bytes: 0, lastUsed: 0 };
    entry.bytes = bytes;
    this.usage.set(dir, entry);
  }

  /** Total bytes of every tracked copy. */
  get totalBytes(): number {
    let total = 0;
    for (const { bytes } of this.usage.values()) total += bytes;
    return total;
  }

  /**
   * Deletes least recently used copies until the total fits; `canEvict` vetoes copies in use.
   * Returns the deleted folders. The most recently used copy is kept even if it alone is too big.
   */
  async enforce(canEvict: (dir: string) => boolean, remove: (dir: string) => Promise<void> = defaultRemove): Promise<string[]> {
    const evicted: string[] = [];
    const byAge = [...this.usage.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed).slice(0, -1);
    for (const [dir] of byAge) {
      if (this.totalBytes <= this.maxBytes) break;
      if (!canEvict(dir)) continue;
      await remove(dir);
      this.usage.delete(dir);
      evicted.push(dir);
    }
    return evicted;
  }

  /** Stops tracking `dir` (it was removed by someone else). */
  forget(dir: string): void {
    this.usage.delete(dir);
  }
}

async function defaultRemove(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
