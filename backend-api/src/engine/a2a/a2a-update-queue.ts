/**
 * An unbounded FIFO of updates read with `for await`: producers push without waiting, the reader takes them in
 * order; `close()` ends the iteration once what was pushed before it has been read.
 */
export class UpdateQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting: ((value: IteratorResult<T>) => void) | undefined;
  private closed = false;

  /** Adds an item (ignored after close). */
  push(item: T): void {
    if (this.closed) return;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting({ value: item, done: false });
    } else this.items.push(item);
  }

  /** Ends the iteration after the items already queued. */
  close(): void {
    this.closed = true;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        const item = this.items.shift();
        if (item !== undefined) return Promise.resolve({ value: item, done: false });
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
    };
  }
}
