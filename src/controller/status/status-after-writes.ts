import type { Logger } from 'pino';
import { keyOf } from '../../model/object-key.js';
import type { ApplicationSetObject } from '../reconcile/applicationset.js';
import { isStaleStatusError, type ApplicationSetStatus, type StatusWriter } from './status-writer.js';

/** The replica's Application writes, as the status writes see them. */
export interface WriteActivity {
  /** True while Application writes are running or waiting for a slot. */
  readonly busy: boolean;
  /** Calls `listener` once, the next time no Application write runs or waits. */
  onceIdle(listener: () => void): void;
}

/**
 * Longest a reconcile's closing status waits for other reconciles' Application writes. Long enough for a wave of
 * several thousand Applications to go first (10,000 take 20-26 s at the API server's pace on the benchmark's
 * 2-core host), short enough that under endless write load every ApplicationSet still shows its state within
 * half a minute.
 */
export const MAX_STATUS_DELAY_MS = 30_000;

/** Settings of a {@link StatusAfterWrites}. */
export interface StatusAfterWritesOptions {
  readonly writer: StatusWriter;
  readonly activity: WriteActivity;
  /** A waiting status could not be written (not a conflict): the ApplicationSet must be reconciled again. */
  readonly onLost: (appset: ApplicationSetObject, error: unknown) => void;
  /** Default {@link MAX_STATUS_DELAY_MS}. */
  readonly maxDelayMs?: number;
}

interface Waiting {
  readonly appset: ApplicationSetObject;
  readonly status: ApplicationSetStatus;
  readonly log: Logger;
  readonly timer: NodeJS.Timeout;
}

/**
 * Writes the status a successful reconcile ends with, after the Application writes of the replica's other
 * reconciles. A status write is dear for the API server: an ApplicationSet with 100 Applications in
 * `status.resources` cost it 15-17 ms of CPU per write, about seven Application creates (2.3 ms; measured,
 * docs/benchmarks.md), so in a wave its statuses took the API server from Applications still waiting. When no
 * Application write runs or waits, the status is written at once and the reconcile waits for it, as before.
 * Otherwise it waits here (at most {@link MAX_STATUS_DELAY_MS}) and the reconcile ends without it; a newer status
 * of the same ApplicationSet replaces a waiting one. Every write still carries the resourceVersion the status was
 * computed from, so a late one never overwrites a newer ApplicationSet (the API server answers 409).
 */
export class StatusAfterWrites {
  private readonly waiting = new Map<string, Waiting>();
  /** Writes of waiting statuses under way, so that {@link flush} can wait for them too. */
  private readonly sending = new Set<Promise<void>>();
  private idleListenerSet = false;

  constructor(private readonly options: StatusAfterWritesOptions) {}

  /** Statuses waiting now (for tests and metrics). */
  get waitingCount(): number {
    return this.waiting.size;
  }

  /**
   * Writes `status` of `appset` now if no Application write is busy (a failure is then the caller's, as any
   * write of the reconcile), or leaves it waiting and resolves at once.
   */
  async write(appset: ApplicationSetObject, status: ApplicationSetStatus, log: Logger): Promise<void> {
    const key = keyOf(appset.metadata.namespace, appset.metadata.name);
    this.discard(key);
    if (!this.options.activity.busy) {
      await this.options.writer.write(appset.metadata, status);
      return;
    }
    // Unreferenced: a replica that stops writes what waits through flush(), and nothing else should keep it running.
    const timer = setTimeout(() => this.send(key), this.options.maxDelayMs ?? MAX_STATUS_DELAY_MS).unref();
    this.waiting.set(key, { appset, status, log, timer });
    log.debug('status waits for the Application writes of other reconciles');
    if (!this.idleListenerSet) {
      this.idleListenerSet = true;
      this.options.activity.onceIdle(() => {
        this.idleListenerSet = false;
        void this.flush();
      });
    }
  }

  /** Drops the status of `appset` that waits, if any: a later reconcile found another (or no write needed). */
  cancel(appset: ApplicationSetObject): void {
    this.discard(keyOf(appset.metadata.namespace, appset.metadata.name));
  }

  /** Writes every waiting status now (when the writes went idle, and when the replica stops); resolves once all are written. */
  async flush(): Promise<void> {
    for (const key of [...this.waiting.keys()]) this.send(key);
    await Promise.all([...this.sending]);
  }

  private discard(key: string): void {
    const earlier = this.waiting.get(key);
    if (!earlier) return;
    clearTimeout(earlier.timer);
    this.waiting.delete(key);
  }

  private send(key: string): void {
    const entry = this.waiting.get(key);
    if (!entry) return;
    this.discard(key);
    const sent = this.writeWaiting(entry).finally(() => this.sending.delete(sent));
    this.sending.add(sent);
  }

  private async writeWaiting(entry: Waiting): Promise<void> {
    try {
      await this.options.writer.write(entry.appset.metadata, entry.status);
    } catch (error) {
      if (isStaleStatusError(error)) {
        entry.log.debug({ code: error.status }, 'waiting status not written: the ApplicationSet changed or is gone');
        return;
      }
      entry.log.warn({ err: error }, 'could not write the status; the ApplicationSet is reconciled again');
      this.options.onLost(entry.appset, error);
    }
  }
}
