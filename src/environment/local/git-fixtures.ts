import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Files of one commit: path → content; `null` deletes the path. */
export type CommitFiles = Readonly<Record<string, string | null>>;

/** Runs git with a fixed identity and no user or system config, so fixtures behave the same everywhere. */
export async function git(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const { stdout } = await run('git', ['-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
      GIT_AUTHOR_NAME: 'Fixture',
      GIT_AUTHOR_EMAIL: 'fixture@example.test',
      GIT_COMMITTER_NAME: 'Fixture',
      GIT_COMMITTER_EMAIL: 'fixture@example.test',
      ...env,
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout.trim();
}

/** A bare repository served by the test environment, with a work clone that tests commit through. */
export class GitRepo {
  constructor(
    readonly name: string,
    readonly barePath: string,
    private readonly workPath: string,
    private readonly httpBaseUrl: string | undefined,
  ) {}

  /** `file://` URL of the bare repository. */
  get fileUrl(): string {
    return pathToFileURL(this.barePath).href;
  }

  /** HTTP URL of the repository on the environment's Git server (credentials not included). */
  get httpUrl(): string {
    if (!this.httpBaseUrl) throw new Error('this environment runs no Git HTTP server');
    return `${this.httpBaseUrl}/${this.name}.git`;
  }

  /** Writes and deletes files, commits them on `branch` and pushes; returns the new commit SHA. */
  async commit(files: CommitFiles, message = 'update', branch = 'main'): Promise<string> {
    const remoteHasBranch = (await git(this.workPath, ['ls-remote', '--heads', 'origin', branch])) !== '';
    if (remoteHasBranch) {
      await git(this.workPath, ['fetch', '-q', 'origin', branch]);
      await git(this.workPath, ['checkout', '-q', '-B', branch, `origin/${branch}`]);
    } else {
      await git(this.workPath, ['checkout', '-q', '-B', branch]);
    }
    for (const [path, content] of Object.entries(files)) {
      const target = resolve(this.workPath, path);
      if (!target.startsWith(this.workPath + sep)) throw new Error(`fixture path escapes the repository: ${path}`);
      if (content === null) {
        rmSync(target, { force: true, recursive: true });
      } else {
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, content);
      }
    }
    await git(this.workPath, ['add', '-A']);
    await git(this.workPath, ['commit', '-q', '--allow-empty', '-m', message]);
    await git(this.workPath, ['push', '-q', 'origin', `HEAD:refs/heads/${branch}`]);
    return git(this.workPath, ['rev-parse', 'HEAD']);
  }

  /** Creates a lightweight tag at `ref` and pushes it. */
  async tag(name: string, ref = 'HEAD'): Promise<void> {
    await git(this.workPath, ['tag', '-f', name, ref]);
    await git(this.workPath, ['push', '-q', '-f', 'origin', `refs/tags/${name}`]);
  }

  /** The commit SHA `ref` points at in the bare repository. */
  revParse(ref: string): Promise<string> {
    return git(this.barePath, ['rev-parse', ref]);
  }
}

/** Creates repositories under the folder the Git HTTP server serves. */
export class GitFixtures {
  private readonly workRoot: string;

  constructor(
    readonly projectRoot: string,
    readonly httpBaseUrl?: string,
  ) {
    mkdirSync(projectRoot, { recursive: true });
    this.workRoot = mkdtempSync(join(dirname(projectRoot), 'git-work-'));
  }

  /** Creates `name.git` (a unique name per test keeps tests apart), optionally with a first commit. */
  async createRepo(name: string, files?: CommitFiles): Promise<GitRepo> {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new Error(`bad repository name: ${name}`);
    const barePath = join(this.projectRoot, `${name}.git`);
    const workPath = join(this.workRoot, name);
    await git(this.projectRoot, ['init', '-q', '--bare', barePath]);
    await git(this.workRoot, ['clone', '-q', barePath, workPath]);
    const repo = new GitRepo(name, barePath, workPath, this.httpBaseUrl);
    if (files) await repo.commit(files, 'initial commit');
    return repo;
  }
}
