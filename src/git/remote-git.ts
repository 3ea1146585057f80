import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResolvedCredentials } from './credentials.js';
import type { GitLocation } from './git-error.js';
import { ASKPASS_SCRIPT, runGit, type GitCommandOptions } from './git-command.js';
import { DEFAULT_RETRY_POLICY, withRetries, type RetryPolicy } from './retry.js';
import { isSshURL, withSshSession, type KnownHostsProvider } from './ssh-transport.js';

/** The git calls that reach a remote: resolving refs, and fetching objects. */
export type NetworkRequestType = 'ls-remote' | 'fetch';

/** Settings of {@link RemoteGit}. */
export interface RemoteGitOptions {
  /** Folder the askpass script is written to. */
  root: string;
  /** SSH known hosts; none trusts no host. */
  knownHosts?: KnownHostsProvider;
  /** Parent of the short-lived per-call folder holding an SSH key and known hosts (default: the system temp folder). */
  sshTempRoot?: string;
  /** ssh's ConnectTimeout, in seconds (default 30). */
  sshConnectTimeoutSeconds?: number;
  /** Limit for one git process (default 120 s). */
  networkTimeoutMs?: number;
  /** Retries of transient failures (default {@link DEFAULT_RETRY_POLICY}). */
  retry?: RetryPolicy;
  /** Work done once before the first remote call, beside writing the askpass script (tried again if it fails). */
  beforeFirstCall?: () => Promise<void>;
  /** Called once per git process that talks to a remote, retries included. */
  onRequest?: (repoURL: string, type: NetworkRequestType) => void;
}

/**
 * Runs the git processes that reach a remote: credentials only through the askpass script's environment,
 * SSH keys in a folder that lives as long as the process, a time limit, and retries of transient failures.
 */
export class RemoteGit {
  private ready: Promise<string> | undefined;

  constructor(private readonly options: RemoteGitOptions) {}

  /** Runs `git <args>` in `cwd` against `where.repoURL` with `found`'s credentials; resolves with its output. */
  async run(
    args: string[],
    cwd: string,
    where: GitLocation,
    found: ResolvedCredentials | undefined,
    signal: AbortSignal,
    type: NetworkRequestType,
    retry = this.options.retry ?? DEFAULT_RETRY_POLICY,
  ): Promise<string> {
    const askPassPath = await this.askPass();
    const credentials = found?.credentials;
    const options: GitCommandOptions = { cwd, timeoutMs: this.options.networkTimeoutMs ?? 120_000, signal, askPassPath, credentials, where };
    const once = (): Promise<string> => {
      this.options.onRequest?.(where.repoURL, type);
      if (!isSshURL(where.repoURL)) return runGit(args, options);
      // A fresh key folder per git process: it exists only while that process runs.
      const session = {
        tempRoot: this.options.sshTempRoot ?? tmpdir(),
        knownHosts: this.options.knownHosts,
        connectTimeoutSeconds: this.options.sshConnectTimeoutSeconds ?? 30,
        where,
        secretName: found?.source.secret,
      };
      return withSshSession(credentials, session, (sshCommand) => runGit(args, { ...options, sshCommand }));
    };
    return withRetries(retry, signal, once);
  }

  /** The askpass script's path, written once (it holds no secret: it echoes the child's environment). */
  private askPass(): Promise<string> {
    // Memoised as a promise: concurrent first calls must not rewrite the script while git runs it.
    this.ready ??= this.writeAskPass().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  /** Makes the root folder, runs the owner's {@link RemoteGitOptions.beforeFirstCall}, and writes the askpass script. */
  private async writeAskPass(): Promise<string> {
    await mkdir(this.options.root, { recursive: true });
    await this.options.beforeFirstCall?.();
    const path = join(this.options.root, 'askpass.sh');
    await writeFile(path, ASKPASS_SCRIPT, { mode: 0o700 });
    return path;
  }
}
