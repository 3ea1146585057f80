import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../src/environment/local/free-port.js';
import { ManagedProcess } from '../../src/environment/local/managed-process.js';
import type { RunDir } from '../../src/environment/local/run-dir.js';
import { waitFor } from '../../src/environment/local/wait-for.js';

const exec = promisify(execFile);

/** An SSH key pair generated for a test. */
export interface SshKeyPair {
  privateKey: string;
  publicKey: string;
}

/** A running Debian `sshd` on loopback that serves the Git fixtures' repositories to authorised keys. */
export interface SshServer {
  /** The loopback port picked for `ssh://user@127.0.0.1:PORT/…` URLs. */
  port: number;
  /** A second loopback address where sshd listens on port 22, for scp-style `user@ADDRESS:/path` URLs. */
  scpAddress: string;
  /** The login user (the user running the tests). */
  user: string;
  /** known_hosts lines for both listeners, with the server's real host key. */
  knownHosts: string;
  process: ManagedProcess;
  /** Stops sshd and removes its run folder. */
  stop(): Promise<void>;
}

/** Generates an ed25519 key pair with ssh-keygen in `dir` (no passphrase). */
export async function generateKeyPair(dir: string, name: string): Promise<SshKeyPair> {
  const path = join(dir, name);
  await exec('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', path]);
  return { privateKey: readFileSync(path, 'utf8'), publicKey: readFileSync(`${path}.pub`, 'utf8').trim() };
}

/**
 * Starts `/usr/sbin/sshd` with its own host key and config in the run folder: public keys only (those in
 * `authorizedKeys`), no password, no PAM. It listens on a free loopback port and on port 22 of
 * another loopback address (which needs root, as CI runs), so both URL forms can be tested.
 */
export async function startSshd(run: RunDir, authorizedKeys: readonly string[]): Promise<SshServer> {
  const dir = join(run.root, 'sshd');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 }); // sshd's privilege separation folder
  const hostKey = join(dir, 'ssh_host_ed25519_key');
  await exec('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'appset-test-sshd', '-f', hostKey]);
  writeFileSync(join(dir, 'authorized_keys'), `${authorizedKeys.join('\n')}\n`, { mode: 0o600 });
  const port = await freePort();
  const scpAddress = `127.0.${1 + Math.floor(Math.random() * 250)}.${2 + Math.floor(Math.random() * 250)}`;
  const user = process.getuid?.() === 0 ? 'root' : (process.env.USER ?? 'root');
  const config = [
    `ListenAddress 127.0.0.1:${port}`,
    `ListenAddress ${scpAddress}:22`,
    `HostKey ${hostKey}`,
    `PidFile ${join(dir, 'sshd.pid')}`,
    `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
    'PermitRootLogin prohibit-password',
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'UsePAM no',
    'StrictModes no',
    'LogLevel VERBOSE',
  ];
  writeFileSync(join(dir, 'sshd_config'), `${config.join('\n')}\n`);
  const sshd = new ManagedProcess('sshd', {
    command: '/usr/sbin/sshd',
    args: ['-D', '-e', '-f', join(dir, 'sshd_config')],
    logFile: join(run.logDir, 'sshd.log'),
    pidDir: run.pidDir,
  });
  await sshd.start();
  for (const [host, p] of [
    ['127.0.0.1', port],
    [scpAddress, 22],
  ] as const) {
    await waitFor(async () => (sshd.assertRunning(), (await banner(host, p)).startsWith('SSH-2.0')), {
      what: `sshd banner on ${host}:${p}`,
      timeoutMs: 20_000,
    });
  }
  const hostPublicKey = readFileSync(`${hostKey}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ');
  const knownHosts = `[127.0.0.1]:${port} ${hostPublicKey}\n${scpAddress} ${hostPublicKey}\n`;
  const stop = async (): Promise<void> => {
    await sshd.stop();
    rmSync(run.root, { recursive: true, force: true });
  };
  return { port, scpAddress, user, knownHosts, process: sshd, stop };
}

/** The first line the server sends (an SSH server sends its version banner first). */
function banner(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.setTimeout(2_000, () => (socket.destroy(), resolve('')));
    socket.on('error', () => resolve(''));
    socket.once('data', (data) => {
      resolve(data.toString('utf8'));
      socket.end();
    });
  });
}
