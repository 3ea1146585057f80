import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { GitError } from '../../src/git/git-error.js';
import { sharedEnvironment, sharedGitFixtures } from '../env/shared-environment.js';
import { freshCache, noSignal, repoSecret, uniqueName } from './repo-cache-helpers.js';

const isKind =
  (kind: string) =>
  (e: unknown): boolean =>
    e instanceof GitError && e.kind === kind;

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('RepoCache over HTTP with credentials from Argo CD Secrets', () => {
  it('reads a private repository with a repository Secret (exact URL)', async () => {
    const env = sharedEnvironment();
    const repo = await sharedGitFixtures().createRepo(uniqueName('http-exact'), { 'apps/a/x.yaml': 'a: 1' });
    const cache = freshCache({ repositorySecrets: () => [repoSecret('repository', repo.httpUrl, env.gitUsername, env.gitPassword)] });
    const commit = await cache.resolveRevision(repo.httpUrl, 'main', noSignal);
    assert.equal(commit, await repo.revParse('main'));
    assert.equal((await cache.readFile(repo.httpUrl, commit, 'apps/a/x.yaml', noSignal)).toString(), 'a: 1');
  });

  it('reads with a repo-creds Secret whose url is a prefix, the longest prefix winning', async () => {
    const env = sharedEnvironment();
    const repo = await sharedGitFixtures().createRepo(uniqueName('http-prefix'), { 'a/x': '1' });
    const base = repo.httpUrl.slice(0, repo.httpUrl.lastIndexOf('/'));
    const secrets = [
      repoSecret('repo-creds', base.slice(0, base.indexOf('/git')), env.gitUsername, 'wrong'),
      repoSecret('repo-creds', base, env.gitUsername, env.gitPassword),
    ];
    const cache = freshCache({ repositorySecrets: () => secrets });
    assert.equal(await cache.resolveRevision(repo.httpUrl, 'main', noSignal), await repo.revParse('main'));
  });

  it('no credentials and bad credentials are auth errors that never contain the password', async () => {
    const env = sharedEnvironment();
    const repo = await sharedGitFixtures().createRepo(uniqueName('http-bad'), { 'a/x': '1' });
    const wrongPassword = `not-${env.gitPassword}`;
    for (const secrets of [
      [],
      [repoSecret('repository', repo.httpUrl, env.gitUsername, wrongPassword)],
      [repoSecret('repository', repo.httpUrl, 'nobody', env.gitPassword)],
    ]) {
      const cache = freshCache({ repositorySecrets: () => secrets });
      await assert.rejects(cache.resolveRevision(repo.httpUrl, 'main', noSignal), (e: unknown) => {
        assert.ok(isKind('auth')(e), String(e));
        const message = (e as Error).message;
        assert.ok(message.includes(repo.httpUrl) && message.includes('revision "main"'), message);
        assert.ok(!message.includes(env.gitPassword) && !message.includes(wrongPassword), 'password in error');
        return true;
      });
      assert.equal(cache.stats.lsRemote, 1, 'bad credentials are not retried');
    }
  });

  it('credentials appear in no process argument, no file of the cache and no log line', async () => {
    const env = sharedEnvironment();
    const repo = await sharedGitFixtures().createRepo(uniqueName('http-leak'), { 'a/x': '1' });
    // A git wrapper first on PATH records every argument vector the cache runs.
    const bin = mkdtempSync(join(tmpdir(), 'git-wrapper-'));
    const argvLog = join(bin, 'argv.log');
    writeFileSync(join(bin, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${argvLog}'\nexec /usr/bin/git "$@"\n`);
    chmodSync(join(bin, 'git'), 0o755);
    const lines: string[] = [];
    const log = pino({ level: 'debug' }, new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(chunk.toString()), done()) }));
    const cache = freshCache({ log, repositorySecrets: () => [repoSecret('repository', repo.httpUrl, env.gitUsername, env.gitPassword)] });
    const originalPath = process.env.PATH;
    process.env.PATH = `${bin}:${originalPath ?? ''}`;
    try {
      const commit = await cache.resolveRevision(repo.httpUrl, 'main', noSignal);
      await cache.listFiles(repo.httpUrl, commit, noSignal);
      await repo.commit({ 'b/y': '2' });
      await cache.resolveRevision(repo.httpUrl, 'main', noSignal);
    } finally {
      process.env.PATH = originalPath;
    }
    const argv = readFileSync(argvLog, 'utf8');
    assert.match(argv, /ls-remote/, 'the wrapper saw the git calls');
    assert.match(argv, /fetch/);
    assert.ok(!argv.includes(env.gitPassword), 'password in process arguments');
    for (const file of filesUnder(cache['options'].root)) {
      assert.ok(!readFileSync(file).includes(env.gitPassword), `password on disk in ${file}`);
    }
    assert.ok(lines.length > 0, 'the cache logged');
    assert.ok(!lines.join('').includes(env.gitPassword), 'password in logs');
  });
});

describe('RepoCache with a bearer token or an SSH key', () => {
  it('sends a bearer token as an Authorization header and keeps it out of errors', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers.authorization ?? '');
      res.writeHead(401, { 'www-authenticate': 'Basic realm="x"' }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/r.git`;
    const token = `tok-${uniqueName('t')}`;
    const secret = repoSecret('repository', url, 'unused', 'unused');
    secret.data = { url: Buffer.from(url).toString('base64'), bearerToken: Buffer.from(token).toString('base64') };
    try {
      const cache = freshCache({ repositorySecrets: () => [secret] });
      await assert.rejects(cache.resolveRevision(url, 'main', noSignal), (e: unknown) => isKind('auth')(e) && !(e as Error).message.includes(token));
      assert.ok(seen.includes(`Bearer ${token}`), `headers seen: ${seen.join(', ')}`);
    } finally {
      server.close();
    }
  });

  it('an SSH key Secret for a URL that is not an SSH URL is refused with a clear error', async () => {
    const url = 'http://127.0.0.1:1/r.git';
    const secret = repoSecret('repository', url, 'u', 'p');
    secret.data = { url: Buffer.from(url).toString('base64'), sshPrivateKey: Buffer.from('-----BEGIN OPENSSH PRIVATE KEY-----').toString('base64') };
    const cache = freshCache({ repositorySecrets: () => [secret] });
    await assert.rejects(
      cache.resolveRevision(url, 'main', noSignal),
      (e: unknown) => isKind('invalid-input')(e) && /SSH private key.*not an ssh:\/\//.test((e as Error).message),
    );
    assert.equal(cache.stats.lsRemote, 0);
  });
});
