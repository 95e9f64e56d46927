/** An in-memory map whose entries expire and whose size is capped (least recently used evicted first). */
export class BoundedExpiringCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAtMs: number }>();

  constructor(private readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1)
      throw new TypeError('BoundedExpiringCache: maxEntries must be a positive integer.');
  }

  /** Entries currently held, expired ones included until they are next touched or evicted. */
  get size(): number {
    return this.entries.size;
  }

  /** The live value under `key`, or `undefined`; an expired entry is dropped. */
  get(key: string, nowMs: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAtMs <= nowMs) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value` until `expiresAtMs`, evicting the least recently used entries beyond the cap. */
  set(key: string, value: V, expiresAtMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAtMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  /** Removes `key`. */
  delete(key: string): void {
    this.entries.delete(key);
  }
}
