/**
 * Keeps the leases of an instance's batches in flight alive: one renewal at a time for all of
 * them, a third of a lease apart.
 *
 * Each batch used to renew its own rows on its own timer, whether or not its last renewal had
 * come back. On a loaded machine (three instances beside busy loops and the unit suite, pool of
 * five), a statement waited longer than a third of a lease for a connection, so renewals queued
 * behind renewals: hundreds of acquires were pending in each instance's pool, claims, handoffs
 * and result writes waited behind them, and handed sends whose lease lapsed meanwhile were moved
 * to `unknown` by the sweep, to wait out the settle window (ten minutes in production) though no
 * provider had them. Now an instance has at most one renewal in flight, and it renews every batch.
 */
/** Renewals per lease period while batches are in flight. */
export const RENEWALS_PER_LEASE = 3;

export interface LeasedBatch {
  claimToken: string;
  ids: readonly number[];
}

export type RenewLeases = (batches: readonly LeasedBatch[], leaseUntil: Date) => Promise<void>;

export class LeaseKeeper {
  private readonly batches = new Set<LeasedBatch>();
  private timer: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;

  constructor(
    private readonly renew: RenewLeases,
    private readonly leaseSeconds: number,
    private readonly onError: (error: unknown) => void,
    private readonly now: () => number = Date.now,
    /** After a renewal that worked (ends an outage the errors reported). */
    private readonly onRenewed: () => void = () => undefined,
  ) {}

  /** Keeps these rows' lease alive until the returned function is called. */
  keep(batches: readonly LeasedBatch[]): () => void {
    for (const batch of batches) this.batches.add(batch);
    if (!this.timer && this.batches.size > 0) {
      this.timer = setInterval(() => void this.renewNow(), this.intervalMs());
      this.timer.unref();
    }
    return () => {
      for (const batch of batches) this.batches.delete(batch);
      if (this.batches.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  intervalMs(): number {
    return Math.max(200, (this.leaseSeconds * 1000) / RENEWALS_PER_LEASE);
  }

  /** One renewal of every batch kept now; a tick while the last one is still out does nothing. */
  renewNow(): Promise<void> {
    if (this.renewing || this.batches.size === 0) return this.renewing ?? Promise.resolve();
    const batches = [...this.batches];
    this.renewing = this.renew(batches, new Date(this.now() + this.leaseSeconds * 1000))
      .then(this.onRenewed, this.onError)
      .finally(() => {
        this.renewing = null;
      });
    return this.renewing;
  }

  /** Batches kept now (tests). */
  get size(): number {
    return this.batches.size;
  }
}
