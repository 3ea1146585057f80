import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ensurePrerequisites, MissingPrerequisitesError } from '../../src/environment/ensure-prerequisites.js';
import { findMissing, LOCAL_PREREQUISITES, MINIMUM_GO, pathAdditions, TEST_PREREQUISITES, type Prerequisite } from '../../src/environment/prerequisites.js';

/** A folder of fake programs; `git --exec-path` of the fake git names a folder with a git-http-backend. */
function fakeBin(programs: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'prereq-bin-'));
  const core = join(dir, 'git-core');
  mkdirSync(core);
  const write = (path: string, body: string): void => {
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
  };
  write(join(core, 'git-http-backend'), 'exit 0');
  for (const program of programs) write(join(dir, program), program === 'git' ? `echo ${core}` : 'exit 0');
  return dir;
}

const names = (list: readonly Prerequisite[]): string[] => list.map((p) => p.program);
// Programs local mode needs besides Go (which may also be found in /usr/local/go).
const localPrograms = ['git', 'redis-server', 'openssl', 'flock', 'go'];

describe('prerequisites', () => {
  it('finds nothing missing when every program is on PATH', () => {
    const bin = fakeBin(localPrograms);
    assert.deepEqual(names(findMissing(LOCAL_PREREQUISITES, { path: bin, isRoot: false })), []);
  });

  it('checks a file prerequisite (C headers) by its path, not on PATH, and names its package', () => {
    const present = mkdtempSync(join(tmpdir(), 'prereq-file-'));
    writeFileSync(join(present, 'stdio.h'), '');
    const header = (path: string): Prerequisite => ({ program: 'C library headers', why: 'cgo', debianPackage: 'libc6-dev', fileAt: path });
    assert.deepEqual(names(findMissing([header(join(present, 'stdio.h'))], { path: '', isRoot: false })), []);
    assert.deepEqual(names(findMissing([header(join(present, 'missing.h'))], { path: fakeBin(['stdio.h']), isRoot: false })), ['C library headers']);
    assert.ok(TEST_PREREQUISITES.some((p) => p.debianPackage === 'libc6-dev' && p.fileAt === '/usr/include/stdio.h'));
  });

  it('names each missing program once, git-http-backend with git', () => {
    const bin = fakeBin(['openssl', 'flock', 'go']);
    assert.deepEqual(names(findMissing(LOCAL_PREREQUISITES, { path: bin, isRoot: false })), ['git', 'git-http-backend', 'redis-server']);
  });

  it('refuses with one message naming every missing program and the apt-get line, when it may not install', () => {
    const bin = fakeBin(['git', 'openssl', 'flock', 'go', 'apt-get']);
    let installs = 0;
    const error = (() => {
      try {
        ensurePrerequisites(LOCAL_PREREQUISITES, {
          command: 'appset local',
          surroundings: { path: bin, isRoot: false },
          say: () => undefined,
          install: () => void installs++,
        });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    assert.ok(error instanceof MissingPrerequisitesError);
    assert.equal(installs, 0, 'a non-root process must not try to install');
    assert.match(error.message, /^missing programs, so nothing was built or started:\n {2}redis-server {2}holds the work queue/);
    assert.match(error.message, /^ {2}sudo apt-get update && sudo apt-get install -y redis-server$/m);
    assert.match(error.message, /then run appset local again\.$/);
  });

  it('installs the Debian packages as root with apt-get, saying what and why, then finds them', () => {
    const bin = fakeBin(['git', 'openssl', 'flock', 'go', 'gcc', 'apt-get']);
    const said: string[] = [];
    const asked: string[][] = [];
    ensurePrerequisites(
      TEST_PREREQUISITES.filter((p) => p.program !== 'sshd'),
      {
        command: 'npm test',
        surroundings: { path: bin, isRoot: true },
        say: (line) => said.push(line),
        install: (packages) => {
          asked.push([...packages]);
          for (const program of ['redis-server', 'ssh', 'ssh-keygen']) writeFileSync(join(bin, program), '#!/bin/sh\n', { mode: 0o755 });
          return undefined;
        },
      },
    );
    assert.deepEqual(asked, [['redis-server', 'openssh-client']]);
    assert.equal(said.length, 1);
    assert.match(
      said[0] ?? '',
      /^npm test: installing Debian packages redis-server, openssh-client \(redis-server: holds the work queue.*ssh-keygen: makes the keys/,
    );
  });

  it("reports apt-get's own words when the install fails", () => {
    const bin = fakeBin(['git', 'openssl', 'flock', 'go', 'apt-get']);
    assert.throws(
      () =>
        ensurePrerequisites(LOCAL_PREREQUISITES, {
          command: 'appset local',
          surroundings: { path: bin, isRoot: true },
          say: () => undefined,
          install: () => 'E: Unable to locate package redis-server',
        }),
      (error: Error) =>
        error instanceof MissingPrerequisitesError &&
        /apt-get could not install them:\n {2}E: Unable to locate package redis-server/.test(error.message) &&
        /^ {2}apt-get update && apt-get install -y redis-server$/m.test(error.message),
    );
  });

  it('says how to get Go, which no Debian package of the right age brings', () => {
    const bin = fakeBin(['git', 'openssl', 'flock', 'redis-server']);
    const noGo = LOCAL_PREREQUISITES.map((p) => (p.program === 'go' ? { ...p, alsoAt: [] } : p));
    assert.throws(
      () => ensurePrerequisites(noGo, { command: 'npm test', surroundings: { path: bin, isRoot: true }, say: () => undefined, install: () => undefined }),
      (error: Error) =>
        new RegExp(`go: Go ${MINIMUM_GO.replaceAll('.', '\\.')} or newer from https://go.dev/doc/install`).test(error.message) &&
        !/apt-get install/.test(error.message),
    );
  });

  it('adds the folder of a program found off PATH, so the builds find it by name', () => {
    const elsewhere = fakeBin(['go']);
    const goOffPath: Prerequisite = { program: 'go', why: 'builds', alsoAt: [join(elsewhere, 'go')] };
    assert.deepEqual(pathAdditions([goOffPath], { path: fakeBin([]), isRoot: false }), [elsewhere]);
    assert.deepEqual(pathAdditions([goOffPath], { path: elsewhere, isRoot: false }), []);
  });

  it('asks for the Go version the build modules declare', () => {
    const envDir = fileURLToPath(new URL('../../../go-build/', import.meta.url));
    const declared = ['kube-build', 'etcd-build', 'helm-build'].map((m) => /^go (\S+)$/m.exec(readFileSync(join(envDir, m, 'go.mod'), 'utf8'))?.[1] ?? '');
    const newest = declared.sort((a, b) => a.localeCompare(b, undefined, { numeric: true })).at(-1);
    assert.equal(MINIMUM_GO, newest);
  });
});
