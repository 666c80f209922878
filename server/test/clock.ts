/** A clock a test moves by hand, injected where the server asks for the time (startTestServer's clocks). */
export class ManualClock {
  private at: number;

  constructor(start: Date = new Date()) {
    this.at = start.getTime();
  }

  /** The clock's time; pass `clock.now` where a `() => Date` is taken. */
  readonly now = (): Date => new Date(this.at);

  advance(ms: number): void {
    this.at += ms;
  }
}
