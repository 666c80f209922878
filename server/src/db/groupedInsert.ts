/**
 * Inserts from concurrent requests joined into fewer statements (group commit): while one insert
 * runs, the rows other requests add wait for it and then go together in the next, and each caller
 * is answered once its own rows are stored. Nothing waits when nothing runs, so a lone request
 * pays no delay; under load the statements per request fall with the number of requests at once.
 * A failed insert fails every caller whose rows it carried (each answers its request with an
 * error, as a failed insert of its own would).
 */
export class GroupedInsert<Row> {
  private waiting: { rows: Row[]; callers: { resolve: () => void; reject: (error: unknown) => void }[] } | null = null;
  private running = false;

  /** `insert`: stores the rows given, in statements of the size it chooses. */
  constructor(private readonly insert: (rows: readonly Row[]) => Promise<void>) {}

  add(rows: readonly Row[]): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiting ??= { rows: [], callers: [] };
      this.waiting.rows.push(...rows);
      this.waiting.callers.push({ resolve, reject });
      if (!this.running) void this.run();
    });
  }

  private async run(): Promise<void> {
    this.running = true;
    while (this.waiting) {
      const group = this.waiting;
      this.waiting = null;
      try {
        await this.insert(group.rows);
        for (const caller of group.callers) caller.resolve();
      } catch (error) {
        for (const caller of group.callers) caller.reject(error);
      }
    }
    this.running = false;
  }
}
