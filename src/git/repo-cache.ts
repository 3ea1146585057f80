import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { GitReader, ResolveOptions } from './git-reader.js';
import type { V1Secret } from '@kubernetes/client-node';
import type { RepositorySecretsProvider, ResolvedCredentials } from './credentials.js';
import { isUsableBareCopy } from './bare-copy.js';
import { DiskBudget } from './disk-budget.js';
import { checkResolvedAddresses, PLATFORM_ACCESS, type RepoAccess } from './repo-access.js';
import { GitError, type GitLocation } from './git-error.js';
import { cacheCommands } from './cache-commands.js';
import { runGit, runGitBytes, type GitCommandOptions } from './git-command.js';
import { validateRepoPath, validateRepoURL, validateRevision } from './input-validation.js';
import { KeyedMutex } from './keyed-mutex.js';
import { commitForRevision, isAbbreviatedSha, isFullSha } from './remote-refs.js';
import { ONE_TRY, type RetryPolicy } from './retry.js';
import { RemoteGit, type NetworkRequestType } from './remote-git.js';
import { credentialsFor, explainOutOfScope } from './scoped-credentials.js';
import { SharedRemoteRefs } from './shared-remote-refs.js';
import type { KnownHostsProvider } from './ssh-transport.js';
import { parseLsTree, resolveSymlinkTarget, TreeListing } from './tree-listing.js';
import { WeightedLru } from '../model/weighted-lru.js';
import type { PushEpochs } from './push-epochs.js';
import type { RefsFreshness } from './shared-remote-refs.js';

/** Settings of a {@link RepoCache}. */
export interface RepoCacheOptions {
  /** Folder holding the bare copies (`repos/`) and the askpass script. */
  root: string;
  /** Argo CD repository and repo-creds Secrets; none means anonymous access only. */
  repositorySecrets?: RepositorySecretsProvider;
  /** SSH known hosts (Argo CD's ConfigMap argocd-ssh-known-hosts-cm, key ssh_known_hosts); none trusts no host. */
  knownHosts?: KnownHostsProvider;
  /** Parent of the short-lived per-call folder holding an SSH key and known hosts (default: the system temp folder). */
  sshTempRoot?: string;
  /** ssh's ConnectTimeout, in seconds (default 30). */
  sshConnectTimeoutSeconds?: number;
  /** Disk budget for all copies together; least recently used copies are evicted beyond it. */
  maxDiskBytes?: number;
  /** Limit for network calls (ls-remote, fetch). */
  networkTimeoutMs?: number;
  /** Limit for local calls (ls-tree, cat-file). */
  localTimeoutMs?: number;
  /** Largest file `readFile` returns. */
  maxFileBytes?: number;
  retry?: RetryPolicy;
  /** Listings kept in memory (one per repository and commit). */
  maxCachedListings?: number;
  /** Bytes of file contents kept in memory, by blob (default 32 MiB; 0 keeps none). */
  maxCachedFileBytes?: number;
  log?: Logger;
  /** Called once per git process that talks to a remote (retries included), e.g. to count fetches in a metric. */
  onNetworkRequest?: (request: { repoURL: string; type: NetworkRequestType }) => void;
  /**
   * Longest a repository's refs are reused for resolving revisions (default 0: an `ls-remote` begun
   * after every call). Only with `pushEpochs`: a push (or refresh) recorded there ends the reuse at once.
   */
  refsMaxAgeMs?: number;
  /** Push counters shared by the replicas (see PushEpochs). */
  pushEpochs?: PushEpochs;
}

/** What the cache did, for tests and benchmarks (e.g. "steady state fetched nothing"). */
export interface RepoCacheStats {
  lsRemote: number;
  fetch: number;
  init: number;
  lsTree: number;
  /** Files whose content git read (a file answered from memory is not counted). */
  blobReads: number;
  evicted: number;
}

const MAX_SYMLINK_HOPS = 8;

/**
 * One bare local copy per repository URL, shared by every ApplicationSet: revisions are resolved
 * with an `ls-remote` begun after the call (with the caller's credentials; concurrent callers with the
 * same credentials share one) and fetched only when the commit is not local yet, once for all callers
 * (after a push, beside the ls-remote); trees are listed and files read at a commit without a working tree.
 */
export class RepoCache implements GitReader {
  readonly stats: RepoCacheStats = { lsRemote: 0, fetch: 0, init: 0, lsTree: 0, blobReads: 0, evicted: 0 };
  private readonly mutex = new KeyedMutex();
  private readonly budget: DiskBudget;
  private readonly listings = new Map<string, TreeListing>();
  /** Commits known to be in a copy (`dir@sha`): steady state then runs one git process, ls-remote. */
  private readonly knownCommits = new Set<string>();
  private readonly remoteRefs = new SharedRemoteRefs();
  /**
   * File contents by `dir:blob id`. A blob id names its content, so a kept entry can never be stale;
   * it is reached only through a listing of a commit that resolving (with the caller's access) returned.
   */
  private readonly blobs: WeightedLru<Buffer>;
  private readonly remote: RemoteGit;

  constructor(private readonly options: RepoCacheOptions) {
    this.budget = new DiskBudget(options.maxDiskBytes ?? 10 * 2 ** 30);
    this.remote = new RemoteGit({
      root: options.root,
      knownHosts: options.knownHosts,
      sshTempRoot: options.sshTempRoot,
      sshConnectTimeoutSeconds: options.sshConnectTimeoutSeconds,
      networkTimeoutMs: options.networkTimeoutMs,
      retry: options.retry,
      beforeFirstCall: () => this.countCopiesOnDisk(),
      onRequest: (repoURL, type) => {
        this.stats[type === 'fetch' ? 'fetch' : 'lsRemote']++;
        options.onNetworkRequest?.({ repoURL, type });
      },
    });
    this.blobs = new WeightedLru({ maxWeight: options.maxCachedFileBytes ?? 32 * 2 ** 20, maxEntries: 100_000 });
  }

  /** Resolves `revision` to a commit with the platform's access (every Secret, every host). */
  resolveRevision(repoURL: string, revision: string, signal: AbortSignal, options?: ResolveOptions): Promise<string> {
    return this.resolveRevisionAs(PLATFORM_ACCESS, repoURL, revision, signal, options);
  }

  /**
   * This cache as one caller sees it: revisions are resolved (and fetched) only with the Secrets and
   * to the addresses `access` allows. Listing and reading stay shared: they need a commit, and a
   * commit comes from resolving, which authenticates every time.
   */
  forAccess(access: RepoAccess): GitReader {
    return {
      resolveRevision: (repoURL, revision, signal, options) => this.resolveRevisionAs(access, repoURL, revision, signal, options),
      listDirectories: (repoURL, commit, signal) => this.listDirectories(repoURL, commit, signal),
      listFiles: (repoURL, commit, signal) => this.listFiles(repoURL, commit, signal),
      readFile: (repoURL, commit, path, signal) => this.readFile(repoURL, commit, path, signal),
    };
  }

  /** Resolves `revision` to a commit, fetching only when that commit is not in the local copy yet. */
  private async resolveRevisionAs(
    access: RepoAccess,
    repoURL: string,
    revision: string,
    signal: AbortSignal,
    options: ResolveOptions | undefined,
  ): Promise<string> {
    validateRepoURL(repoURL);
    const rev = revision === '' ? 'HEAD' : revision;
    validateRevision(repoURL, rev);
    const where = { repoURL, revision: rev };
    await checkResolvedAddresses(access, where);
    const credentials = credentialsFor(where, access, this.secrets());
    return this.resolveWith(repoURL, rev, where, credentials, signal, this.freshness(options)).catch((error: unknown) => {
      throw explainOutOfScope(error, where, access, credentials, this.secrets());
    });
  }

  /** The refs a resolve accepts: the older of the cache's and the caller's bound, reused only with push counters. */
  private freshness(options: ResolveOptions | undefined): RefsFreshness {
    const maxAgeMs = Math.max(0, Math.min(this.options.refsMaxAgeMs ?? 0, options?.maxRefsAgeMs ?? Number.POSITIVE_INFINITY));
    const reuse = this.options.pushEpochs !== undefined && (this.options.refsMaxAgeMs ?? 0) > 0;
    return reuse ? { maxAgeMs, epochs: this.options.pushEpochs } : { maxAgeMs: 0 };
  }

  private async resolveWith(
    repoURL: string,
    rev: string,
    where: GitLocation,
    credentials: ResolvedCredentials | undefined,
    signal: AbortSignal,
    freshness: RefsFreshness,
  ): Promise<string> {
    const dir = this.repoDir(repoURL);
    const lsRemote = (s: AbortSignal): Promise<string> => this.remote.run(['ls-remote', '--', repoURL], this.options.root, where, credentials, s, 'ls-remote');
    const fetchBeside = (): void => this.fetchBesideLsRemote(dir, repoURL, where, credentials, signal);
    const refs = await this.remoteRefs.read(where, credentials, signal, lsRemote, freshness, fetchBeside);
    const commit = await this.mutex.run(dir, async () => {
      this.budget.touch(dir);
      await this.ensureInitialised(dir, where, signal);
      const fromRefs = commitForRevision(refs, rev);
      if (fromRefs) return this.ensureCommit(dir, repoURL, fromRefs, where, credentials, signal);
      if (isAbbreviatedSha(rev)) return this.resolveSha(dir, repoURL, rev, where, credentials, signal);
      throw new GitError('unknown-revision', where, 'no branch, tag or commit of that name');
    });
    await this.evictIfOverBudget(dir);
    return commit;
  }

  /** Every directory at `commit` (never the root itself). */
  async listDirectories(repoURL: string, commit: string, signal: AbortSignal): Promise<readonly string[]> {
    return (await this.listing(repoURL, commit, signal)).directories;
  }

  /** Every regular file and symlink at `commit`. */
  async listFiles(repoURL: string, commit: string, signal: AbortSignal): Promise<readonly string[]> {
    return (await this.listing(repoURL, commit, signal)).files;
  }

  /** One file at `commit`, following in-repository symlinks; refuses escapes and oversize files. */
  async readFile(repoURL: string, commit: string, path: string, signal: AbortSignal): Promise<Buffer> {
    validateRepoPath(repoURL, commit, path);
    const listing = await this.listing(repoURL, commit, signal);
    const dir = this.repoDir(repoURL);
    let current = path;
    for (let hop = 0; hop <= MAX_SYMLINK_HOPS; hop++) {
      const where = { repoURL, revision: commit, path: current };
      const entry = listing.entry(current);
      if (!entry) throw new GitError('not-found', where, 'no such file at this commit');
      if (entry.type !== 'blob') throw new GitError('not-found', where, 'not a file');
      const content = await this.readBlob(dir, entry.objectId, where, signal);
      if (entry.mode !== '120000') return content;
      const target = resolveSymlinkTarget(current, content.toString('utf8'));
      if (target === undefined) throw new GitError('symlink-escape', where, 'symlink points outside the repository');
      current = target;
    }
    throw new GitError('symlink-escape', { repoURL, revision: commit, path }, `more than ${MAX_SYMLINK_HOPS} symlink hops`);
  }

  /** One blob's content, from memory or two `cat-file` calls (size first: an oversize file is never read). */
  private async readBlob(dir: string, objectId: string, where: GitLocation, signal: AbortSignal): Promise<Buffer> {
    const key = `${dir}:${objectId}`;
    const kept = this.blobs.get(key);
    if (kept) return kept;
    const maxBytes = this.options.maxFileBytes ?? 2 * 2 ** 20;
    const size = Number(await runGit(['cat-file', '-s', objectId], this.local(dir, where, signal)));
    if (!(size <= maxBytes)) throw new GitError('too-large', where, `file is ${size} bytes, over the ${maxBytes}-byte limit`);
    this.stats.blobReads++;
    const content = await runGitBytes(['cat-file', 'blob', objectId], this.local(dir, where, signal));
    this.blobs.set(key, content, content.length);
    return content;
  }

  /** The listing of `commit`, from memory or one `ls-tree`. */
  private async listing(repoURL: string, commit: string, signal: AbortSignal): Promise<TreeListing> {
    validateRepoURL(repoURL);
    const where = { repoURL, revision: commit };
    if (!isFullSha(commit)) throw new GitError('invalid-input', where, 'listing needs a full commit SHA from resolveRevision');
    const dir = this.repoDir(repoURL);
    const key = `${dir}@${commit}`;
    const cached = this.listings.get(key);
    if (cached) {
      this.listings.delete(key);
      this.listings.set(key, cached);
      return cached;
    }
    if (!existsSync(dir)) throw new GitError('not-found', where, 'repository is not in the local cache; resolve the revision first');
    this.stats.lsTree++;
    const output = await runGit(['ls-tree', '-r', '-t', '-z', '--full-tree', commit], this.local(dir, where, signal));
    const listing = new TreeListing(parseLsTree(output));
    this.listings.set(key, listing);
    if (this.listings.size > (this.options.maxCachedListings ?? 32)) this.listings.delete(this.listings.keys().next().value ?? '');
    return listing;
  }

  private async ensureCommit(
    dir: string,
    repoURL: string,
    sha: string,
    where: GitLocation,
    credentials: ResolvedCredentials | undefined,
    signal: AbortSignal,
  ): Promise<string> {
    if (await this.hasCommit(dir, sha, where, signal)) return sha;
    await this.fetch(dir, repoURL, where, credentials, signal);
    if (await this.hasCommit(dir, sha, where, signal)) return sha;
    throw new GitError('unknown-revision', where, `commit ${sha} is not reachable from any branch or tag`);
  }

  private async resolveSha(
    dir: string,
    repoURL: string,
    rev: string,
    where: GitLocation,
    credentials: ResolvedCredentials | undefined,
    signal: AbortSignal,
  ): Promise<string> {
    const local = await this.revParse(dir, rev, where, signal);
    if (local) return local;
    await this.fetch(dir, repoURL, where, credentials, signal);
    const fetched = await this.revParse(dir, rev, where, signal);
    if (fetched) return fetched;
    throw new GitError('unknown-revision', where, 'no branch, tag or commit of that name');
  }

  private async fetch(
    dir: string,
    repoURL: string,
    where: GitLocation,
    credentials: ResolvedCredentials | undefined,
    signal: AbortSignal,
    retry?: RetryPolicy,
  ): Promise<void> {
    await this.remote.run(cacheCommands.fetchAll(repoURL), dir, where, credentials, signal, 'fetch', retry);
    this.options.log?.info({ repoURL, dir }, 'git: fetched');
    await this.budget.measure(dir);
  }

  /**
   * After a push the ls-remote almost always names a commit the copy lacks, and the fetch that follows it
   * was a second network round trip on every webhook push. So the fetch starts beside the ls-remote, with
   * the same caller's credentials (what the ls-remote may reach, the fetch may too), holding the copy's lock:
   * the resolve waits for it there and then finds the commit. Tried once; a failure is only logged, and the
   * resolve fetches as before if the commit is still missing.
   */
  private fetchBesideLsRemote(dir: string, repoURL: string, where: GitLocation, credentials: ResolvedCredentials | undefined, signal: AbortSignal): void {
    if (!isUsableBareCopy(dir)) return; // a first clone is the resolve's own
    this.mutex
      .run(dir, () => this.fetch(dir, repoURL, where, credentials, signal, ONE_TRY))
      .catch((error: unknown) =>
        this.options.log?.debug({ repoURL, err: error }, 'git: the fetch beside a post-push ls-remote failed; the resolve fetches if it must'),
      );
  }

  private async hasCommit(dir: string, sha: string, where: GitLocation, signal: AbortSignal): Promise<boolean> {
    const key = `${dir}@${sha}`;
    if (this.knownCommits.has(key)) return true;
    const present = await runGit(cacheCommands.commitType(sha), this.local(dir, where, signal)).then(
      () => true,
      (e: unknown) => rethrowCancel(e),
    );
    if (present) this.knownCommits.add(key);
    return present;
  }

  private async revParse(dir: string, rev: string, where: GitLocation, signal: AbortSignal): Promise<string | undefined> {
    const out = await runGit(cacheCommands.commitOf(rev), this.local(dir, where, signal)).catch((e: unknown) => rethrowCancel(e));
    return out === false || out.trim() === '' ? undefined : out.trim();
  }

  private local(cwd: string, where: GitLocation, signal: AbortSignal): GitCommandOptions {
    return { cwd, timeoutMs: this.options.localTimeoutMs ?? 60_000, signal, askPassPath: '/bin/false', where };
  }

  private async ensureInitialised(dir: string, where: GitLocation, signal: AbortSignal): Promise<void> {
    if (isUsableBareCopy(dir)) return;
    if (existsSync(dir)) this.options.log?.warn({ repoURL: where.repoURL, dir }, 'git: local copy is broken; creating it again');
    this.forgetCopy(dir);
    await rm(dir, { recursive: true, force: true });
    await mkdir(join(this.options.root, 'repos'), { recursive: true });
    this.stats.init++;
    await runGit(cacheCommands.initBare(dir), this.local(this.options.root, where, signal));
  }

  /** Counts copies a previous process left in the folder against the disk budget, oldest first. */
  private async countCopiesOnDisk(): Promise<void> {
    await mkdir(join(this.options.root, 'repos'), { recursive: true });
    for (const name of await readdir(join(this.options.root, 'repos'))) {
      await this.budget.measure(join(this.options.root, 'repos', name));
    }
  }

  /** The repository Secrets this cache may use at all (a caller's access narrows them further). */
  private secrets(): readonly V1Secret[] {
    return this.options.repositorySecrets?.() ?? [];
  }

  private repoDir(repoURL: string): string {
    const hash = createHash('sha256').update(repoURL).digest('hex').slice(0, 32);
    return join(this.options.root, 'repos', `${hash}.git`);
  }

  private async evictIfOverBudget(keep: string): Promise<void> {
    const evicted = await this.budget.enforce((dir) => dir !== keep && !this.mutex.isBusy(dir));
    for (const dir of evicted) {
      this.stats.evicted++;
      this.forgetCopy(dir);
      this.options.log?.info({ dir }, 'git: evicted least recently used repository copy');
    }
  }

  /** Drops what memory says about a copy that is gone (evicted or deleted from outside). */
  private forgetCopy(dir: string): void {
    for (const key of [...this.listings.keys()]) if (key.startsWith(`${dir}@`)) this.listings.delete(key);
    for (const key of [...this.knownCommits]) if (key.startsWith(`${dir}@`)) this.knownCommits.delete(key);
    this.blobs.deleteWhere((key) => key.startsWith(`${dir}:`));
  }

  /** Names of the copies on disk (for tests of the disk budget). */
  async copiesOnDisk(): Promise<string[]> {
    return (await readdir(join(this.options.root, 'repos')).catch(() => [])).sort();
  }
}

/** A failed probe means "absent", except cancellation and timeouts, which must propagate. */
function rethrowCancel(error: unknown): never | false {
  if (error instanceof GitError && (error.kind === 'aborted' || error.kind === 'timeout')) throw error;
  return false;
}
