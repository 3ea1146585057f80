// The Git cache over SSH against a real sshd (started here, privately) that serves the shared Git
// fixtures' repositories with plain git-upload-pack.
import type { V1Secret } from '@kubernetes/client-node';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { GitError } from '../../src/git/git-error.js';
import type { RepoCacheOptions } from '../../src/git/repo-cache.js';
import { killManagedProcessesOnExit } from '../../src/environment/local/cleanup.js';
import type { GitRepo } from '../../src/environment/local/git-fixtures.js';
import { createRunDir } from '../../src/environment/local/run-dir.js';
import { sharedEnvironment, sharedGitFixtures } from '../env/shared-environment.js';
import { generateKeyPair, startSshd, type SshKeyPair, type SshServer } from '../env/sshd.js';
import { freshCache, noSignal, uniqueName } from './repo-cache-helpers.js';

const isKind =
  (kind: string) =>
  (e: unknown): boolean =>
    e instanceof GitError && e.kind === kind;

/** An Argo CD repository or repo-creds Secret holding an SSH private key (and optional extra keys). */
function sshSecret(type: 'repository' | 'repo-creds', url: string, privateKey: string, extra: Record<string, string> = {}): V1Secret {
  const data = { url, sshPrivateKey: privateKey, type: 'git', ...extra };
  return {
    metadata: { name: `${type}-${randomUUID().slice(0, 6)}`, namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': type } },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  };
}

/** The base64 body lines of a private key: none of them may appear anywhere outside the key file. */
function keyLines(key: SshKeyPair): string[] {
  return key.privateKey.split('\n').filter((line) => line.length > 0 && !line.startsWith('-----'));
}

describe('RepoCache over SSH with keys from Argo CD Secrets', () => {
  let server: SshServer;
  let right: SshKeyPair;
  let wrong: SshKeyPair;
  let repo: GitRepo;
  const sshUrl = (r: GitRepo): string => `ssh://${server.user}@127.0.0.1:${server.port}${r.barePath}`;
  const scpUrl = (r: GitRepo): string => `${server.user}@${server.scpAddress}:${r.barePath}`;
  const cacheFor = (secrets: V1Secret[], options: Partial<RepoCacheOptions> = {}) =>
    freshCache({ repositorySecrets: () => secrets, knownHosts: () => server.knownHosts, sshTempRoot: mkdtempSync(join(tmpdir(), 'ssh-temp-')), ...options });

  before(async () => {
    sharedEnvironment(); // fails loudly outside the runner
    killManagedProcessesOnExit();
    const run = createRunDir();
    right = await generateKeyPair(run.root, 'right');
    wrong = await generateKeyPair(run.root, 'wrong');
    server = await startSshd(run, [right.publicKey]);
    repo = await sharedGitFixtures().createRepo(uniqueName('ssh'), { 'apps/a/config.json': '{"a":1}', 'apps/b/x.yaml': 'b: 2' });
  });

  after(async () => {
    await server?.stop();
  });

  it('resolves, lists, reads and fetches over ssh:// and scp-style URLs with the right key and known hosts', async () => {
    for (const url of [sshUrl(repo), scpUrl(repo)]) {
      const cache = cacheFor([sshSecret('repository', url, right.privateKey)]);
      const commit = await cache.resolveRevision(url, 'main', noSignal);
      assert.equal(commit, await repo.revParse('main'));
      assert.deepEqual(await cache.listDirectories(url, commit, noSignal), ['apps', 'apps/a', 'apps/b']);
      assert.equal((await cache.readFile(url, commit, 'apps/b/x.yaml', noSignal)).toString(), 'b: 2');
      assert.equal(cache.stats.fetch, 1, url);
    }
    const url = sshUrl(repo);
    const cache = cacheFor([sshSecret('repository', url, right.privateKey)]);
    await cache.resolveRevision(url, 'main', noSignal);
    const next = await repo.commit({ 'apps/c/y.yaml': 'c: 3' });
    assert.equal(await cache.resolveRevision(url, 'main', noSignal), next);
    assert.equal(cache.stats.fetch, 2, 'the new commit was fetched over SSH');
  });

  it('a repo-creds Secret with an SSH key applies by URL prefix', async () => {
    const url = sshUrl(repo);
    const prefix = `ssh://${server.user}@127.0.0.1:${server.port}${sharedEnvironment().gitRoot}`;
    const cache = cacheFor([
      sshSecret('repo-creds', `ssh://${server.user}@127.0.0.1:${server.port}/elsewhere`, right.privateKey),
      sshSecret('repo-creds', prefix, right.privateKey),
    ]);
    assert.equal(await cache.resolveRevision(url, 'main', noSignal), await repo.revParse('main'));
    const unrelated = cacheFor([sshSecret('repo-creds', `ssh://${server.user}@127.0.0.1:${server.port}/elsewhere`, right.privateKey)]);
    await assert.rejects(unrelated.resolveRevision(url, 'main', noSignal), isKind('auth'), 'without a matching Secret no key is offered');
  });

  it('a wrong key is an auth error, not retried, that never contains the key', async () => {
    const url = sshUrl(repo);
    const cache = cacheFor([sshSecret('repository', url, wrong.privateKey)]);
    await assert.rejects(cache.resolveRevision(url, 'main', noSignal), (e: unknown) => {
      assert.ok(isKind('auth')(e), String(e));
      const message = (e as Error).message;
      assert.ok(message.includes(url) && /authentication failed/.test(message), message);
      for (const line of keyLines(wrong)) assert.ok(!message.includes(line), 'key material in the error');
      return true;
    });
    assert.equal(cache.stats.lsRemote, 1, 'bad credentials are not retried');
  });

  it('an unknown or changed host key is a clear host-key error; insecureIgnoreHostKey skips the check', async () => {
    const url = sshUrl(repo);
    const other = await generateKeyPair(mkdtempSync(join(tmpdir(), 'other-host-')), 'other');
    const changed = `[127.0.0.1]:${server.port} ${other.publicKey.split(' ').slice(0, 2).join(' ')}\n`;
    for (const knownHosts of ['', `example.test ${other.publicKey}\n`, changed]) {
      const cache = cacheFor([sshSecret('repository', url, right.privateKey)], { knownHosts: () => knownHosts });
      await assert.rejects(cache.resolveRevision(url, 'main', noSignal), (e: unknown) => {
        assert.ok(isKind('host-key')(e), String(e));
        assert.match(
          (e as Error).message,
          new RegExp(
            `host key verification failed: the host key of \\[127\\.0\\.0\\.1\\]:${server.port} is not in the known hosts \\(ConfigMap argocd-ssh-known-hosts-cm`,
          ),
        );
        return true;
      });
      assert.equal(cache.stats.lsRemote, 1, 'a host-key failure is not retried');
    }
    for (const flag of [{ insecureIgnoreHostKey: 'true' }, { insecure: 'true' }] as Record<string, string>[]) {
      const cache = cacheFor([sshSecret('repository', url, right.privateKey, flag)], { knownHosts: () => '' });
      assert.equal(await cache.resolveRevision(url, 'main', noSignal), await repo.revParse('main'), JSON.stringify(flag));
    }
    const noKnownHostsAtAll = cacheFor([sshSecret('repository', url, right.privateKey)], { knownHosts: undefined });
    await assert.rejects(noKnownHostsAtAll.resolveRevision(url, 'main', noSignal), isKind('host-key'));
  });

  it('option injection through the host or user of an SSH URL runs nothing and is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ssh-inject-'));
    const marker = join(dir, 'pwned');
    const script = join(dir, 'proxy');
    writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\n`);
    chmodSync(script, 0o755);
    const urls = [
      `ssh://-oProxyCommand=${script}/r.git`,
      `ssh://-oProxyCommand=${script}@127.0.0.1:${server.port}/r.git`,
      `git@-oProxyCommand=${script}:r.git`,
      `-oProxyCommand=${script}@127.0.0.1:r.git`,
    ];
    for (const url of urls) {
      const cache = cacheFor([sshSecret('repository', url, right.privateKey)], { knownHosts: () => server.knownHosts });
      await assert.rejects(cache.resolveRevision(url, 'main', noSignal), (e: unknown) => e instanceof GitError, url);
    }
    assert.ok(!readdirSync(dir).includes('pwned'), 'the injected ProxyCommand ran');
  });

  it('a silent SSH server: the call times out or is cancelled, and the key folder is removed either way', async () => {
    // Accepts and never says a word. git is killed on timeout or abort, but its ssh child lives on until
    // ConnectTimeout, so that is kept short here.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const url = `ssh://${server.user}@127.0.0.1:${port}/r.git`;
    const knownHosts = () => server.knownHosts.replace(`[127.0.0.1]:${server.port}`, `[127.0.0.1]:${port}`);
    try {
      const sshTempRoot = mkdtempSync(join(tmpdir(), 'ssh-temp-'));
      const timingOut = cacheFor([sshSecret('repository', url, right.privateKey)], {
        knownHosts,
        sshTempRoot,
        networkTimeoutMs: 1_000,
        sshConnectTimeoutSeconds: 3,
      });
      await assert.rejects(timingOut.resolveRevision(url, 'main', noSignal), isKind('timeout'));
      const abort = new AbortController();
      const cancelled = cacheFor([sshSecret('repository', url, right.privateKey)], { knownHosts, sshTempRoot, sshConnectTimeoutSeconds: 3 });
      const call = cancelled.resolveRevision(url, 'main', abort.signal);
      setTimeout(() => abort.abort(), 500);
      await assert.rejects(call, isKind('aborted'));
      assert.deepEqual(readdirSync(sshTempRoot), [], 'no key folder is left behind');
    } finally {
      silent.close();
    }
  });

  it('the key is in no process argument or environment, no log line and no leftover file; the key file is 0600 in a 0700 folder', async () => {
    const url = sshUrl(repo);
    const bin = mkdtempSync(join(tmpdir(), 'ssh-wrapper-'));
    const record = join(bin, 'record.log');
    // Wrappers first on PATH record what git and ssh were started with, while they run.
    writeFileSync(join(bin, 'git'), `#!/bin/sh\nprintf 'GIT %s\\n' "$*" >> '${record}'\nexec /usr/bin/git "$@"\n`);
    writeFileSync(join(bin, 'ssh'), SSH_WRAPPER.replaceAll('RECORD', record));
    chmodSync(join(bin, 'git'), 0o755);
    chmodSync(join(bin, 'ssh'), 0o755);
    const lines: string[] = [];
    const log = pino({ level: 'debug' }, new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(chunk.toString()), done()) }));
    const sshTempRoot = mkdtempSync(join(tmpdir(), 'ssh-temp-'));
    const cache = cacheFor([sshSecret('repository', url, right.privateKey)], { log, sshTempRoot });
    const originalPath = process.env.PATH;
    process.env.PATH = `${bin}:${originalPath ?? ''}`;
    try {
      const commit = await cache.resolveRevision(url, 'main', noSignal);
      await cache.listFiles(url, commit, noSignal);
      await repo.commit({ 'apps/d/z.yaml': 'd: 4' });
      await cache.resolveRevision(url, 'main', noSignal);
    } finally {
      process.env.PATH = originalPath;
    }
    const recorded = readFileSync(record, 'utf8');
    assert.match(recorded, /GIT ls-remote/, 'the git wrapper saw the calls');
    assert.match(recorded, /SSH .*-i \/\S+\/identity .*IdentitiesOnly=yes.*BatchMode=yes.*ConnectTimeout=\d+.*StrictHostKeyChecking=yes/, recorded);
    assert.match(recorded, /PARENT-ENV .*GIT_SSH_COMMAND=/, 'the parent environment was recorded');
    assert.equal(recorded.match(/^MODES 600 700$/gm)?.length, 4, `the key file is 0600 in a 0700 folder, for both ls-remote and fetch calls:\n${recorded}`);
    for (const line of keyLines(right)) {
      assert.ok(!recorded.includes(line), 'key material in process arguments or environment');
      assert.ok(!lines.join('').includes(line), 'key material in logs');
      for (const file of readdirSync(cache['options'].root, { recursive: true, encoding: 'utf8' })) {
        const path = join(cache['options'].root, file);
        assert.ok(!safeRead(path).includes(line), `key material in the cache at ${file}`);
      }
    }
    assert.ok(lines.length > 0, 'the cache logged');
    assert.deepEqual(readdirSync(sshTempRoot), [], 'the per-call key folders are gone');
  });
});

/** A file's text, or "" for folders and unreadable entries. */
function safeRead(path: string): string {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return '';
  }
}

/**
 * Records ssh's own argument vector and /proc cmdline, its parent's (git's or sh's) cmdline and
 * environment, and the modes of the identity file and its folder, then runs the real ssh.
 */
const SSH_WRAPPER = `#!/bin/sh
printf 'SSH %s\\n' "$*" >> 'RECORD'
printf 'SELF-CMDLINE %s\\n' "$(tr '\\0' ' ' < /proc/$$/cmdline)" >> 'RECORD'
printf 'PARENT-CMDLINE %s\\n' "$(tr '\\0' ' ' < /proc/$PPID/cmdline)" >> 'RECORD'
printf 'PARENT-ENV %s\\n' "$(tr '\\0' ' ' < /proc/$PPID/environ)" >> 'RECORD'
prev=''
for arg in "$@"; do
  if [ "$prev" = '-i' ]; then printf 'MODES %s %s\\n' "$(stat -c %a "$arg")" "$(stat -c %a "$(dirname "$arg")")" >> 'RECORD'; fi
  prev="$arg"
done
exec /usr/bin/ssh "$@"
`;
