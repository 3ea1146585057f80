import type { Redis } from 'ioredis';
import { repoIdentity } from '../model/git-url.js';

/**
 * A counter per repository that every webhook push advances (after its signature was checked). Remote
 * refs read while the counter had one value are not served once it has moved on, so a reconcile that a
 * push enqueued never resolves a revision from refs read before that push, on whichever replica it
 * runs. No clocks are compared: replicas only compare counters they read from the same place.
 */
export interface PushEpochs {
  /** The repository's counter now (0 before any push). Throws when it cannot be read: callers then read refs afresh. */
  current(repoURL: string): Promise<number>;
  /** Advances the counters of these repositories; resolves once every replica would read the new values. */
  advance(repoURLs: readonly string[]): Promise<void>;
}

/** Counters in this process: enough for one replica, whose pushes and reconciles meet here. */
export function createLocalPushEpochs(): PushEpochs {
  const counters = new Map<string, number>();
  return {
    current: (repoURL) => Promise.resolve(counters.get(identityOf(repoURL)) ?? 0),
    advance(repoURLs) {
      for (const identity of new Set(repoURLs.map(identityOf))) counters.set(identity, (counters.get(identity) ?? 0) + 1);
      return Promise.resolve();
    },
  };
}

/** Counters shared by every replica of one queue, in one Redis hash (a field per repository). */
export function createRedisPushEpochs(client: Redis, keyPrefix: string): PushEpochs {
  const hash = `${keyPrefix}:git-push-epochs`;
  return {
    async current(repoURL) {
      return Number((await client.hget(hash, identityOf(repoURL))) ?? 0);
    },
    async advance(repoURLs) {
      await Promise.all([...new Set(repoURLs.map(identityOf))].map((identity) => client.hincrby(hash, identity, 1)));
    },
  };
}

/**
 * The key of a repository: the identity providers and users share (`host/path`, see repoIdentity),
 * so a push naming `https://github.com/org/repo` moves the counter `git@github.com:org/repo.git`
 * reads. A URL without one keys as written (it can still be pushed to under that exact text).
 */
function identityOf(repoURL: string): string {
  return repoIdentity(repoURL) ?? repoURL;
}
