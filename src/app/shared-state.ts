import type { Logger } from 'pino';
import type { ControllerConfig } from '../config/controller-config.js';
import { redisConnectionOf } from '../config/redis-connection-config.js';
import { createLocalWatermarks, createRedisWatermarks, type Watermarks } from '../controller/consistency/watermarks.js';
import { createLocalFingerprints, createRedisFingerprints, type SharedFingerprints } from '../controller/consistency/input-fingerprints.js';
import { createLocalPushEpochs, createRedisPushEpochs, type PushEpochs } from '../git/push-epochs.js';
import { BullMqWorkQueue } from '../queue/bullmq-queue.js';
import { MemoryWorkQueue } from '../queue/memory-queue.js';
import { createRedisClient, type RedisConnectionOptions } from '../queue/redis-connection.js';
import type { WorkQueue } from '../queue/work-queue.js';

/** What the replicas of one installation share: the work queue, the cache watermarks, the push counters and the input fingerprints. */
export interface SharedState {
  readonly queue: WorkQueue;
  readonly watermarks: Watermarks;
  readonly pushEpochs: PushEpochs;
  /** Each ApplicationSet's last successful reconcile, for the resync to leave out what did not change. */
  readonly fingerprints: SharedFingerprints;
  /** Which queue runs: BullMQ on Redis, or the in-memory one of a single replica. */
  readonly kind: 'bullmq' | 'memory';
}

/**
 * The shared state on the queue's Redis (URL or Sentinels, with its password and TLS, read once), or in
 * memory without one. `keys` lists the ApplicationSets the queue's periodic full resync adds.
 */
export function createSharedState(config: ControllerConfig, queueName: string, keys: ResyncKeys, log: Logger): SharedState {
  const connection = redisConnectionOf(config);
  const queue = createQueue(config, connection, queueName, keys, log);
  if (!connection)
    return { queue, watermarks: createLocalWatermarks(), pushEpochs: createLocalPushEpochs(), fingerprints: createLocalFingerprints(), kind: 'memory' };
  const client = sharedStateClient(connection, log);
  return {
    queue,
    watermarks: createRedisWatermarks(client, `appset:${queueName}`),
    pushEpochs: createRedisPushEpochs(client, `appset:${queueName}`),
    fingerprints: createRedisFingerprints(client, `appset:${queueName}`),
    kind: 'bullmq',
  };
}

/** The keys a full resync adds (called by the replica that claimed the interval). */
export type ResyncKeys = () => Promise<Iterable<string>> | Iterable<string>;

/**
 * The Redis client of the watermarks and push counters, on the queue's connection (so a password or
 * Sentinels given for the queue apply here too); its failures surface on the commands, so connection
 * errors are only logged.
 */
function sharedStateClient(connection: RedisConnectionOptions, log: Logger): ReturnType<typeof createRedisClient> {
  const client = createRedisClient(connection, 'producer');
  client.on('error', (error: Error) => log.debug({ err: error }, 'redis connection error (watermarks, push counters)'));
  return client;
}

function createQueue(config: ControllerConfig, connection: RedisConnectionOptions | undefined, name: string, keys: ResyncKeys, log: Logger): WorkQueue {
  const common = { concurrency: config.concurrentReconciliations };
  if (!connection) return new MemoryWorkQueue(common);
  return new BullMqWorkQueue({ ...common, name, connection, resync: { intervalMs: config.resyncPeriodMs, keys }, logger: log });
}
