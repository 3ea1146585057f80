import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GitCredentials } from './credentials.js';
import { GitError, type GitLocation } from './git-error.js';

/** Name of Argo CD's ConfigMap of SSH known hosts, and the key holding them. */
export const KNOWN_HOSTS_CONFIGMAP = 'argocd-ssh-known-hosts-cm';
export const KNOWN_HOSTS_KEY = 'ssh_known_hosts';
/** Where Argo CD keeps SSH known hosts, named in host-key errors so operators know what to edit. */
export const KNOWN_HOSTS_SOURCE = `ConfigMap ${KNOWN_HOSTS_CONFIGMAP}, key ${KNOWN_HOSTS_KEY}`;

/** The known hosts text of Argo CD's ConfigMap among `configMaps` ("" when it is absent). */
export function knownHostsFromConfigMaps(configMaps: ReadonlyArray<{ metadata?: { name?: string }; data?: Record<string, string> }>): string {
  return configMaps.find((cm) => cm.metadata?.name === KNOWN_HOSTS_CONFIGMAP)?.data?.[KNOWN_HOSTS_KEY] ?? '';
}

/** Supplies the SSH known hosts (OpenSSH `known_hosts` text) that host keys are verified against. */
export type KnownHostsProvider = () => string;

const SCP_LIKE = /^[A-Za-z0-9._~-]+@[A-Za-z0-9.-]+:/;
/** Characters a path may have to go into GIT_SSH_COMMAND unquoted; anything else is refused. */
const SHELL_SAFE_PATH = /^\/[A-Za-z0-9._/+-]+$/;

/** True for URLs git reaches over SSH: `ssh://…` and scp-style `user@host:path`. */
export function isSshURL(repoURL: string): boolean {
  return repoURL.startsWith('ssh://') || SCP_LIKE.test(repoURL);
}

/** Files and limits one ssh invocation uses; only paths and numbers, never key material. */
export interface SshCommandSpec {
  /** Private key file, or undefined for an SSH URL without a key Secret (no identity is offered). */
  identityFile: string | undefined;
  /** known_hosts file, or undefined to skip host key checking (`insecureIgnoreHostKey`). */
  knownHostsFile: string | undefined;
  connectTimeoutSeconds: number;
}

/**
 * The GIT_SSH_COMMAND string: fixed option strings plus file paths checked to be shell-safe, so no
 * user-controlled text reaches the shell git runs it through. `-F /dev/null` ignores every ssh
 * config file; the agent, default identities, passwords and prompts are all switched off.
 */
export function buildSshCommand(spec: SshCommandSpec): string {
  const timeout = spec.connectTimeoutSeconds;
  if (!Number.isInteger(timeout) || timeout < 1 || timeout > 3600) throw new Error(`ssh connect timeout must be 1..3600 whole seconds, got ${timeout}`);
  const parts = ['ssh', '-F', '/dev/null'];
  parts.push(...(spec.identityFile === undefined ? ['-o', 'IdentityFile=none'] : ['-i', shellSafePath(spec.identityFile)]));
  parts.push('-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none', '-o', 'BatchMode=yes', '-o', `ConnectTimeout=${timeout}`);
  parts.push('-o', 'PasswordAuthentication=no', '-o', 'KbdInteractiveAuthentication=no', '-o', 'PubkeyAuthentication=yes');
  parts.push('-o', 'ControlMaster=no', '-o', 'ControlPath=none', '-o', 'UpdateHostKeys=no', '-o', 'GlobalKnownHostsFile=/dev/null');
  if (spec.knownHostsFile === undefined) {
    parts.push('-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR');
  } else {
    parts.push('-o', 'StrictHostKeyChecking=yes', '-o', `UserKnownHostsFile=${shellSafePath(spec.knownHostsFile)}`);
  }
  return parts.join(' ');
}

function shellSafePath(path: string): string {
  if (!SHELL_SAFE_PATH.test(path)) {
    throw new Error(
      `refusing to put the path ${JSON.stringify(path)} into GIT_SSH_COMMAND: only letters, digits and ._/+- are allowed; set a plain temporary folder`,
    );
  }
  return path;
}

/** What one SSH session needs to know, besides the credentials. */
export interface SshSessionOptions {
  /** Parent of the per-call temporary folder (e.g. the system temporary folder). */
  tempRoot: string;
  knownHosts: KnownHostsProvider | undefined;
  connectTimeoutSeconds: number;
  where: GitLocation;
  /** Secret the key came from, for errors (never the key itself). */
  secretName?: string;
}

/**
 * Runs `call` with a GIT_SSH_COMMAND for one git process. The key (if any) and the known hosts are
 * written to a fresh 0700 folder as 0600 files and the folder is removed afterwards, whatever happens.
 */
export async function withSshSession<T>(
  credentials: GitCredentials | undefined,
  options: SshSessionOptions,
  call: (sshCommand: string) => Promise<T>,
): Promise<T> {
  const key = credentials?.kind === 'ssh' ? normalisedKey(credentials.privateKey, options) : undefined;
  const checkHostKey = !(credentials?.kind === 'ssh' && credentials.insecureIgnoreHostKey);
  const dir = await mkdtemp(join(options.tempRoot, 'appset-ssh-'));
  try {
    await chmod(dir, 0o700);
    const identityFile = key === undefined ? undefined : join(dir, 'identity');
    if (identityFile !== undefined && key !== undefined) await writeFile(identityFile, key, { mode: 0o600, flag: 'wx' });
    const knownHostsFile = checkHostKey ? join(dir, 'known_hosts') : undefined;
    if (knownHostsFile !== undefined) await writeFile(knownHostsFile, normalisedKnownHosts(options.knownHosts?.() ?? ''), { mode: 0o600, flag: 'wx' });
    let command: string;
    try {
      command = buildSshCommand({ identityFile, knownHostsFile, connectTimeoutSeconds: options.connectTimeoutSeconds });
    } catch (error) {
      throw new GitError('invalid-input', options.where, (error as Error).message);
    }
    return await call(command);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The key with Unix line ends and a final newline (OpenSSH refuses one without); refuses non-keys. */
function normalisedKey(privateKey: string, options: SshSessionOptions): string {
  const key = privateKey.replace(/\r\n?/g, '\n').trim();
  if (!/^-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----\n[\s\S]+\n-----END [A-Z0-9 ]*PRIVATE KEY-----$/.test(key)) {
    const from = options.secretName === undefined ? 'the sshPrivateKey' : `the sshPrivateKey of Secret ${options.secretName}`;
    throw new GitError('invalid-input', options.where, `${from} is not a PEM or OpenSSH private key`);
  }
  return `${key}\n`;
}

function normalisedKnownHosts(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n');
  return lines.endsWith('\n') || lines === '' ? lines : `${lines}\n`;
}

/** The host as known_hosts names it (`host` or `[host]:port`), for host-key error messages. */
export function knownHostsName(repoURL: string): string {
  if (repoURL.startsWith('ssh://')) {
    try {
      const url = new URL(repoURL);
      return url.port === '' || url.port === '22' ? url.hostname : `[${url.hostname}]:${url.port}`;
    } catch {
      return repoURL;
    }
  }
  return /@([^:]+):/.exec(repoURL)?.[1] ?? repoURL;
}
