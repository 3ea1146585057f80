import { Redis, type RedisOptions } from 'ioredis';
import { FailoverSafeSentinelConnector } from './sentinel-connector.js';

/** A Redis host and port (a Sentinel). */
export interface RedisHostPort {
  host: string;
  port: number;
}

/**
 * Where the queue's Redis is: exactly one of `url` (redis://, or rediss:// for TLS) or `sentinel`.
 * `redisOptions` are passed to ioredis as they are (passwords, `tls` CA, timeouts). Redis Cluster is not
 * supported: it was never proven against a real cluster, and the shared-state keys are not hash-tagged.
 */
export interface RedisConnectionOptions {
  url?: string;
  sentinel?: { sentinels: RedisHostPort[]; name: string; sentinelPassword?: string; tls?: boolean };
  redisOptions?: RedisOptions;
}

/** What a connection is used for; BullMQ workers block on Redis and need `maxRetriesPerRequest: null`. */
export type ConnectionRole = 'producer' | 'worker';

/** Throws a clear error unless exactly one of url, sentinel is given and it is well formed. */
export function validateConnectionOptions(options: RedisConnectionOptions): void {
  if ('cluster' in options) throw new TypeError('redis cluster is not supported; use one Redis (url) or Sentinels (sentinel)');
  const given = (['url', 'sentinel'] as const).filter((name) => options[name] !== undefined);
  if (given.length !== 1) throw new TypeError(`redis connection needs exactly one of url, sentinel; got ${given.length === 0 ? 'none' : given.join(', ')}`);
  if (options.url !== undefined && !/^rediss?:\/\//.test(options.url))
    throw new TypeError(`redis url must start with redis:// or rediss://, got ${JSON.stringify(redact(options.url))}`);
  if (options.sentinel && (options.sentinel.sentinels.length === 0 || !options.sentinel.name))
    throw new TypeError('redis sentinel needs at least one sentinel and the master name');
}

/**
 * How a client behind Sentinels follows a failover. Without `failoverDetector` a client stays on the old
 * master's connection: when that master hangs (a partition, SIGSTOP) every command waits for it, and when it
 * comes back it serves writes until the Sentinels demote it. With it, the client listens for the Sentinels'
 * `+switch-master` and reconnects to the new master, resending what was in flight. A connection that still
 * meets the demoted node (`READONLY`, or a blocked command it ended with `UNBLOCKED`) reconnects through the
 * Sentinels too and resends the command. The connector is ioredis's with a race fixed that otherwise leaves a
 * client closed for good after a failover (see {@link FailoverSafeSentinelConnector}).
 */
const SENTINEL_FAILOVER: RedisOptions = {
  // ioredis builds the connector from the client's own options, which hold the Sentinels and the master name.
  Connector: FailoverSafeSentinelConnector as unknown as NonNullable<RedisOptions['Connector']>,
  failoverDetector: true,
  reconnectOnError: (error) => (/^(READONLY|UNBLOCKED)/.test(error.message) ? 2 : false),
};

/** Creates an ioredis client for `role`; it connects at once unless `lazyConnect`. */
export function createRedisClient(options: RedisConnectionOptions, role: ConnectionRole, lazyConnect = false): Redis {
  validateConnectionOptions(options);
  // Workers must wait out a Redis restart rather than fail commands; producers fail after a few tries
  // so that an add during an outage reports an error to its caller instead of hanging forever.
  const base: RedisOptions = {
    ...options.redisOptions,
    lazyConnect,
    maxRetriesPerRequest: role === 'worker' ? null : (options.redisOptions?.maxRetriesPerRequest ?? 20),
  };
  if (options.url !== undefined) return new Redis(options.url, base);
  const { sentinels, name, sentinelPassword, tls } = options.sentinel as NonNullable<RedisConnectionOptions['sentinel']>;
  return new Redis({
    ...base,
    ...SENTINEL_FAILOVER,
    sentinels,
    name,
    sentinelPassword,
    ...(tls ? { enableTLSForSentinelMode: true, tls: base.tls ?? {} } : {}),
  });
}

/** The BullMQ key prefix, checked: letters, digits, '.', '_', '-' (default 'appset'). */
export function queuePrefix(prefix = 'appset'): string {
  if (!/^[A-Za-z0-9._-]+$/.test(prefix)) throw new TypeError(`queue prefix ${JSON.stringify(prefix)} may only contain letters, digits, '.', '_', '-'`);
  return prefix;
}

/** The URL with its password replaced, for error messages and logs. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
