/**
 * How many sends of one sender number may wait for the provider's answer at once, on this
 * instance. A provider that stops answering holds every send in flight until its timeout, and each
 * of those becomes `unknown`: the provider may have taken it, so it waits out the settle window (ten
 * minutes by default) before it can go again. Without a window every worker's batch kept sending
 * into the silence, up to DISPATCH_WORKERS × DISPATCH_CONCURRENCY sends (256 by default) a timeout.
 *
 * The window is TCP's congestion window for answers: it starts fully open, halves when a send goes
 * unanswered, and opens by one for every answer. It halves at most once per round of sends: a send
 * that started before the last halving says nothing new, or a single silent spell would close it
 * at once. A provider that has gone quiet is thus probed by fewer and fewer sends, down to one at a
 * time, and one that answers again opens it within a few rounds of answers. A provider that leaves
 * a few sends unanswered among many answers keeps it open: the answers open it faster than the
 * silences close it.
 */
export type SendOutcome = 'answered' | 'unanswered' | 'not-sent';

export class SendWindow {
  private limit: number;
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private lastHalvedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly max: number,
    /** Told each time the window changes by halving, or opens fully again after it. */
    private readonly onChange: (size: number, max: number) => void = () => undefined,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.limit = max;
  }

  /** Sends allowed in flight now. */
  get size(): number {
    return this.limit;
  }

  /** Waits for a place in the window; answers when the send started (for `release`). */
  async acquire(): Promise<number> {
    if (this.waiting.length === 0 && this.inFlight < this.limit) {
      this.inFlight += 1;
      return this.clock();
    }
    // The place is counted by the release that hands it over.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    return this.clock();
  }

  /** The send that started at `startedAt` is over: answered, unanswered, or never sent at all. */
  release(startedAt: number, outcome: SendOutcome): void {
    this.inFlight -= 1;
    if (outcome === 'answered' && this.limit < this.max) {
      this.limit += 1;
      if (this.limit === this.max) this.onChange(this.limit, this.max);
    } else if (outcome === 'unanswered' && startedAt >= this.lastHalvedAt) {
      this.lastHalvedAt = this.clock();
      const halved = Math.max(1, Math.floor(this.limit / 2));
      if (halved !== this.limit) {
        this.limit = halved;
        this.onChange(this.limit, this.max);
      }
    }
    while (this.waiting.length > 0 && this.inFlight < this.limit) {
      this.inFlight += 1;
      (this.waiting.shift() as () => void)();
    }
  }
}
