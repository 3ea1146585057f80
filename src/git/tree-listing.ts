import { posix } from 'node:path';

/** One entry of a commit's tree, as `git ls-tree -r -t` reports it. */
export interface TreeEntry {
  path: string;
  /** `040000` tree, `100644`/`100755` file, `120000` symlink, `160000` submodule. */
  mode: string;
  type: 'tree' | 'blob' | 'commit';
  objectId: string;
}

/** Every directory and file of one commit, listed once and kept in memory per commit. */
export class TreeListing {
  readonly directories: readonly string[];
  /** Regular files and symlinks (a symlink's target is checked when it is read). */
  readonly files: readonly string[];
  private readonly byPath: ReadonlyMap<string, TreeEntry>;

  constructor(entries: readonly TreeEntry[]) {
    this.byPath = new Map(entries.map((e) => [e.path, e]));
    this.directories = entries.filter((e) => e.type === 'tree').map((e) => e.path);
    this.files = entries.filter((e) => e.type === 'blob').map((e) => e.path);
  }

  /** The entry at `path`, if any. */
  entry(path: string): TreeEntry | undefined {
    return this.byPath.get(path);
  }

  /** How many entries; used to weigh listings in the memory cache. */
  get size(): number {
    return this.byPath.size;
  }
}

/**
 * Parses `git ls-tree -r -t -z --full-tree` output. Sizes (`-l`) are not listed: git would look up
 * every blob, which took ~100 times longer on a 60,000-entry tree; `readFile` asks for one size.
 */
export function parseLsTree(output: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const record of output.split('\0')) {
    if (record === '') continue;
    const tab = record.indexOf('\t');
    const [mode, type, objectId] = record.slice(0, tab).split(' ');
    if (tab < 0 || !mode || !objectId || (type !== 'tree' && type !== 'blob' && type !== 'commit')) {
      throw new Error(`unexpected ls-tree line: ${record.slice(0, 120)}`);
    }
    entries.push({ path: record.slice(tab + 1), mode, type, objectId });
  }
  return entries;
}

/**
 * Where a symlink at `linkPath` with target `target` points, relative to the repository root, or
 * undefined when it points outside (absolute, or climbing above the root with `..`).
 */
export function resolveSymlinkTarget(linkPath: string, target: string): string | undefined {
  if (target.startsWith('/')) return undefined;
  const joined = posix.normalize(posix.join(posix.dirname(linkPath), target));
  if (joined === '..' || joined.startsWith('../') || joined.startsWith('/')) return undefined;
  return joined;
}
