// The benchmark's baseline: plain BullMQ on the same Redis, with the same job data and the same
// housekeeping (removeOnComplete/Fail) as the work queue, but none of its guarantees: no deduplication,
// no priorities, no backoff bookkeeping. The worker side runs in processes of its own
// (bench/queue-plain-worker.ts), recording runs exactly like test/queue/worker-process.ts does.
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';

/** The plain worker program, for WorkerProcesses. */
export const plainWorkerScript = fileURLToPath(new URL('./queue-plain-worker.js', import.meta.url));

/** A plain BullMQ producer with the work queue's `add(key)` shape: one job per add, no options but cleanup. */
export class PlainBullMqProducer {
  private readonly connection: Redis;
  private readonly queue: Queue;

  constructor(redisUrl: string, name: string) {
    this.connection = new Redis(redisUrl, { maxRetriesPerRequest: 20 });
    this.queue = new Queue(name, { connection: this.connection });
  }

  /** Adds one job for `key`. */
  async add(key: string): Promise<void> {
    await this.queue.add('key', { key, dueAt: Date.now() }, { removeOnComplete: true, removeOnFail: true });
  }

  /** Closes the queue and its connection. */
  async close(): Promise<void> {
    await this.queue.close();
    await this.connection.quit();
  }
}
