/**
 * Holds one sender number to its messages-per-second limit (GCRA, the token bucket as a
 * schedule): each send reserves the next slot, so many concurrent senders queue fairly without
 * polling. `burst` sends may go at once after a quiet spell; then one every 1/rate seconds.
 */
export class TokenBucket {
  private theoreticalArrival = 0;

  constructor(
    private ratePerSecond: number,
    private burst = Math.max(1, Math.ceil(ratePerSecond / 5)),
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** The rate the bucket holds its number to now (messages a second). */
  get rate(): number {
    return this.ratePerSecond;
  }

  setRate(ratePerSecond: number): void {
    if (ratePerSecond === this.ratePerSecond) return;
    this.ratePerSecond = ratePerSecond;
    this.burst = Math.max(1, Math.ceil(ratePerSecond / 5));
  }

  /** Milliseconds the caller must wait before sending; the slot is reserved at once. */
  reserve(): number {
    const interval = 1000 / this.ratePerSecond;
    const now = this.clock();
    const tolerance = (this.burst - 1) * interval;
    const arrival = Math.max(this.theoreticalArrival, now);
    const wait = Math.max(0, arrival - tolerance - now);
    this.theoreticalArrival = arrival + interval;
    return wait;
  }

  /** After the provider said "too fast": nobody sends for this long. */
  pause(ms: number): void {
    this.theoreticalArrival = Math.max(this.theoreticalArrival, this.clock() + ms);
  }

  async take(): Promise<void> {
    const wait = this.reserve();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
