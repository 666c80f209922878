import type { Knex } from 'knex';
import { claimKey, withConflictRetry } from './messageOutcomes';
import type { DispatchStore } from './dispatchStore/store';

/**
 * The last check before a send, as one conditional update per round for every send waiting:
 * `handed_at` is set only on rows still `sending`, never handed, carrying the claim's token, of a
 * campaign still running. A pause or cancel changes those rows in the transaction that changes
 * the campaign, so either the handoff committed first (the send goes out, and the pause or cancel
 * waits for its answer) or it finds the rows taken and the worker does not send.
 */
export class Handoff {
  private waiting: { id: number; claimToken: string; resolve: (handed: boolean) => void; reject: (error: unknown) => void }[] = [];
  private running = false;

  /** The handoff restarts the lease: a send waits in no queue of ours long enough to be taken for a stall. */
  constructor(
    private readonly db: Knex,
    private readonly store: DispatchStore,
    private readonly leaseSeconds: number,
  ) {}

  handOver(id: number, claimToken: string): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.waiting.push({ id, claimToken, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.waiting.length > 0) {
        const round = this.waiting.splice(0, 500);
        try {
          const handed = await withConflictRetry(() => this.mark([...round].sort((x, y) => x.id - y.id)));
          for (const entry of round) entry.resolve(handed.has(claimKey(entry)));
        } catch (error) {
          for (const entry of round) entry.reject(error);
        }
      }
    } finally {
      this.running = false;
    }
  }

  /**
   * Answers the claims handed, as `claimKey`s: by claim, not by message. A worker whose claim
   * lapsed and the worker that claimed the message again can wait in the same round; answering by
   * id told both "yours", and the stale one sent the message a second time.
   */
  private async mark(round: readonly { id: number; claimToken: string }[]): Promise<Set<string>> {
    const now = new Date();
    const nowIso = now.toISOString();
    const leaseUntil = new Date(now.getTime() + this.leaseSeconds * 1000).toISOString();
    const handed = new Set<string>();
    for (const claim of await this.store.handOver(this.db, round, { nowIso, leaseUntilIso: leaseUntil })) handed.add(claimKey(claim));
    return handed;
  }
}
