import { simpleGit } from 'simple-git';
import type { GitCredentials } from './credentials.js';
import { GitError, type GitLocation } from './git-error.js';
import { KNOWN_HOSTS_SOURCE, knownHostsName } from './ssh-transport.js';

/** How one git process runs: where, for how long, cancelled by what, authenticated how. */
export interface GitCommandOptions {
  /** Working directory (a bare repository or the cache root). */
  cwd: string;
  /** Hard limit for the whole process; it is killed afterwards. */
  timeoutMs: number;
  signal: AbortSignal;
  /** Script that answers git's username/password prompts from environment variables. */
  askPassPath: string;
  credentials?: GitCredentials;
  /** GIT_SSH_COMMAND for this call (built by `withSshSession`); without it ssh trusts no host and offers no key. */
  sshCommand?: string;
  /** Named in errors. */
  where: GitLocation;
}

/** ssh for calls without an SSH session: no config, no key, no known host, so it cannot connect anywhere. */
const NO_SSH_COMMAND =
  'ssh -F /dev/null -o IdentityFile=none -o IdentitiesOnly=yes -o IdentityAgent=none -o BatchMode=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile=/dev/null -o GlobalKnownHostsFile=/dev/null';

/** Environment variables the askpass script reads; set only in the child's environment. */
export const ASKPASS_USERNAME_VARIABLE = 'APPSET_GIT_USERNAME';
export const ASKPASS_PASSWORD_VARIABLE = 'APPSET_GIT_PASSWORD';

/** Runs `git args…` and returns stdout as text. */
export async function runGit(args: readonly string[], options: GitCommandOptions): Promise<string> {
  return (await execute(args, options, false)).toString('utf8');
}

/** Runs `git args…` and returns stdout as raw bytes (for blobs, which may not be UTF-8). */
export async function runGitBytes(args: readonly string[], options: GitCommandOptions): Promise<Buffer> {
  return execute(args, options, true);
}

// simple-git ends a command that printed nothing on either stream 50 ms after it exits (its completion plugin, not
// configurable), so commands on a latency path are spelled to print when they succeed: see cache-commands.ts.
async function execute(args: readonly string[], options: GitCommandOptions, raw: boolean): Promise<Buffer> {
  if (options.signal.aborted) throw new GitError('aborted', options.where, 'cancelled before git ran');
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const chunks: Buffer[] = [];
  const git = simpleGit({
    baseDir: options.cwd,
    abort: AbortSignal.any([options.signal, timeout]),
    trimmed: false,
    unsafe: {
      // We set these ourselves, from constants; user input never reaches config keys or env names.
      allowUnsafeAskPass: true,
      allowUnsafeConfigPaths: true,
      allowUnsafeConfigEnvCount: true,
      allowUnsafeCredentialHelper: true,
      allowUnsafeHooksPath: true,
      allowUnsafeProtocolOverride: true,
      allowUnsafeSshCommand: true,
    },
  }).env(childEnvironment(options));
  if (raw) git.outputHandler((_command, stdout) => void stdout.on('data', (chunk: Buffer) => chunks.push(chunk)));
  try {
    const text = await git.raw([...args]);
    return raw ? Buffer.concat(chunks) : Buffer.from(text, 'utf8');
  } catch (error) {
    if (options.signal.aborted) throw new GitError('aborted', options.where, `git ${args[0] ?? ''} cancelled`);
    if (timeout.aborted) throw new GitError('timeout', options.where, `git ${args[0] ?? ''} timed out after ${options.timeoutMs} ms`);
    throw classify(error, options);
  }
}

/**
 * The child's whole environment: no user or system git config, no terminal prompt, only safe
 * transports, credential helpers disabled, and credentials only as variables the askpass script
 * reads (or, for a bearer token, as an environment-provided config entry), never in argv or on disk.
 */
function childEnvironment(options: GitCommandOptions): Record<string, string> {
  const config: [string, string][] = [
    ['credential.helper', ''],
    ['core.hooksPath', '/dev/null'],
    ['protocol.ext.allow', 'never'],
  ];
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.cwd,
    LANG: 'C',
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ALLOW_PROTOCOL: 'http:https:ssh:git:file',
    GIT_ASKPASS: options.askPassPath,
    GIT_SSH_COMMAND: options.sshCommand ?? NO_SSH_COMMAND,
  };
  const credentials = options.credentials;
  if (credentials?.kind === 'basic') {
    env[ASKPASS_USERNAME_VARIABLE] = credentials.username;
    env[ASKPASS_PASSWORD_VARIABLE] = credentials.password;
  } else if (credentials?.kind === 'bearer') {
    config.push(['http.extraHeader', `Authorization: Bearer ${credentials.token}`]);
  }
  env.GIT_CONFIG_COUNT = String(config.length);
  config.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/** Maps git's stderr to a kind, keeping only its text (it never echoes the password). */
function classify(error: unknown, options: GitCommandOptions): GitError {
  const text = scrub(error instanceof Error ? error.message : String(error), options.credentials);
  const firstLines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, 3)
    .join('; ');
  if (/host key verification failed|no \S+ host key is known|remote host identification has changed/i.test(text)) {
    const said = text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /host key|identification|offending/i.test(l))
      .slice(0, 3)
      .join('; ');
    return new GitError(
      'host-key',
      options.where,
      `SSH host key verification failed: the host key of ${knownHostsName(options.where.repoURL)} is not in the known hosts (${KNOWN_HOSTS_SOURCE}) or does not match them: ${said}`,
    );
  }
  if (/load key .*: (invalid format|error in libcrypto)|incorrect passphrase/i.test(text)) {
    return new GitError(
      'auth',
      options.where,
      'the SSH private key could not be loaded (not a valid key, or protected by a passphrase, which is not supported)',
    );
  }
  if (/authentication failed|could not read (username|password)|terminal prompts disabled|returned error: 40[13]|permission denied \(publickey/i.test(text)) {
    return new GitError('auth', options.where, `authentication failed (check the repository credentials): ${firstLines}`);
  }
  if (/repository .* not found|does not appear to be a git repository|returned error: 404|not found/i.test(text)) {
    return new GitError('not-found', options.where, `repository not found: ${firstLines}`);
  }
  return new GitError('unreachable', options.where, firstLines || 'git failed');
}

/** Removes any credential value from a message, in case a server echoed it back. */
function scrub(text: string, credentials: GitCredentials | undefined): string {
  return secretParts(credentials)
    .filter((s) => s.length > 0)
    .reduce((acc, s) => acc.split(s).join('***'), text);
}

/** Every piece of a credential that must never be shown: the password, the token, each line of a key. */
function secretParts(credentials: GitCredentials | undefined): string[] {
  if (credentials?.kind === 'basic') return [credentials.password];
  if (credentials?.kind === 'bearer') return [credentials.token];
  if (credentials?.kind === 'ssh')
    return [credentials.privateKey, ...credentials.privateKey.split(/\r?\n/).filter((l) => l.length >= 16 && !l.startsWith('-----'))];
  return [];
}

/** The askpass script: answers prompts from the child's environment, so it holds no secret itself. */
export const ASKPASS_SCRIPT = `#!/bin/sh
case "$1" in
  [Uu]sername*) printf '%s\\n' "$${ASKPASS_USERNAME_VARIABLE}" ;;
  *) printf '%s\\n' "$${ASKPASS_PASSWORD_VARIABLE}" ;;
esac
`;
