/**
 * A first-in, first-out queue whose {@link shift} takes constant time. `Array.prototype.shift` on an array
 * of more than about a hundred elements leaves V8's fast path for a runtime call, and the transport's queue
 * of requests waiting for a connection holds 100-200 of them in a converge (perf, session 37).
 */
export class Fifo<T> {
  private items: Array<T | undefined> = [];
  private head = 0;

  /** Items waiting. */
  get length(): number {
    return this.items.length - this.head;
  }

  /** Adds `item` at the back. */
  push(item: T): void {
    this.items.push(item);
  }

  /** Takes the item at the front, or undefined when there is none. */
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined; // the queue must not keep a taken item alive
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 64 && this.head * 2 >= this.items.length) {
      // Drop the taken front once it is half the array, so a queue that never empties stays in proportion.
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Removes the first occurrence of `item` (a cancelled request); false if it is not waiting. */
  remove(item: T): boolean {
    const at = this.items.indexOf(item, this.head);
    if (at < 0) return false;
    this.items.splice(at, 1);
    return true;
  }
}
