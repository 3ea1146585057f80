import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { findCredentials } from '../../src/git/credentials.js';
import { GitError } from '../../src/git/git-error.js';
import { buildSshCommand, isSshURL, knownHostsFromConfigMaps, knownHostsName, withSshSession } from '../../src/git/ssh-transport.js';

const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n';
const where = { repoURL: 'ssh://git@host/r.git' };

describe('ssh transport: the GIT_SSH_COMMAND', () => {
  it('has the fixed hardening options, the key file and strict checking against the known hosts file', () => {
    const command = buildSshCommand({ identityFile: '/tmp/x/identity', knownHostsFile: '/tmp/x/known_hosts', connectTimeoutSeconds: 30 });
    for (const option of [
      '-F /dev/null',
      '-i /tmp/x/identity',
      'IdentitiesOnly=yes',
      'IdentityAgent=none',
      'BatchMode=yes',
      'ConnectTimeout=30',
      'PasswordAuthentication=no',
      'StrictHostKeyChecking=yes',
      'UserKnownHostsFile=/tmp/x/known_hosts',
      'GlobalKnownHostsFile=/dev/null',
    ]) {
      assert.ok(command.includes(option), `${option} missing from ${command}`);
    }
    assert.ok(!command.includes('StrictHostKeyChecking=no'));
  });

  it('offers no identity without a key, and skips host checks only when asked to', () => {
    const command = buildSshCommand({ identityFile: undefined, knownHostsFile: undefined, connectTimeoutSeconds: 5 });
    assert.match(command, /IdentityFile=none/);
    assert.doesNotMatch(command, / -i /);
    assert.match(command, /StrictHostKeyChecking=no -o UserKnownHostsFile=\/dev\/null/);
  });

  it('refuses paths with shell syntax or spaces and bad timeouts instead of quoting them', () => {
    for (const path of ['/tmp/a b/identity', '/tmp/$(touch x)/id', '/tmp/`id`/id', "/tmp/a'b/id", '/tmp/a;rm/id', 'relative/id', '/tmp/a\nb']) {
      assert.throws(() => buildSshCommand({ identityFile: path, knownHostsFile: '/tmp/k', connectTimeoutSeconds: 5 }), /refusing to put the path/, path);
      assert.throws(() => buildSshCommand({ identityFile: '/tmp/i', knownHostsFile: path, connectTimeoutSeconds: 5 }), /refusing to put the path/, path);
    }
    for (const timeout of [0, -1, 1.5, Number.NaN, 10_000]) {
      assert.throws(() => buildSshCommand({ identityFile: undefined, knownHostsFile: undefined, connectTimeoutSeconds: timeout }), /connect timeout/);
    }
  });
});

describe('ssh transport: URLs and Secrets', () => {
  it('tells SSH URLs from others and names hosts as known_hosts does', () => {
    for (const url of ['ssh://git@github.com/org/r.git', 'git@github.com:org/r.git', 'root@127.0.0.5:/srv/r.git']) assert.ok(isSshURL(url), url);
    for (const url of ['https://github.com/org/r.git', 'file:///tmp/r.git', 'git://host/r.git', 'http://user@host:8080/r']) assert.ok(!isSshURL(url), url);
    assert.equal(knownHostsName('ssh://git@github.com/org/r.git'), 'github.com');
    assert.equal(knownHostsName('ssh://git@127.0.0.1:2222/r.git'), '[127.0.0.1]:2222');
    assert.equal(knownHostsName('git@gitlab.example:org/r.git'), 'gitlab.example');
  });

  it("takes the known hosts from Argo CD's ConfigMap argocd-ssh-known-hosts-cm, key ssh_known_hosts", () => {
    const line = 'github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl';
    assert.equal(
      knownHostsFromConfigMaps([
        { metadata: { name: 'other' }, data: { ssh_known_hosts: 'evil' } },
        { metadata: { name: 'argocd-ssh-known-hosts-cm' }, data: { ssh_known_hosts: line } },
      ]),
      line,
    );
    assert.equal(knownHostsFromConfigMaps([{ metadata: { name: 'argocd-ssh-known-hosts-cm' }, data: { other: line } }]), '');
    assert.equal(knownHostsFromConfigMaps([]), '');
  });

  it('reads insecureIgnoreHostKey and insecure from the Secret, strict by default', () => {
    const secret = (extra: Record<string, string>) => ({
      metadata: { name: 's', namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': 'repository' } },
      stringData: { url: 'git@h:r.git', sshPrivateKey: KEY, ...extra },
    });
    const insecure = (extra: Record<string, string>): unknown => {
      const found = findCredentials('git@h:r.git', [secret(extra)])?.credentials;
      return found?.kind === 'ssh' ? found.insecureIgnoreHostKey : 'not ssh';
    };
    assert.equal(insecure({}), false);
    assert.equal(insecure({ insecureIgnoreHostKey: 'false' }), false);
    assert.equal(insecure({ insecureIgnoreHostKey: 'true' }), true);
    assert.equal(insecure({ insecure: 'True' }), true);
  });
});

describe('ssh transport: the per-call key folder', () => {
  it('writes the key 0600 in a fresh 0700 folder for the call only, and removes it on success and failure', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ssh-session-'));
    const options = { tempRoot: root, knownHosts: () => 'host ssh-ed25519 AAAA', connectTimeoutSeconds: 10, where };
    let identity = '';
    await withSshSession({ kind: 'ssh', privateKey: KEY.replaceAll('\n', '\r\n').trim(), insecureIgnoreHostKey: false }, options, (command) => {
      identity = /-i (\S+)/.exec(command)?.[1] ?? '';
      assert.equal(statSync(identity).mode & 0o777, 0o600);
      assert.equal(statSync(dirname(identity)).mode & 0o777, 0o700);
      assert.equal(readFileSync(identity, 'utf8'), KEY, 'Unix line ends and a final newline');
      assert.equal(readFileSync(join(dirname(identity), 'known_hosts'), 'utf8'), 'host ssh-ed25519 AAAA\n');
      assert.ok(!command.includes('b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ'), 'key material in the command');
      return Promise.resolve();
    });
    assert.ok(identity !== '' && !existsSync(identity));
    await assert.rejects(
      withSshSession({ kind: 'ssh', privateKey: KEY, insecureIgnoreHostKey: false }, options, () => Promise.reject(new Error('git failed'))),
      /git failed/,
    );
    assert.deepEqual(readdirSync(root), []);
  });

  it('refuses something that is not a private key, without echoing it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ssh-session-'));
    const options = { tempRoot: root, knownHosts: undefined, connectTimeoutSeconds: 10, where, secretName: 'argocd/repo' };
    await assert.rejects(
      withSshSession({ kind: 'ssh', privateKey: 'hunter2-not-a-key', insecureIgnoreHostKey: false }, options, () => Promise.resolve()),
      (e: unknown) => {
        assert.ok(e instanceof GitError && e.kind === 'invalid-input', String(e));
        assert.match(e.message, /sshPrivateKey of Secret argocd\/repo is not a PEM or OpenSSH private key/);
        assert.ok(!e.message.includes('hunter2'));
        return true;
      },
    );
    assert.deepEqual(readdirSync(root), []);
  });

  it('refuses a temporary folder whose path is not shell-safe, and leaves nothing behind', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ssh session $x '));
    const options = { tempRoot: root, knownHosts: () => '', connectTimeoutSeconds: 10, where };
    await assert.rejects(
      withSshSession({ kind: 'ssh', privateKey: KEY, insecureIgnoreHostKey: false }, options, () => Promise.resolve()),
      (e: unknown) => e instanceof GitError && e.kind === 'invalid-input' && /GIT_SSH_COMMAND/.test(e.message),
    );
    assert.deepEqual(readdirSync(root), []);
  });
});
