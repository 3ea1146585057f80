import type { Redis } from 'ioredis';

/** The caches a watch event can come from, by their name in {@link ControllerInformers}. */
export type CacheName = 'applicationSets' | 'applications' | 'secrets' | 'projects';

/** The watch event that made a replica enqueue a key: which cache saw it, at which resourceVersion. */
export interface Cause {
  readonly cache: CacheName;
  readonly resourceVersion: string;
}

/** For each cache, the newest resourceVersion an event that enqueued the key had. */
export type Requirements = Partial<Record<CacheName, string>>;

/**
 * Per key, the newest event any replica enqueued it for, so the replica that runs the key can wait
 * until its own caches have seen that event. Values only grow; they are never cleared, because a
 * cache that has passed a resourceVersion never goes back.
 */
export interface Watermarks {
  /** Raises the key's requirement for `cause.cache` to `cause.resourceVersion` (the larger one wins). */
  raise(key: string, cause: Cause): Promise<void>;
  /** The key's requirements (empty when no event enqueued it). */
  read(key: string): Promise<Requirements>;
  close(): Promise<void>;
}

/**
 * Watermarks for a single replica: the event that enqueued a key came from the very cache the
 * reconcile reads, which already holds it, so there is nothing to wait for.
 */
export function createLocalWatermarks(): Watermarks {
  return { raise: () => Promise.resolve(), read: () => Promise.resolve({}), close: () => Promise.resolve() };
}

// Keeps the larger of the stored and the given resourceVersion (both decimal etcd revisions), and
// refreshes the expiry: a requirement older than a day is long passed by every live cache.
const RAISE_SCRIPT = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if (not current) or (tonumber(current) or 0) < tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1`;

/** Watermarks shared by every replica of one queue through Redis (one small hash per key). */
export function createRedisWatermarks(client: Redis, keyPrefix: string, ttlSeconds = 86_400): Watermarks {
  const redisKey = (key: string): string => `${keyPrefix}:watermark:${key}`;
  return {
    async raise(key, cause) {
      // Not a decimal number: not an etcd revision, so no order can be trusted; the run does not wait for it.
      if (!/^\d{1,15}$/.test(cause.resourceVersion)) return;
      await client.eval(RAISE_SCRIPT, 1, redisKey(key), cause.cache, cause.resourceVersion, String(ttlSeconds));
    },
    async read(key) {
      return await client.hgetall(redisKey(key));
    },
    async close() {
      await client.quit().catch(() => undefined);
    },
  };
}
