/** One reconcile's writes waiting in a {@link WritePool}. */
interface Lane {
  readonly writes: ReadonlyArray<() => Promise<void>>;
  /** The first of {@link writes} not started yet (an index, not shift: no copy and no runtime call per write). */
  next: number;
  running: number;
  readonly done: () => void;
}

/** Writes every reconcile gets before slots go to the oldest: a small reconcile always makes progress. */
export const GUARANTEED_PER_RECONCILE = 2;

/**
 * The Application writes a replica keeps in flight, shared by all its reconciles. A fixed number of
 * writes per reconcile leaves the API server underused whenever some reconciles are generating or
 * waiting for their last few writes; one budget for the replica keeps it busy while any reconcile
 * has writes left. A free slot goes to the oldest reconcile with writes waiting, so reconciles finish
 * one after another and the next ones generate while the pool is still busy (an even share made them
 * all finish at once, and the pool ran dry while their successors generated). No reconcile holds more
 * than half the pool, and each gets its first {@link GUARANTEED_PER_RECONCILE} slots before any other
 * reconcile gets more, so large reconciles never keep a small one waiting for more than a write.
 */
export class WritePool {
  private readonly lanes: Lane[] = [];
  private inFlight = 0;
  private idleListeners: Array<() => void> = [];

  /** Writes one reconcile may have running at once. */
  private readonly perReconcile: number;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`write pool capacity must be a positive integer, got ${capacity}`);
    this.perReconcile = Math.max(1, Math.floor(capacity / 2));
  }

  /** Runs one reconcile's writes (each must not throw) and resolves once all of them finished; `writes` must not change meanwhile. */
  run(writes: ReadonlyArray<() => Promise<void>>): Promise<void> {
    if (writes.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.lanes.push({ writes, next: 0, running: 0, done: resolve });
      this.pump();
    });
  }

  /** Writes running now, across every reconcile. */
  get running(): number {
    return this.inFlight;
  }

  /** True while any reconcile has writes running or waiting. */
  get busy(): boolean {
    return this.lanes.length > 0;
  }

  /** Calls `listener` once, as soon as no write runs or waits (in a microtask if none does now). */
  onceIdle(listener: () => void): void {
    if (this.busy) this.idleListeners.push(listener);
    else queueMicrotask(listener);
  }

  private pump(): void {
    while (this.inFlight < this.capacity) {
      const lane = this.oldestLaneBelow(GUARANTEED_PER_RECONCILE) ?? this.oldestLaneBelow(this.perReconcile);
      if (!lane) return;
      const write = lane.writes[lane.next++] as () => Promise<void>;
      lane.running++;
      this.inFlight++;
      void write()
        .catch(() => undefined) // writes report their own failures; this only keeps the pool going
        .finally(() => this.finished(lane));
    }
  }

  private finished(lane: Lane): void {
    lane.running--;
    this.inFlight--;
    if (lane.running === 0 && lane.next === lane.writes.length) {
      this.lanes.splice(this.lanes.indexOf(lane), 1);
      lane.done();
    }
    this.pump();
    if (!this.busy && this.idleListeners.length > 0) {
      const listeners = this.idleListeners;
      this.idleListeners = [];
      for (const listener of listeners) listener();
    }
  }

  /** The oldest lane (lanes are kept in arrival order) with a write waiting and fewer than `running` running. */
  private oldestLaneBelow(running: number): Lane | undefined {
    return this.lanes.find((lane) => lane.next < lane.writes.length && lane.running < running);
  }
}
