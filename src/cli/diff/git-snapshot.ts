import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ExpectedFailure } from '../expected-failure.js';

const run = promisify(execFile);

/** The two sides `appset diff` compares, pinned in a scratch repository that borrows the user's objects. */
export interface GitSnapshots {
  /** The scratch bare repository: refs `appset-diff-base` and `appset-diff-head`, the user's objects as alternates. */
  readonly scratch: string;
  /** The work tree (top level) of the user's repository. */
  readonly workTree: string;
  readonly base: string;
  readonly head: string;
  /** True when the head side is the work tree (uncommitted and untracked files included). */
  readonly headIsWorkTree: boolean;
  /** Removes the scratch repository. */
  close(): void;
}

/** The ref each side is pinned at in the scratch repository. */
export const SIDE_REFS = { base: 'refs/heads/appset-diff-base', head: 'refs/heads/appset-diff-head' } as const;

async function git(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  try {
    const { stdout } = await run('git', args, { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', ...env }, maxBuffer: 256 * 1024 * 1024 });
    return stdout.trim();
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new ExpectedFailure(`git ${args.join(' ')} in ${cwd} failed: ${stderr || (error as Error).message}`, 2);
  }
}

/**
 * Pins `base` and `head` (or the work tree, as a commit of a scratch index: tracked changes and untracked,
 * not ignored, files) in a scratch bare repository whose objects are the user's, so the generators read both
 * sides through the controller's own repository cache and the user's repository is never written to.
 */
export async function snapshotSides(repoPath: string, baseRev: string, headRev: string | undefined): Promise<GitSnapshots> {
  const workTree = await git(repoPath, ['rev-parse', '--show-toplevel']);
  const objects = resolve(workTree, await git(workTree, ['rev-parse', '--git-path', 'objects']));
  const commit = (rev: string): Promise<string> =>
    git(workTree, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]).catch(() => {
      throw new ExpectedFailure(`revision "${rev}" is not a commit of ${workTree}`, 2);
    });
  const base = await commit(baseRev);
  const root = mkdtempSync(join(tmpdir(), 'appset-diff-'));
  const scratch = join(root, 'repo.git');
  try {
    await git(root, ['init', '-q', '--bare', scratch]);
    await git(scratch, ['config', 'uploadpack.allowAnySHA1InWant', 'true']);
    writeFileSync(join(scratch, 'objects', 'info', 'alternates'), `${objects}\n`);
    const head = headRev === undefined ? await workTreeCommit(workTree, root, scratch, base) : await commit(headRev);
    await git(scratch, ['update-ref', SIDE_REFS.base, base]);
    await git(scratch, ['update-ref', SIDE_REFS.head, head]);
    await git(scratch, ['symbolic-ref', 'HEAD', SIDE_REFS.head]);
    return { scratch, workTree, base, head, headIsWorkTree: headRev === undefined, close: () => rmSync(root, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

/** A commit of the work tree as `git add -A` sees it, written to the scratch repository only. */
async function workTreeCommit(workTree: string, root: string, scratch: string, parent: string): Promise<string> {
  const index = join(root, 'index');
  const userIndex = resolve(workTree, await git(workTree, ['rev-parse', '--git-path', 'index']));
  // A copy of the user's index keeps its stat cache, so unchanged files are not hashed again.
  if (existsSync(userIndex)) copyFileSync(userIndex, index);
  const userObjects = resolve(workTree, await git(workTree, ['rev-parse', '--git-path', 'objects']));
  const env = { GIT_INDEX_FILE: index, GIT_OBJECT_DIRECTORY: join(scratch, 'objects'), GIT_ALTERNATE_OBJECT_DIRECTORIES: userObjects };
  await git(workTree, ['add', '-A', '--', '.'], env);
  const tree = await git(workTree, ['write-tree'], env);
  const identity = {
    GIT_AUTHOR_NAME: 'appset diff',
    GIT_AUTHOR_EMAIL: 'appset-diff@localhost',
    GIT_COMMITTER_NAME: 'appset diff',
    GIT_COMMITTER_EMAIL: 'appset-diff@localhost',
  };
  return git(workTree, ['commit-tree', tree, '-p', parent, '-m', 'appset diff: work tree'], { ...env, ...identity });
}

/** The repository path of `file` when it lies inside `workTree`, else undefined (it is read from disk). */
export function pathInRepo(workTree: string, file: string): string | undefined {
  const inside = relative(workTree, resolve(file));
  return inside === '' || inside.startsWith('..') || isAbsolute(inside) ? undefined : inside.split('\\').join('/');
}

/** Paths of the YAML files at `commit` that may hold an ApplicationSet or an AppProject (one `git grep`; the parser decides). */
export async function manifestPaths(scratch: string, commit: string): Promise<string[]> {
  const output = await run(
    'git',
    ['grep', '-l', '-I', '-E', 'kind["\']?[[:space:]]*:[[:space:]]*["\']?(ApplicationSet|AppProject)\\b', commit, '--', '*.yaml', '*.yml'],
    {
      cwd: scratch,
      maxBuffer: 256 * 1024 * 1024,
    },
  ).then(
    (result) => result.stdout,
    (error: { code?: number; stderr?: string }) => {
      if (error.code === 1) return ''; // no match
      throw new ExpectedFailure(`git grep at ${commit} failed: ${error.stderr ?? ''}`, 2);
    },
  );
  return output
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.slice(commit.length + 1));
}

/** The contents of `paths` at `commit` (one `git cat-file --batch`); a path missing at that commit maps to undefined. */
export function readAtCommit(scratch: string, commit: string, paths: readonly string[]): Promise<Map<string, string | undefined>> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], { cwd: scratch, stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new ExpectedFailure(`git cat-file at ${commit} failed: ${stderr.trim()}`, 2));
      resolvePromise(parseBatch(Buffer.concat(chunks), paths));
    });
    child.stdin.end(paths.map((path) => `${commit}:${path}\n`).join(''));
  });
}

/** Splits `git cat-file --batch` output: `<oid> <type> <size>\n<content>\n` per object, `<name> missing\n` otherwise. */
function parseBatch(output: Buffer, paths: readonly string[]): Map<string, string | undefined> {
  const files = new Map<string, string | undefined>();
  let at = 0;
  for (const path of paths) {
    const end = output.indexOf(10, at);
    const header = output.subarray(at, end).toString('utf8');
    at = end + 1;
    if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
      files.set(path, undefined);
      continue;
    }
    const [, type, size] = header.split(' ');
    const length = Number(size);
    files.set(path, type === 'blob' ? output.subarray(at, at + length).toString('utf8') : undefined);
    at += length + 1;
  }
  return files;
}
