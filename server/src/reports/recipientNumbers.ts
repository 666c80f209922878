/**
 * PostgreSQL: each user's distinct numbers for the reports' search by part of a number (issue 17;
 * migrations 20261205100100-100400). A trigger on `messages` records each statement's new
 * messages in `recipient_numbers_pending` as one id range per campaign, so writing messages pays
 * next to nothing. This worker reads those messages by primary key and moves their numbers into
 * `recipient_numbers` (the trigram index) a few ranges at a time, each batch one statement: a
 * number its user has a live entry for is passed over, a new one added. The search reads the
 * pending ranges' messages too (`PENDING_NUMBERS_SQL`), so it is exact whether or not the worker has
 * caught up.
 *
 * Every instance runs one; `for update skip locked` keeps two from taking the same rows (a
 * number moved by both at once is listed twice, which the search reads once). It stands aside
 * while a large send's message rows are being written (the materialiser), whose figure it would
 * otherwise slow, and rests after each batch as long as the batch took.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { isPostgres } from '../db/knex';
import { PollingWorker } from '../pollingWorker';
import type { Logger } from '../logger';
import { anyCampaignStaged } from '../sending/materialiser';

/** Pending ranges per batch: a statement's messages each (the materialiser writes 20,000 at a time). */
const BATCH_RANGES = 4;
/** With nothing pending, look again this often. */
const IDLE_POLL_MS = 1_000;

/**
 * The numbers of the messages not yet moved, holding the digits (the `like` pattern at the first
 * `?`, the user at the second): each pending range's messages by primary key, so normally none.
 * The lateral subquery, kept apart by `offset 0`, makes the ranges drive the join: PostgreSQL
 * otherwise took a hash join that tested every message's number first (a never-analysed, nearly
 * empty table looks bigger than it is), 109 ms a search on a million rows.
 */
export const PENDING_NUMBERS_SQL = `select distinct found.recipient from recipient_numbers_pending p
  cross join lateral (
    select m.recipient from messages m
    where m.id between p.first_id and p.last_id and m.campaign_id = p.campaign_id and m.recipient like ? offset 0) found
  where p.user_id = ?`;

export class RecipientNumberIndex extends PollingWorker {
  constructor(private readonly deps: { db: Knex; log: Logger; batchRanges?: number }) {
    super(IDLE_POLL_MS);
  }

  /** Nothing to do on SQLite, whose search reads the messages' own index. */
  override get enabled(): boolean {
    return isPostgres(this.deps.db);
  }

  /** Until nothing is pending, this instance's batches or another's (tests and the bench). */
  async drain(): Promise<void> {
    if (!this.enabled) return;
    for (;;) {
      if ((await this.moveBatch()) > 0) continue;
      const pending = await this.deps.db('recipient_numbers_pending').first(this.deps.db.raw('1 as "one"'));
      if (pending === undefined) return;
      // Rows another worker is moving right now.
      await sleep(10);
    }
  }

  /** One batch of pending ranges moved; answers how many were taken (0: nothing pending, or all taken by another instance). */
  async moveBatch(): Promise<number> {
    const { rows } = (await this.deps.db.raw(
      `with taken as (
         delete from recipient_numbers_pending
         where ctid = any(array(select ctid from recipient_numbers_pending limit ? for update skip locked))
         returning user_id, campaign_id, first_id, last_id),
       numbers as (
         select distinct t.user_id, found.recipient from taken t
         cross join lateral (
           select m.recipient from messages m where m.id between t.first_id and t.last_id and m.campaign_id = t.campaign_id offset 0) found),
       added as (
         insert into recipient_numbers (user_id, recipient)
         select n.user_id, n.recipient from numbers n
         where not exists (select 1 from recipient_numbers known where known.user_id = n.user_id and known.recipient = n.recipient and known.orphaned_at is null)
         order by 1, 2)
       select count(*) as "taken" from taken`,
      [this.deps.batchRanges ?? BATCH_RANGES],
    )) as { rows: { taken: string | number }[] };
    return Number(rows[0]?.taken ?? 0);
  }

  protected async run(): Promise<void> {
    while (this.running) {
      let taken = 0;
      const started = performance.now();
      try {
        if (!(await anyCampaignStaged(this.deps.db))) taken = await this.moveBatch();
      } catch (error) {
        this.deps.log.error({ err: error }, 'moving recipient numbers into the search index failed; trying again shortly');
      }
      if (taken > 0) await sleep(performance.now() - started, undefined, { ref: false });
      else await this.pause.wait();
    }
  }
}
