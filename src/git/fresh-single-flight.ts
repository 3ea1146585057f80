interface Slot<T> {
  /** The load in progress (or about to begin, see `begun`). */
  running?: Promise<T>;
  /** False until `running`'s load has actually begun: callers until then may share it. */
  begun?: boolean;
  /** The load that starts after `running`, shared by everyone who arrived while it ran. */
  next?: Promise<T>;
}

/**
 * Shares a load among concurrent callers of one key without ever handing a caller a result that
 * started before it called: a caller arriving while a load runs waits for the next load, which
 * serves everyone who arrived meanwhile. N concurrent callers cause at most two loads, and every
 * answer is at least as fresh as the call (a push seen by the caller is seen by its result).
 */
export class FreshSingleFlight<T> {
  private readonly slots = new Map<string, Slot<T>>();

  /** The result of a `load` for `key` that started no earlier than this call. */
  run(key: string, load: () => Promise<T>): Promise<T> {
    let slot = this.slots.get(key);
    if (!slot) {
      slot = {};
      this.slots.set(key, slot);
    }
    if (slot.next) return slot.next;
    const running = slot.running;
    if (!running) return this.start(key, slot, load);
    if (!slot.begun) return running;
    const own = slot;
    const next = running.then(noop, noop).then(() => {
      own.next = undefined;
      return this.start(key, own, load);
    });
    own.next = next;
    return next;
  }

  /** Keys with a load running or queued (for tests: nothing leaks). */
  get size(): number {
    return this.slots.size;
  }

  private start(key: string, slot: Slot<T>, load: () => Promise<T>): Promise<T> {
    // Begins on the next microtask, so callers in the same synchronous burst share it too.
    const running = Promise.resolve().then(() => {
      slot.begun = true;
      return load();
    });
    slot.running = running;
    slot.begun = false;
    const clear = (): void => {
      if (slot.running === running) slot.running = undefined;
      if (!slot.running && !slot.next && this.slots.get(key) === slot) this.slots.delete(key);
    };
    running.then(clear, clear);
    return running;
  }
}

function noop(): void {}
