/**
 * Message rows for a large campaign's staged recipients. Acceptance writes a send of at
 * least `STAGED_MIN_RECIPIENTS` as lean rows into `campaign_recipients` (campaignAcceptance.ts,
 * the store's `insertStaged`); this worker moves them into `messages` a chunk at a time, in the send's order,
 * each chunk in one transaction with its queue jobs (PostgreSQL) and the campaign's count of rows
 * still staged, and deletes them as it goes. A crash between chunks leaves whole chunks on one
 * side or the other; the next turn (on any instance) goes on from the rows left.
 *
 * Every instance runs one. On PostgreSQL it writes a few chunks side by side (acceptance/stagedRows.ts), and
 * so may other instances: each chunk takes its rows with `for update skip locked`, so no two take
 * the same rows, and the ids they get were taken in the file's order when the rows were staged
 * (migration 20261207100100), so the reports' order does not depend on which chunk commits first.
 * A chunk holds its campaign's advisory lock shared; a cancel takes it exclusively
 * (`excludeChunks`), so it waits for the chunks in flight and no new one starts. On SQLite the one
 * connection orders the chunks. While rows are staged:
 * - the campaign is not completed (`MessageOutcomes.completeCampaigns`);
 * - its counts include them (`CampaignService`), its Duplicate Blocked keys block (acceptance);
 * - a cancel first moves all of them (`materialiseAll`), then fails and refunds them as queued.
 */
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { PollingWorker } from '../pollingWorker';
import type { Logger } from '../logger';
import { OutageLog } from '../db/outage';
import type { StagedCampaign, StagedRowsStore } from './acceptance/stagedRows';
import type { Enqueuer } from './dispatchJobs';

/** With nothing staged, look again this often for another instance's unfinished campaign (after a crash). */
const IDLE_POLL_MS = 1_000;
const LOCKED_RETRY_MS = 50;

export interface MaterialisedChunk {
  campaignId: number;
  rows: number;
  /** Rows of the campaign still staged after this chunk. */
  left: number;
}

export class Materialiser extends PollingWorker {
  private readonly failures: OutageLog;

  constructor(
    private readonly deps: {
      db: Knex;
      /** How rows move on this database (acceptance/stagedRows.ts). */
      store: StagedRowsStore;
      /** The queue's jobs for the queued rows of each chunk, in its transaction (none where the dispatcher polls the table). */
      jobs: Pick<Enqueuer, 'enqueue'>;
      log: Logger;
      /** After each chunk's commit: new queued rows (the embedded dispatcher looks now); when none are left, the campaign may be complete. */
      onMaterialised: (chunk: MaterialisedChunk) => Promise<void>;
      chunkRows?: number;
      /** Chunks written at once where the store can (PostgreSQL); SQLite writes one. */
      chunksAtOnce?: number;
    },
  ) {
    super(IDLE_POLL_MS);
    this.failures = new OutageLog(deps.log, 'materialising staged recipients');
  }

  /** A campaign was staged: look now rather than at the next poll. */
  notify(): void {
    this.pause.interrupt();
  }

  /** Materialises until nothing is staged (tests and the bench; the worker does the same on its own). */
  async drain(): Promise<void> {
    await Promise.all(Array.from({ length: this.chunksAtOnce() }, () => this.drainOneAtATime()));
  }

  private async drainOneAtATime(): Promise<void> {
    for (;;) {
      if ((await this.materialiseNext()) !== null) continue;
      if (!(await this.lockedElsewhere())) return;
      await sleep(LOCKED_RETRY_MS);
    }
  }

  protected async run(): Promise<void> {
    await Promise.all(Array.from({ length: this.chunksAtOnce() }, () => this.materialiseWhileRunning()));
  }

  private chunksAtOnce(): number {
    return this.deps.store.chunksAtOnce(this.deps.chunksAtOnce);
  }

  private async materialiseWhileRunning(): Promise<void> {
    while (this.running) {
      let worked = false;
      try {
        worked = (await this.materialiseNext()) !== null;
        this.failures.recovered();
      } catch (error) {
        await this.pause.wait(Math.max(this.pause.ms, this.failures.failed(error)));
        continue;
      }
      if (worked) {
        // Requests get their turn between chunks.
        await nextTurn();
        continue;
      }
      // Rows left that other chunks hold (this instance's other loop, another instance), or whose
      // campaign a cancel holds: looked at again shortly rather than at the next poll.
      if (await this.lockedElsewhere()) {
        await sleep(LOCKED_RETRY_MS, undefined, { ref: false });
        continue;
      }
      await this.pause.wait();
    }
  }

  private async lockedElsewhere(): Promise<boolean> {
    return this.deps.store.heldElsewhere();
  }

  /** One chunk of the oldest campaign with staged rows that are not taken already; null when there is none. */
  async materialiseNext(): Promise<MaterialisedChunk | null> {
    const { db } = this.deps;
    const chunk = await db.transaction(async (trx) => {
      for (const campaign of await this.stagedCampaigns(trx)) {
        if (!(await this.shareChunks(trx, Number(campaign.id)))) continue;
        // Null where every row left is in other chunks in flight: the next campaign's turn.
        const written = await this.materialiseChunk(trx, campaign, true);
        if (written) return written;
      }
      return null;
    });
    if (chunk) await this.deps.onMaterialised(chunk);
    return chunk;
  }

  /** The oldest campaigns with staged rows (one on SQLite, whose one connection takes them in turn). */
  private async stagedCampaigns(trx: Knex.Transaction): Promise<StagedCampaign[]> {
    return (await trx('campaigns')
      .where('stagedRecipients', '>', 0)
      .orderBy('id')
      .limit(this.deps.store.candidateCampaigns)
      .select('id', 'userId', 'priceUnits', 'createdAt')) as StagedCampaign[];
  }

  private async shareChunks(trx: Knex.Transaction, campaignId: number): Promise<boolean> {
    return this.deps.store.shareChunks(trx, campaignId);
  }

  /**
   * Waits for the chunks of the campaign in flight and keeps new ones from starting until the
   * caller's transaction ends (a cancel, before it changes the campaign's row: a chunk changes that
   * row last, so taking the row first would leave each waiting for the other). PostgreSQL's lock
   * queue lets no new shared holder in past a waiting exclusive one, so a campaign whose chunks
   * follow each other without a gap is not held up until its last.
   */
  async excludeChunks(trx: Knex.Transaction, campaignId: number): Promise<void> {
    await this.deps.store.excludeChunks(trx, campaignId);
  }

  /**
   * Every staged row of one campaign, in the caller's transaction, without queue jobs: a cancel
   * fails them straight after as queued messages. The caller has excluded the chunks
   * (`excludeChunks`), so every row is free.
   */
  async materialiseAll(trx: Knex.Transaction, campaignId: number): Promise<number> {
    const campaign = (await trx('campaigns').where({ id: campaignId }).where('stagedRecipients', '>', 0).first('id', 'userId', 'priceUnits', 'createdAt')) as StagedCampaign | undefined;
    if (!campaign) return 0;
    let rows = 0;
    for (;;) {
      const chunk = await this.materialiseChunk(trx, campaign, false);
      if (!chunk) throw new Error(`staged recipients of campaign ${campaignId} are held by a chunk the caller did not exclude`);
      rows += chunk.rows;
      if (chunk.left === 0) return rows;
    }
  }

  /** One chunk of the campaign's staged rows; null where every row left is in another chunk in flight (PostgreSQL). */
  private async materialiseChunk(trx: Knex.Transaction, campaign: StagedCampaign, enqueue: boolean): Promise<MaterialisedChunk | null> {
    const campaignId = Number(campaign.id);
    const nowIso = new Date().toISOString();
    const rows = await this.deps.store.moveChunk(trx, campaign, this.deps.chunkRows ?? this.deps.store.chunkRows, enqueue ? this.deps.jobs : null);
    if (rows === null) return null;
    // A count that found no rows left (it cannot, but a loop must not spin on it) ends the staging.
    // Chunks side by side change the row one after the other: the second waits for the first's commit.
    await trx('campaigns')
      .where({ id: campaignId })
      .update({ stagedRecipients: rows === 0 ? 0 : trx.raw('staged_recipients - ?', [rows]), updatedAt: nowIso });
    const after = (await trx('campaigns').where({ id: campaignId }).first('stagedRecipients')) as { stagedRecipients: number | string } | undefined;
    return { campaignId, rows, left: Number(after?.stagedRecipients ?? 0) };
  }
}
