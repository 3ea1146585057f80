import { Cluster, Redis, type ClusterNode, type ClusterOptions, type RedisOptions } from 'ioredis';

/** A Redis host and port (Sentinel or Cluster node). */
export interface RedisHostPort {
  host: string;
  port: number;
}

/**
 * Where the queue's Redis is: exactly one of `url` (redis://, or rediss:// for TLS), `sentinel` or
 * `cluster`. `redisOptions` are passed to ioredis as they are (passwords, `tls` CA, timeouts).
 */
export interface RedisConnectionOptions {
  url?: string;
  sentinel?: { sentinels: RedisHostPort[]; name: string; sentinelPassword?: string; tls?: boolean };
  cluster?: { nodes: RedisHostPort[]; tls?: boolean };
  redisOptions?: RedisOptions;
}

/** What a connection is used for; BullMQ workers block on Redis and need `maxRetriesPerRequest: null`. */
export type ConnectionRole = 'producer' | 'worker';

/** Throws a clear error unless exactly one of url, sentinel, cluster is given and it is well formed. */
export function validateConnectionOptions(options: RedisConnectionOptions): void {
  const given = (['url', 'sentinel', 'cluster'] as const).filter((name) => options[name] !== undefined);
  if (given.length !== 1)
    throw new TypeError(`redis connection needs exactly one of url, sentinel, cluster; got ${given.length === 0 ? 'none' : given.join(', ')}`);
  if (options.url !== undefined && !/^rediss?:\/\//.test(options.url))
    throw new TypeError(`redis url must start with redis:// or rediss://, got ${JSON.stringify(redact(options.url))}`);
  if (options.sentinel && (options.sentinel.sentinels.length === 0 || !options.sentinel.name))
    throw new TypeError('redis sentinel needs at least one sentinel and the master name');
  if (options.cluster && options.cluster.nodes.length === 0) throw new TypeError('redis cluster needs at least one node');
}

/** Creates an ioredis client (or Cluster) for `role`; it connects at once. */
export function createRedisClient(options: RedisConnectionOptions, role: ConnectionRole, lazyConnect = false): Redis | Cluster {
  validateConnectionOptions(options);
  // Workers must wait out a Redis restart rather than fail commands; producers fail after a few tries
  // so that an add during an outage reports an error to its caller instead of hanging forever.
  const base: RedisOptions = {
    ...options.redisOptions,
    lazyConnect,
    maxRetriesPerRequest: role === 'worker' ? null : (options.redisOptions?.maxRetriesPerRequest ?? 20),
  };
  if (options.url !== undefined) return new Redis(options.url, base);
  if (options.sentinel) {
    const { sentinels, name, sentinelPassword, tls } = options.sentinel;
    return new Redis({ ...base, sentinels, name, sentinelPassword, ...(tls ? { enableTLSForSentinelMode: true, tls: base.tls ?? {} } : {}) });
  }
  const cluster = options.cluster as { nodes: ClusterNode[]; tls?: boolean };
  const redisOptions = { ...base, ...(cluster.tls ? { tls: base.tls ?? {} } : {}) };
  const clusterOptions: ClusterOptions = { lazyConnect, redisOptions };
  return new Cluster(cluster.nodes, clusterOptions);
}

/**
 * The BullMQ key prefix. On a Cluster every key of a queue must hash to one slot (BullMQ's scripts
 * touch many keys at once), so the prefix is wrapped in a hash tag unless it already has one.
 */
export function queuePrefix(options: RedisConnectionOptions, prefix = 'appset'): string {
  if (!/^[A-Za-z0-9._{}-]+$/.test(prefix))
    throw new TypeError(`queue prefix ${JSON.stringify(prefix)} may only contain letters, digits, '.', '_', '-', '{', '}'`);
  if (options.cluster && !/\{[^}]+\}/.test(prefix)) return `{${prefix}}`;
  return prefix;
}

/** The URL with its password replaced, for error messages and logs. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
