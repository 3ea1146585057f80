import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

/** One system program a command needs: where it is looked for and what installs it. */
export interface Prerequisite {
  /** The program's name as a user would type it. */
  readonly program: string;
  /** What the command uses it for, shown when it is missing. */
  readonly why: string;
  /** Debian package that installs it; undefined when Debian's package is not fit (Go: too old). */
  readonly debianPackage?: string;
  /** How to install it when there is no Debian package to name. */
  readonly manualInstall?: string;
  /** Absolute paths tried after `PATH` (a program some images keep off `PATH`). */
  readonly alsoAt?: readonly string[];
  /** Absolute path only: the program is run by that path, so `PATH` does not matter. */
  readonly onlyAt?: string;
  /** Not a program but a file that must exist (C headers), by absolute path. */
  readonly fileAt?: string;
}

/** Oldest Go the Go-built servers compile with (the highest `go` line of go-build/*-build/go.mod). */
export const MINIMUM_GO = '1.26.0';

const git: Prerequisite = { program: 'git', why: 'reads and serves the Git repositories', debianPackage: 'git' };
const gitHttpBackend: Prerequisite = {
  program: 'git-http-backend',
  why: "serves the local Git repositories over HTTP (part of Debian's git)",
  debianPackage: 'git',
};
const redis: Prerequisite = {
  program: 'redis-server',
  // Debian's redis-sentinel package is only a link to redis-server: the failover tests run it with --sentinel.
  why: 'holds the work queue that the controller replicas share, and runs the Sentinels of the failover tests (redis-server --sentinel)',
  debianPackage: 'redis-server',
};
const openssl: Prerequisite = {
  program: 'openssl',
  why: 'issues the client CA and certificate that the local kube-apiserver trusts',
  debianPackage: 'openssl',
};
const flock: Prerequisite = { program: 'flock', why: 'lets one build of the servers run at a time', debianPackage: 'util-linux' };
const go: Prerequisite = {
  program: 'go',
  why: `builds etcd, kube-apiserver and kube-controller-manager from their Go modules (Go ${MINIMUM_GO} or newer)`,
  manualInstall: `Go ${MINIMUM_GO} or newer from https://go.dev/doc/install (Debian's golang-go is older)`,
  alsoAt: ['/usr/local/go/bin/go'],
};
const sshd: Prerequisite = {
  program: 'sshd',
  why: 'serves Git over SSH in the SSH credential tests',
  debianPackage: 'openssh-server',
  onlyAt: '/usr/sbin/sshd',
};
const sshKeygen: Prerequisite = { program: 'ssh-keygen', why: 'makes the keys of the SSH credential tests', debianPackage: 'openssh-client' };
const gcc: Prerequisite = { program: 'gcc', why: "compiles Gitea's SQLite driver (cgo) for the SCM provider and pull request tests", debianPackage: 'gcc' };
// apt installs without recommends, and gcc only recommends the C library headers that cgo needs.
const libcHeaders: Prerequisite = {
  program: 'C library headers',
  why: "let gcc compile Gitea's SQLite driver (cgo)",
  debianPackage: 'libc6-dev',
  fileAt: '/usr/include/stdio.h',
};
const ssh: Prerequisite = { program: 'ssh', why: 'carries Git over SSH in the SSH credential tests', debianPackage: 'openssh-client' };

/** What `appset local` runs: the local cluster, Redis and a Git server. */
export const LOCAL_PREREQUISITES: readonly Prerequisite[] = [git, gitHttpBackend, redis, openssl, flock, go];

/** What the whole test suite runs: everything of local mode, an SSH server for the credential tests and a C compiler for Gitea. */
export const TEST_PREREQUISITES: readonly Prerequisite[] = [...LOCAL_PREREQUISITES, sshd, sshKeygen, ssh, gcc, libcHeaders];

/** Where programs are looked for, and who is asking; injected so tests can take things away. */
export interface Surroundings {
  /** The `PATH` to search. */
  readonly path: string;
  /** True when the process may install Debian packages itself (root). */
  readonly isRoot: boolean;
}

/** The process's own `PATH` and user. */
export function processSurroundings(): Surroundings {
  return { path: process.env.PATH ?? '', isRoot: process.getuid?.() === 0 };
}

/** Absolute path of an executable `name` on `path`, or undefined. */
export function findOnPath(name: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where `prerequisite` is on this machine, or undefined when it is missing. */
export function locate(prerequisite: Prerequisite, surroundings: Surroundings): string | undefined {
  if (prerequisite.onlyAt !== undefined) return isExecutable(prerequisite.onlyAt) ? prerequisite.onlyAt : undefined;
  if (prerequisite.fileAt !== undefined) return existsSync(prerequisite.fileAt) ? prerequisite.fileAt : undefined;
  if (prerequisite === gitHttpBackend) return locateGitHttpBackend(surroundings);
  return findOnPath(prerequisite.program, surroundings.path) ?? prerequisite.alsoAt?.find(isExecutable);
}

/** git-http-backend lives in Git's exec path, which `git --exec-path` names (Debian: /usr/lib/git-core). */
function locateGitHttpBackend(surroundings: Surroundings): string | undefined {
  const gitPath = findOnPath('git', surroundings.path);
  if (gitPath === undefined) return undefined;
  try {
    const execPath = execFileSync(gitPath, ['--exec-path'], { encoding: 'utf8' }).trim();
    const backend = join(execPath, 'git-http-backend');
    return isExecutable(backend) ? backend : undefined;
  } catch {
    return undefined;
  }
}

/** The prerequisites of `needs` that are missing, in order, each once. */
export function findMissing(needs: readonly Prerequisite[], surroundings: Surroundings): Prerequisite[] {
  return [...new Set(needs)].filter((p) => locate(p, surroundings) === undefined);
}

/**
 * Folders to add to `PATH` so every found prerequisite runs by its name: a program found only at an
 * `alsoAt` place (Go in /usr/local/go/bin on an image that leaves it off `PATH`).
 */
export function pathAdditions(needs: readonly Prerequisite[], surroundings: Surroundings): string[] {
  const folders = needs
    .filter((p) => p.alsoAt !== undefined && findOnPath(p.program, surroundings.path) === undefined)
    .map((p) => locate(p, surroundings))
    .filter((found): found is string => found !== undefined)
    .map((found) => dirname(found));
  return [...new Set(folders)];
}

/** Distinct Debian packages that install `missing`, in order. */
export function debianPackagesFor(missing: readonly Prerequisite[]): string[] {
  return [...new Set(missing.flatMap((p) => (p.debianPackage === undefined ? [] : [p.debianPackage])))];
}
