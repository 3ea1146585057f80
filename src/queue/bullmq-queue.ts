import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { applicationSetLogger } from '../log/logger.js';
import { backoffDelayMs, DEFAULT_BACKOFF } from './backoff.js';
import { Queue, Worker, type Job } from './bullmq-classes.js';
import { BatchedHashDelete } from './batched-hash-delete.js';
import { addDelayedEarliestWins, JOB_NAME, jobOptions, type KeyJobData } from './bullmq-delayed-add.js';
import { assertValidDelay, assertValidKey, encodeKey } from './keys.js';
import { validateWorkQueueOptions } from './options.js';
import { QueueStats } from './queue-stats.js';
import { TenantLoad } from './tenant-load.js';
import { createRedisClient, queuePrefix, type RedisConnectionOptions } from './redis-connection.js';
import { WorkQueueClosedError, type WorkHandler, type WorkQueue, type WorkQueueCounters, type WorkQueueOptions } from './work-queue.js';

/** Options of the BullMQ work queue. */
export interface BullMqWorkQueueOptions extends WorkQueueOptions {
  /** Queue name, shared by every replica: letters, digits, '.', '_', '-'. */
  name: string;
  connection: RedisConnectionOptions;
  /** Redis key prefix (default 'appset'). */
  prefix?: string;
  /**
   * How long a worker's lock on a running key lasts without renewal (default 30 s). A key held by a
   * dead replica runs again within lockDurationMs + 2 × stalledIntervalMs.
   */
  lockDurationMs?: number;
  /** How often each worker looks for keys whose lock expired (default 30 s). */
  stalledIntervalMs?: number;
  /**
   * Safety net: every `intervalMs` one replica of the installation adds every key `keys()` returns (e.g.
   * after Redis lost its data). Replicas claim each interval in Redis, so N replicas cost one resync, not N.
   */
  resync?: { intervalMs: number; keys: () => Promise<Iterable<string>> | Iterable<string> };
  logger?: Logger;
  /** Half-life of a tenant's recorded load, which sets its keys' priority (default 10 s; see TenantLoad). */
  fairShareHalfLifeMs?: number;
  /** Fair sharing between tenants (default on); off gives every key the same priority, plain FIFO (for benchmarks). */
  fairShare?: boolean;
}

/** The WorkQueue shared by replicas through BullMQ on Redis. */
export class BullMqWorkQueue implements WorkQueue {
  private readonly queue: Queue;
  private readonly producer: Redis;
  private readonly delayedQueue: Queue;
  private readonly clients: Redis[] = [];
  private readonly stats = new QueueStats();
  /** Per-tenant demand, turned into job priorities so a busy tenant cannot starve a quiet one. */
  private readonly load: TenantLoad;
  /** Running handlers by BullMQ job id, so a lost lock or a drain timeout can abort them. */
  private readonly running = new Map<string, { key: string; controller: AbortController }>();
  private readonly backoff: { baseMs: number; maxMs: number };
  private readonly log: Logger;
  private readonly prefix: string;
  /** Backoff resets, one HDEL per batch of successful runs instead of one per run. */
  private readonly backoffResets: BatchedHashDelete;
  /** Names this replica in the resync claim (for whoever inspects Redis). */
  private readonly replicaId = `${hostname()}/${process.pid}/${randomBytes(4).toString('hex')}`;
  private worker: Worker<KeyJobData> | undefined;
  private resyncTimer: NodeJS.Timeout | undefined;
  private resyncing = false;
  private delayedChain: Promise<unknown> = Promise.resolve();
  /** Set when close() begins: no new keys are taken, but draining handlers may still add and forget. */
  private closing = false;
  /** Set once running handlers are drained: adds are refused from then on. */
  private closed = false;

  constructor(private readonly options: BullMqWorkQueueOptions) {
    if (!/^[A-Za-z0-9._-]+$/.test(options.name))
      throw new TypeError(`queue name ${JSON.stringify(options.name)} may only contain letters, digits, '.', '_', '-'`);
    validateWorkQueueOptions(options);
    for (const [option, value] of [
      ['lockDurationMs', options.lockDurationMs],
      ['stalledIntervalMs', options.stalledIntervalMs],
      ['resync.intervalMs', options.resync?.intervalMs],
    ] as const) {
      if (value !== undefined && !(Number.isFinite(value) && value > 0)) throw new RangeError(`${option} must be a finite number of ms > 0, got ${value}`);
    }
    this.prefix = queuePrefix(options.prefix);
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.load = new TenantLoad(options.fairShareHalfLifeMs);
    this.log = (options.logger ?? pino({ level: 'silent' })).child({ queue: options.name });
    this.producer = this.client('producer');
    this.backoffResets = new BatchedHashDelete(this.producer, this.backoffKey());
    this.queue = new Queue(options.name, { connection: this.producer, prefix: this.prefix });
    // Delayed adds use WATCH, which is per connection: they get a connection and a queue of their own.
    this.delayedQueue = new Queue(options.name, { connection: this.client('producer'), prefix: this.prefix });
    for (const queue of [this.queue, this.delayedQueue]) queue.on('error', (error) => this.log.warn({ err: error }, 'redis error (producer)'));
  }

  /** {@inheritDoc WorkQueue.add} */
  async add(key: string): Promise<void> {
    assertValidKey(key);
    this.assertOpen('add');
    this.stats.countAdd();
    // One atomic script: `replace` drops a pending delayed job, keep-last queues a run after an active one.
    await this.queue.add(JOB_NAME, { key, dueAt: Date.now() }, jobOptions(key, 0, this.priorityFor(key)));
  }

  /** {@inheritDoc WorkQueue.addAfter} */
  async addAfter(key: string, delayMs: number): Promise<void> {
    assertValidKey(key);
    assertValidDelay(delayMs);
    this.assertOpen('addAfter');
    if (delayMs <= 0) return this.add(key);
    this.stats.countAdd();
    await this.addDelayed(key, delayMs);
  }

  /** {@inheritDoc WorkQueue.addRateLimited} */
  async addRateLimited(key: string): Promise<void> {
    assertValidKey(key);
    this.assertOpen('addRateLimited');
    this.stats.countAdd();
    this.stats.countRetry();
    const failures = await this.producer.hincrby(this.backoffKey(), encodeKey(key), 1);
    await this.addDelayed(key, backoffDelayMs(failures, this.backoff));
  }

  /** {@inheritDoc WorkQueue.forget} */
  async forget(key: string): Promise<void> {
    assertValidKey(key);
    this.assertOpen('forget');
    await this.backoffResets.delete(encodeKey(key));
  }

  /** {@inheritDoc WorkQueue.process} */
  process(handler: WorkHandler): void {
    if (this.worker) throw new Error('process() was called already; one handler per queue');
    this.assertOpen('process');
    const worker = new Worker<KeyJobData>(this.options.name, (job, _token, signal) => this.run(job, handler, signal), {
      connection: this.client('worker'),
      prefix: this.prefix,
      concurrency: this.options.concurrency ?? 1,
      lockDuration: this.options.lockDurationMs ?? 30_000,
      stalledInterval: this.options.stalledIntervalMs ?? 30_000,
      // A key that stalls again and again must keep running elsewhere, never end up "failed" and lost.
      maxStalledCount: Number.MAX_SAFE_INTEGER,
      ...(this.options.rateLimit ? { limiter: { max: this.options.rateLimit.max, duration: this.options.rateLimit.durationMs } } : {}),
    });
    worker.on('error', (error) => this.log.warn({ err: error }, 'worker error'));
    worker.on('lockRenewalFailed', (jobIds: string[]) => this.abortLostLocks(jobIds));
    this.worker = worker;
    this.startResync();
  }

  /** {@inheritDoc WorkQueue.close} */
  async close(timeoutMs = 30_000): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearInterval(this.resyncTimer);
    const worker = this.worker;
    if (worker) {
      const drained = worker.close().then(() => 'drained' as const);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
      const outcome = await Promise.race([drained, timedOut]);
      clearTimeout(timer);
      if (outcome === 'timeout') {
        for (const { controller } of this.running.values()) controller.abort(new Error(`work queue closed: drain timed out after ${timeoutMs} ms`));
        await worker.close(true);
      }
    }
    this.closed = true;
    await Promise.allSettled([this.delayedChain, this.queue.close(), this.delayedQueue.close()]);
    await Promise.allSettled(this.clients.map((client) => client.quit()));
    for (const client of this.clients) client.disconnect();
  }

  /** {@inheritDoc WorkQueue.depth} */
  async depth(): Promise<number> {
    const counts = await this.queue.getJobCounts('wait', 'prioritized');
    return Object.values(counts).reduce((sum, count) => sum + count, 0);
  }

  /** {@inheritDoc WorkQueue.counters} */
  counters(): WorkQueueCounters {
    return this.stats.counters();
  }

  /** {@inheritDoc WorkQueue.takeLatencySamples} */
  takeLatencySamples(): number[] {
    return this.stats.takeLatencySamples();
  }

  /** The key's fair-share priority: its tenant's load as this replica sees it. */
  private priorityFor(key: string): number {
    return this.options.fairShare === false ? 1 : this.load.priorityForAdd(key);
  }

  private client(role: 'producer' | 'worker'): Redis {
    const client = createRedisClient(this.options.connection, role);
    client.on('error', (error: Error) => this.log.debug({ err: error }, `redis connection error (${role})`));
    this.clients.push(client);
    return client;
  }

  private assertOpen(operation: string): void {
    if (this.closed) throw new WorkQueueClosedError(operation);
  }

  private backoffKey(): string {
    return `${this.prefix}:${this.options.name}:appset-backoff`;
  }

  /** Runs delayed adds one at a time on their own connection (WATCH needs that). */
  private addDelayed(key: string, delayMs: number): Promise<void> {
    const data: KeyJobData = { key, dueAt: Date.now() + delayMs };
    const priority = this.priorityFor(key);
    const next = this.delayedChain.then(() => addDelayedEarliestWins(this.delayedQueue, data, delayMs, priority));
    this.delayedChain = next.catch(() => undefined);
    return next;
  }

  private async run(job: Job<KeyJobData>, handler: WorkHandler, bullSignal: AbortSignal | undefined): Promise<void> {
    const { key, dueAt } = job.data;
    const jobId = job.id ?? '';
    const controller = new AbortController();
    bullSignal?.addEventListener('abort', () => controller.abort(bullSignal.reason), { once: true });
    this.running.set(jobId, { key, controller });
    this.stats.countRun(Date.now() - dueAt);
    // At trace level every run's start and end is logged, so tests can prove across processes that no key ran twice at once.
    this.log.trace({ key, jobId }, 'key run started');
    try {
      await handler(key, controller.signal);
      this.log.trace({ key, jobId }, 'key run ended');
    } catch (error) {
      this.log.trace({ key, jobId }, 'key run ended');
      this.stats.countFailure();
      // The handler logged the failure itself (once, with its reason): here only the retry is worth a line.
      applicationSetLogger(this.log, key).debug({ reason: error instanceof Error ? error.message : String(error) }, 'handler failed; retrying with backoff');
      this.running.delete(jobId);
      await this.addRateLimited(key);
      return;
    }
    this.running.delete(jobId);
    await this.forget(key);
  }

  /** A worker that cannot renew its lock may see its key run elsewhere: tell the handler to stop. */
  private abortLostLocks(jobIds: string[]): void {
    for (const jobId of jobIds) {
      const running = this.running.get(jobId);
      if (!running) continue;
      applicationSetLogger(this.log, running.key).warn({ jobId }, 'lost the queue lock of a running key; aborting its handler');
      running.controller.abort(new Error('lost the queue lock of this key'));
    }
  }

  /**
   * Claims this interval's resync for this replica. The claim lasts 90% of the interval, so the next tick of
   * the replica that won finds it expired and wins again; another replica takes over within two intervals
   * of the winner's death. Without Redis the claim fails and so does the resync, which adds through Redis.
   */
  private async claimResync(): Promise<boolean> {
    const intervalMs = this.options.resync?.intervalMs ?? 0;
    const claimMs = Math.max(1, Math.floor(intervalMs * 0.9));
    return (await this.producer.set(this.resyncClaimKey(), this.replicaId, 'PX', claimMs, 'NX')) === 'OK';
  }

  private resyncClaimKey(): string {
    return `${this.prefix}:${this.options.name}:resync-claim`;
  }

  private startResync(): void {
    const resync = this.options.resync;
    if (!resync) return;
    this.resyncTimer = setInterval(() => void this.resyncOnce(resync.keys), resync.intervalMs);
    this.resyncTimer.unref();
  }

  private async resyncOnce(keys: () => Promise<Iterable<string>> | Iterable<string>): Promise<void> {
    // keys() may take a while (the controller looks at each key first): one resync at a time.
    if (this.resyncing) return;
    this.resyncing = true;
    try {
      if (!(await this.claimResync())) return;
      for (const key of await keys()) {
        if (this.closing) return;
        await this.add(key);
      }
    } catch (error) {
      this.log.warn({ err: error }, 'resync failed; next interval tries again');
    } finally {
      this.resyncing = false;
    }
  }
}
