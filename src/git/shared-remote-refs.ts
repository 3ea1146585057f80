import { createHash } from 'node:crypto';
import type { ResolvedCredentials } from './credentials.js';
import { describeLocation, GitError, type GitLocation } from './errors.js';
import { FreshSingleFlight } from './fresh-single-flight.js';
import { parseLsRemote, type RemoteRefs } from './remote-refs.js';

/**
 * A remote's refs from an `ls-remote` that started after the call, shared by concurrent callers of
 * one repository with the same credentials: a webhook that wakes a hundred ApplicationSets of one
 * repository costs one or two ls-remotes, not a hundred. Callers with other credentials never share
 * (each proves its own access), and every error names the caller's own revision.
 */
export class SharedRemoteRefs {
  private readonly flight = new FreshSingleFlight<RemoteRefs>();

  /** Runs `lsRemote` (or joins a run that began after this call) and parses its output. */
  async read(where: GitLocation, credentials: ResolvedCredentials | undefined, signal: AbortSignal, lsRemote: (signal: AbortSignal) => Promise<string>): Promise<RemoteRefs> {
    const identity = createHash('sha256').update(JSON.stringify([credentials?.source ?? null, credentials?.credentials ?? null])).digest('hex');
    try {
      return await this.flight.run(`${where.repoURL}\n${identity}`, async () => parseLsRemote(await lsRemote(signal)));
    } catch (error) {
      if (!(error instanceof GitError)) throw error;
      // Cancelled by the caller that began the shared run, not by this one: ask again alone.
      if (error.kind === 'aborted' && !signal.aborted) return parseLsRemote(await lsRemote(signal));
      throw relocated(error, where);
    }
  }
}

/** The same failure, named at `where` (a shared run's error names the revision of the caller that began it). */
function relocated(error: GitError, where: GitLocation): GitError {
  if (describeLocation(error.where) === describeLocation(where)) return error;
  const prefix = `${describeLocation(error.where)}: `;
  return new GitError(error.kind, where, error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message);
}
