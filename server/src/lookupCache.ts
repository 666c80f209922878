/**
 * Lookups kept for a few seconds by key: whoever asks for a key meanwhile shares the first
 * answer, or the read under way. For reads asked in bursts whose answer rarely changes (the public
 * API's template and sender number, the simulator's template per send), where a few seconds'
 * delay before a change shows is acceptable. A failed lookup, or one that found nothing (null),
 * is not kept: the next asker reads again.
 */
export class LookupCache {
  private readonly entries = new Map<string, { at: number; value: Promise<unknown> }>();

  constructor(private readonly options: { ttlMs: number; maxEntries: number; now?: () => number }) {}

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const now = this.options.now?.() ?? Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.options.ttlMs) return hit.value as Promise<T>;
    const value = load();
    const entry = { at: now, value };
    this.entries.delete(key);
    this.entries.set(key, entry);
    // Only this entry: a newer read of the key may have replaced it meanwhile.
    const forget = () => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    };
    value.then((found) => found === null && forget(), forget);
    if (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }
}

/**
 * Reads of the same key that overlap share the one under way, and nothing is kept once it
 * settles: whoever asks after it ended reads afresh. For reads that must reflect every committed
 * change (webhook signing secrets) but are asked many times at once under load: an overlapping
 * asker sees the database as of a read that started at most one read's duration before it asked.
 */
export class SharedReads {
  private readonly underWay = new Map<string, Promise<unknown>>();

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const running = this.underWay.get(key);
    if (running) return running as Promise<T>;
    const value = load();
    this.underWay.set(key, value);
    const forget = () => {
      if (this.underWay.get(key) === value) this.underWay.delete(key);
    };
    value.then(forget, forget);
    return value;
  }
}
