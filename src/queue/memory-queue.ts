import { backoffDelayMs, DEFAULT_BACKOFF } from './backoff.js';
import { FairReadyKeys } from './fair-ready-keys.js';
import { assertValidDelay, assertValidKey } from './keys.js';
import { validateWorkQueueOptions } from './options.js';
import { QueueStats } from './queue-stats.js';
import { SlidingWindowLimiter } from './rate-limiter.js';
import { WorkQueueClosedError, type WorkHandler, type WorkQueue, type WorkQueueCounters, type WorkQueueOptions } from './work-queue.js';

interface DelayedEntry {
  dueAt: number;
  timer: NodeJS.Timeout;
}

/**
 * The single-process WorkQueue: the same guarantees as the BullMQ one, with all state in this process
 * (it is lost when the process ends). For one replica or a laptop run.
 */
export class MemoryWorkQueue implements WorkQueue {
  /** Keys due now with the time they became due: FIFO per tenant, round-robin across tenants (fair sharing). */
  private readonly ready = new FairReadyKeys();
  private readonly running = new Map<string, AbortController>();
  /** Keys added while running: they run once more afterwards. */
  private readonly dirty = new Map<string, number>();
  private readonly delayed = new Map<string, DelayedEntry>();
  private readonly failures = new Map<string, number>();
  private readonly stats = new QueueStats();
  private readonly limiter: SlidingWindowLimiter | undefined;
  private readonly concurrency: number;
  private readonly backoff: { baseMs: number; maxMs: number };
  private handler: WorkHandler | undefined;
  private pumpTimer: NodeJS.Timeout | undefined;
  private closing = false;
  private closed = false;
  private idle: (() => void) | undefined;

  constructor(options: WorkQueueOptions = {}) {
    validateWorkQueueOptions(options);
    this.concurrency = options.concurrency ?? 1;
    this.limiter = options.rateLimit ? new SlidingWindowLimiter(options.rateLimit.max, options.rateLimit.durationMs) : undefined;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
  }

  /** {@inheritDoc WorkQueue.add} */
  add(key: string): Promise<void> {
    assertValidKey(key);
    this.assertOpen('add');
    this.stats.countAdd();
    this.enqueueNow(key, performance.now());
    return Promise.resolve();
  }

  /** {@inheritDoc WorkQueue.addAfter} */
  addAfter(key: string, delayMs: number): Promise<void> {
    assertValidKey(key);
    assertValidDelay(delayMs);
    this.assertOpen('addAfter');
    this.stats.countAdd();
    this.schedule(key, delayMs);
    return Promise.resolve();
  }

  /** {@inheritDoc WorkQueue.addRateLimited} */
  addRateLimited(key: string): Promise<void> {
    assertValidKey(key);
    this.assertOpen('addRateLimited');
    const failures = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, failures);
    this.stats.countAdd();
    this.stats.countRetry();
    this.schedule(key, backoffDelayMs(failures, this.backoff));
    return Promise.resolve();
  }

  /** {@inheritDoc WorkQueue.forget} */
  forget(key: string): Promise<void> {
    assertValidKey(key);
    this.failures.delete(key);
    return Promise.resolve();
  }

  /** {@inheritDoc WorkQueue.process} */
  process(handler: WorkHandler): void {
    if (this.handler) throw new Error('process() was called already; one handler per queue');
    this.assertOpen('process');
    this.handler = handler;
    this.pump();
  }

  /** {@inheritDoc WorkQueue.close} */
  async close(timeoutMs = 30_000): Promise<void> {
    if (this.closed) return;
    this.closing = true;
    clearTimeout(this.pumpTimer);
    for (const entry of this.delayed.values()) clearTimeout(entry.timer);
    this.delayed.clear();
    if (this.running.size > 0) {
      const drained = new Promise<void>((resolve) => (this.idle = resolve));
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
      const outcome = await Promise.race([drained, timedOut]);
      clearTimeout(timer);
      if (outcome === 'timeout')
        for (const controller of this.running.values()) controller.abort(new Error(`work queue closed: drain timed out after ${timeoutMs} ms`));
    }
    this.closed = true;
  }

  /** {@inheritDoc WorkQueue.depth} */
  depth(): Promise<number> {
    return Promise.resolve(this.ready.size);
  }

  /** {@inheritDoc WorkQueue.counters} */
  counters(): WorkQueueCounters {
    return this.stats.counters();
  }

  /** {@inheritDoc WorkQueue.takeLatencySamples} */
  takeLatencySamples(): number[] {
    return this.stats.takeLatencySamples();
  }

  private assertOpen(operation: string): void {
    if (this.closed) throw new WorkQueueClosedError(operation);
  }

  /** Makes `key` due now; an immediate run subsumes a pending delayed one (guarantee 4). */
  private enqueueNow(key: string, dueAt: number): void {
    const delayed = this.delayed.get(key);
    if (delayed) {
      clearTimeout(delayed.timer);
      this.delayed.delete(key);
    }
    if (this.running.has(key)) {
      if (!this.dirty.has(key)) this.dirty.set(key, dueAt); // guarantee 3: run once more afterwards
      return;
    }
    this.ready.add(key, dueAt); // guarantee 2: adds of a waiting key collapse
    this.pump();
  }

  /** Schedules `key` after `delayMs` unless it is due sooner already (earliest time wins). */
  private schedule(key: string, delayMs: number): void {
    if (delayMs <= 0) return this.enqueueNow(key, performance.now());
    if (this.ready.has(key) || this.dirty.has(key) || this.closing) return;
    const dueAt = performance.now() + delayMs;
    const pending = this.delayed.get(key);
    if (pending && pending.dueAt <= dueAt) return;
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      this.delayed.delete(key);
      this.enqueueNow(key, dueAt);
    }, delayMs);
    this.delayed.set(key, { dueAt, timer });
  }

  /** Starts runs while there are free slots, due keys and rate-limit budget. */
  private pump(): void {
    const handler = this.handler;
    if (!handler || this.closing) return;
    while (this.running.size < this.concurrency && this.ready.size > 0) {
      const wait = this.limiter?.tryAcquire() ?? 0;
      if (wait > 0) {
        clearTimeout(this.pumpTimer);
        this.pumpTimer = setTimeout(() => this.pump(), wait);
        return;
      }
      const [key, dueAt] = this.ready.take() ?? [];
      if (key === undefined || dueAt === undefined) return;
      void this.run(key, dueAt, handler);
    }
  }

  private async run(key: string, dueAt: number, handler: WorkHandler): Promise<void> {
    const controller = new AbortController();
    this.running.set(key, controller);
    this.stats.countRun(performance.now() - dueAt);
    let failed = false;
    try {
      await handler(key, controller.signal);
    } catch {
      failed = true;
    }
    if (failed) {
      this.stats.countFailure();
      if (!this.closed) await this.addRateLimited(key);
    } else {
      this.failures.delete(key);
    }
    this.finish(key);
  }

  private finish(key: string): void {
    this.running.delete(key);
    const dirtySince = this.dirty.get(key);
    if (dirtySince !== undefined) {
      this.dirty.delete(key);
      this.ready.add(key, dirtySince);
    }
    if (this.running.size === 0) this.idle?.();
    this.pump();
  }
}
