/** Reads the counter a webhook advances for a key (see PushEpochs); throws when it cannot be read. */
export type EventCounter = (key: string) => Promise<number>;

interface Entry {
  readonly epoch: number;
  /** When the load began: an answer is reused for `reuseMs` from then, not from when it ended. */
  readonly startedAt: number;
  readonly answer: Promise<unknown>;
  settled: boolean;
}

/** How answers are shared. */
export interface SharedAnswersOptions {
  /** How long an answer is reused (bounded: the generators' requeue and webhooks decide freshness). */
  readonly reuseMs: number;
  /** Most answers kept; the oldest go first. */
  readonly maxEntries?: number;
  /** Most answers kept by {@link SharedAnswers.remember}; the least recently asked go first. */
  readonly maxRemembered?: number;
  readonly now?: () => number;
}

/**
 * One answer per question at a time: callers asking while a load runs share it (single flight), and a
 * finished answer is reused for `reuseMs`, unless the question's event counter moved since the load
 * began (a webhook said the answer changed), on whichever replica the webhook arrived. Failed loads are
 * never reused.
 */
export class SharedAnswers {
  private readonly entries = new Map<string, Entry>();
  private readonly remembered = new Map<string, Promise<unknown>>();

  constructor(
    private readonly counter: EventCounter,
    private readonly options: SharedAnswersOptions,
  ) {}

  /** The shared answer to `question`, loading it when none may be reused. */
  async get<T>(question: string, eventKey: string, load: () => Promise<T>): Promise<T> {
    // An unreadable counter means no reuse: the answer is fetched, never served stale.
    const epoch = await this.counter(eventKey).catch(() => Number.NaN);
    const now = (this.options.now ?? Date.now)();
    const entry = this.entries.get(question);
    if (entry && entry.epoch === epoch && (!entry.settled || now - entry.startedAt < this.options.reuseMs)) return entry.answer as Promise<T>;
    const fresh: Entry = { epoch, startedAt: now, answer: load(), settled: false };
    this.entries.delete(question);
    this.entries.set(question, fresh);
    this.trim();
    fresh.answer.then(
      () => (fresh.settled = true),
      () => {
        if (this.entries.get(question) === fresh) this.entries.delete(question);
      },
    );
    return fresh.answer as Promise<T>;
  }

  /** An answer that never changes for its question: loaded once (single flight), then kept while asked. */
  remember<T>(question: string, load: () => Promise<T>): Promise<T> {
    const held = this.remembered.get(question);
    if (held) {
      this.remembered.delete(question);
      this.remembered.set(question, held);
      return held as Promise<T>;
    }
    const answer = load();
    this.remembered.set(question, answer);
    answer.catch(() => this.remembered.get(question) === answer && this.remembered.delete(question));
    const max = this.options.maxRemembered ?? 100_000;
    for (const key of this.remembered.keys()) {
      if (this.remembered.size <= max) break;
      this.remembered.delete(key);
    }
    return answer;
  }

  /** Number of answers held (for tests). */
  get size(): number {
    return this.entries.size;
  }

  private trim(): void {
    const max = this.options.maxEntries ?? 10_000;
    for (const key of this.entries.keys()) {
      if (this.entries.size <= max) return;
      this.entries.delete(key);
    }
  }
}
