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
