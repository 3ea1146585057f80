/** Serialises work per key (one repository at a time) while different keys run in parallel. */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `work` once every earlier holder of `key` has finished; the lock is released even on error. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => current);
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** True while some holder or waiter exists for `key` (eviction must skip it). */
  isBusy(key: string): boolean {
    return this.tails.has(key);
  }
}
