import type { GeneratedApplication } from '../model/applicationset-types.js';

/** Default number of rendered Applications a replica keeps (about 1 KiB of heap each for bench:render's template). */
export const DEFAULT_RENDER_MEMO_SIZE = 10_000;

/** One remembered render: the frozen Application and the output characters its render charged to the budget. */
export interface RememberedRender {
  readonly application: GeneratedApplication;
  readonly chargedChars: number;
}

/**
 * The rendered Applications of parameter sets whose template and parameters were rendered before, so a
 * reconcile that changed one parameter set renders only that one. A render is a pure function of its key
 * (the template side and the parameter set, see render-applicationset.ts): the functions that read the
 * clock or a random source are refused. Least recently used entries go first once `size` is reached; a
 * size of 0 remembers nothing. Entries are deep-frozen, because every reconcile that hits one shares it:
 * a consumer that changed it in place would change the next reconcile's render (strict mode makes such a
 * write throw instead).
 */
export class RenderMemo {
  private readonly entries = new Map<string, RememberedRender>();
  private hitCount = 0;
  private missCount = 0;

  constructor(readonly size = DEFAULT_RENDER_MEMO_SIZE) {}

  /** The remembered render of `key`, marked as just used. */
  get(key: string): RememberedRender | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.missCount++;
      return undefined;
    }
    this.hitCount++;
    // Re-inserting moves the key to the end of the map's order: the first key is the least recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** Remembers a render, dropping the least recently used entries beyond the size; returns the frozen Application. */
  remember(key: string, application: GeneratedApplication, chargedChars: number): GeneratedApplication {
    if (this.size <= 0) return application;
    const frozen = deepFreeze(application);
    this.entries.delete(key);
    this.entries.set(key, { application: frozen, chargedChars });
    while (this.entries.size > this.size) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return frozen;
  }

  /** Renders remembered now. */
  get remembered(): number {
    return this.entries.size;
  }

  /** Lookups answered from memory, and lookups that rendered, since the memo was made. */
  get stats(): { readonly hits: number; readonly misses: number } {
    return { hits: this.hitCount, misses: this.missCount };
  }
}

/** Freezes `value` and everything it holds. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
