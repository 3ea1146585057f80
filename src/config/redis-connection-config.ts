import { readFileSync } from 'node:fs';
import type { RedisOptions } from 'ioredis';
import type { RedisConnectionOptions } from '../queue/redis-connection.js';

/** The Redis settings of the controller, as {@link readControllerConfig} reads them. */
export interface RedisSettings {
  readonly redisUrl: string | undefined;
  readonly redisPassword: string | undefined;
  readonly redisSentinels: ReadonlyArray<{ readonly host: string; readonly port: number }>;
  readonly redisSentinelMaster: string | undefined;
  readonly redisSentinelPassword: string | undefined;
  readonly redisTls: boolean;
  readonly redisTlsCaFile: string | undefined;
}

/** Problems of a combination of Redis settings that each parsed alone (empty when they fit together). */
export function redisSettingProblems(s: RedisSettings): string[] {
  const problems: string[] = [];
  const sentinel = s.redisSentinels.length > 0;
  if (s.redisUrl && sentinel) problems.push('--redis-url and --redis-sentinels exclude each other: give one');
  if (sentinel && !s.redisSentinelMaster) problems.push('--redis-sentinels needs --redis-sentinel-master, the name of the master the Sentinels watch');
  if (!sentinel && (s.redisSentinelMaster || s.redisSentinelPassword))
    problems.push('--redis-sentinel-master and --redis-sentinel-password need --redis-sentinels');
  if (s.redisTls && !sentinel) problems.push('--redis-tls is for Sentinel mode; with --redis-url, use a rediss:// URL for TLS');
  const tls = s.redisTls || s.redisUrl?.startsWith('rediss:') === true;
  if (s.redisTlsCaFile && !tls) problems.push('--redis-tls-ca-file needs TLS: a rediss:// URL, or --redis-tls with Sentinels');
  if (s.redisPassword && !s.redisUrl && !sentinel) problems.push('--redis-password needs --redis-url or --redis-sentinels');
  return problems;
}

/** Whether the settings name a Redis, i.e. the shared BullMQ queue is used. */
export function usesRedis(s: RedisSettings): boolean {
  return s.redisUrl !== undefined || s.redisSentinels.length > 0;
}

/**
 * The queue's connection options from settings {@link redisSettingProblems} accepted, or undefined
 * without a Redis. Reads the CA file now, so a missing file fails at start with its path.
 */
export function redisConnectionOf(s: RedisSettings): RedisConnectionOptions | undefined {
  if (!usesRedis(s)) return undefined;
  const ca = s.redisTlsCaFile ? readCaFile(s.redisTlsCaFile) : undefined;
  const redisOptions = { ...(s.redisPassword ? { password: s.redisPassword } : {}), ...(ca ? { tls: { ca } } : {}) };
  if (s.redisUrl) return s.redisPassword ? withoutCredentials(s.redisUrl, redisOptions) : { url: s.redisUrl, redisOptions };
  return {
    sentinel: {
      sentinels: s.redisSentinels.map(({ host, port }) => ({ host, port })),
      name: s.redisSentinelMaster ?? '',
      ...(s.redisSentinelPassword ? { sentinelPassword: s.redisSentinelPassword } : {}),
      tls: s.redisTls,
    },
    redisOptions,
  };
}

/**
 * ioredis takes a URL's user and password over the options' ones (even an empty password when the URL
 * names only a user), so with --redis-password the credentials leave the URL and go into the options.
 */
function withoutCredentials(raw: string, redisOptions: RedisOptions): RedisConnectionOptions {
  const url = new URL(raw);
  const username = decodeURIComponent(url.username);
  url.username = '';
  url.password = '';
  return { url: url.href, redisOptions: { ...redisOptions, ...(username ? { username } : {}) } };
}

function readCaFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the Redis CA file ${file}: ${(error as Error).message}`, { cause: error });
  }
}
