/**
 * The index behind the reports' search by part of a number, kept off the send path:
 * messages are written without it, and this worker, on every instance, adds them a batch at a
 * time, each batch one transaction, resting after each as long as it took (at least
 * TRICKLE_REST_MS after a batch that took all that was pending) and standing aside while a large
 * send's message rows are being written (the materialiser), whose figure it would otherwise slow.
 * The search reads what is not yet indexed from the messages themselves, so it is exact whether
 * or not the worker has caught up.
 *
 * - PostgreSQL (migrations 20261205100100-100400): each user's distinct numbers in
 *   `recipient_numbers`, by trigram. A trigger on `messages` records each statement's new messages
 *   in `recipient_numbers_pending` as one id range per campaign; a batch reads those messages by
 *   primary key and adds the numbers their user has no live entry for. `for update skip locked`
 *   keeps two instances from taking the same rows (a number moved by both at once is listed twice,
 *   which the search reads once).
 * - SQLite (migrations 20261206100100-100300): an FTS5 trigram index of the messages' own numbers,
 *   `messages_recipient_search`. Ids only grow and one writer commits at a time, so a batch is the
 *   next messages above `recipient_search_progress.last_message_id`, read by primary key, and the
 *   mark moves past them in the same transaction.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { forDatabase } from '../db/dialect';
import { PollingWorker } from '../pollingWorker';
import { withoutBitmapScans } from '../db/bitmapScans';
import type { Logger } from '../logger';
import { OutageLog } from '../db/outage';
import { anyCampaignStaged } from '../sending/acceptance/stagedRows';

/**
 * PostgreSQL: a pending range is a statement's messages of one campaign. A batch takes up to
 * BATCH_RANGES large ones (the materialiser writes 20,000 a statement) and up to
 * BATCH_SMALL_RANGES small ones, of fewer than SMALL_RANGE_MESSAGES (the public API's group commit
 * writes a few dozen a round). Each is locked as it is read (`skip locked`), so instances and a
 * drain take different ranges side by side.
 */
const BATCH_RANGES = 4;
const BATCH_SMALL_RANGES = 64;
const SMALL_RANGE_MESSAGES = 1_000;
/**
 * SQLite: messages per batch, one transaction holding the only writer: larger batches move a
 * million faster in all, but hold every request back longer each; this keeps a batch short.
 */
const BATCH_MESSAGES = 5_000;
/** With nothing pending, look again this often. */
const IDLE_POLL_MS = 1_000;
/**
 * A batch that took everything pending rests at least this long, so that what trickles in is
 * taken a few hundred milliseconds' worth at a time: under the public API's load, a batch per
 * few rounds cost PostgreSQL as much as the sends' own writes.
 */
const TRICKLE_REST_MS = 250;

/**
 * The numbers of the messages not yet moved, holding the digits (the `like` pattern at the first
 * `?`, the user at the second): each pending range's messages by primary key, so normally none.
 * The lateral subquery, kept apart by `offset 0`, makes the ranges drive the join: PostgreSQL
 * otherwise took a hash join that tested every message's number first (a never-analysed, nearly
 * empty table looks bigger than it is), slow on a million rows.
 */
export const PENDING_NUMBERS_SQL = `select distinct found.recipient from recipient_numbers_pending p
  cross join lateral (
    select m.recipient from messages m
    where m.id between p.first_id and p.last_id and m.campaign_id = p.campaign_id and m.recipient like ? offset 0) found
  where p.user_id = ?`;

/**
 * SQLite: the numbers holding the digits (the `like` pattern at the first `?`, the user at the
 * second and third, the digits at the fourth), one row per message: the index's matches, read
 * back from `messages` by rowid to confirm each (`cross join` keeps the index first; otherwise
 * SQLite may walk the user's messages and probe the index for each), then the messages not yet
 * indexed, by primary key (the unary `+` keeps SQLite off the user's indexes, which would test
 * every number of the user again). FTS5 finds trigrams, so the digits must be at least three.
 */
export const SQLITE_NUMBERS_SQL = `select m.recipient from messages_recipient_search s cross join messages m on m.id = s.rowid
  where s.recipient like ? and m.user_id = ?
  union all
  select m.recipient from messages m
  where m.id > (select last_message_id from recipient_search_progress) and +m.user_id = ? and instr(+m.recipient, ?) > 0`;
/**
 * PostgreSQL: one batch of the numbers worker (bindings: the small range's size, how many small
 * ranges, the same size again, how many large ranges). Every range it locks it deletes, so what it
 * locked is what it took; it answers how many of each class. Run by `withoutBitmapScans`: its probe
 * of the numbers already known took the trigram index once the table had statistics.
 */
export const PG_NUMBERS_BATCH_SQL = `with small as (
   select ctid from recipient_numbers_pending where last_id - first_id + 1 < ? limit ? for update skip locked),
 large as (
   select ctid from recipient_numbers_pending where last_id - first_id + 1 >= ? limit ? for update skip locked),
 taken as (
   delete from recipient_numbers_pending
   where ctid = any(array(select ctid from small union all select ctid from large))
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
 select (select count(*) from small) as "small", (select count(*) from large) as "large"`;

/** The shortest digits the trigram indexes can find; shorter ones are tested against every number (and match so many that the list walk follows). */
export const INDEXED_DIGITS_MIN = 3;

export class RecipientNumberIndex extends PollingWorker {
  private readonly failures: OutageLog;
  /**
   * How this database's batches are taken: PostgreSQL moves pending ranges that several instances
   * may share, SQLite indexes the next messages after its own progress mark.
   */
  private readonly batches: { take: () => Promise<{ taken: number; full: boolean }>; sharedWithOtherInstances: boolean };

  constructor(private readonly deps: { db: Knex; log: Logger; batchRanges?: number; batchSmallRanges?: number; smallRangeMessages?: number; batchMessages?: number }) {
    super(IDLE_POLL_MS);
    this.failures = new OutageLog(deps.log, 'moving recipient numbers into the search index');
    this.batches = forDatabase(deps.db, {
      postgresql: { take: () => this.takePendingRanges(), sharedWithOtherInstances: true },
      sqlite: { take: () => this.takeSqliteBatch(), sharedWithOtherInstances: false },
    });
  }

  /** Until nothing is pending, this instance's batches or another's (tests and the bench). */
  async drain(): Promise<void> {
    if (!this.batches.sharedWithOtherInstances) {
      while ((await this.moveBatch()) > 0);
      return;
    }
    for (;;) {
      if ((await this.moveBatch()) > 0) continue;
      const pending = await this.deps.db('recipient_numbers_pending').first(this.deps.db.raw('1 as "one"'));
      if (pending === undefined) return;
      // Rows another worker is moving right now.
      await sleep(10);
    }
  }

  /**
   * One batch moved into the index; answers how much was taken (PostgreSQL: pending ranges, SQLite:
   * messages), 0 when nothing is pending or another instance took it all.
   */
  async moveBatch(): Promise<number> {
    return (await this.takeBatch()).taken;
  }

  /** `moveBatch`, and whether the batch was full (more may be pending). */
  private takeBatch(): Promise<{ taken: number; full: boolean }> {
    return this.batches.take();
  }

  private async takeSqliteBatch(): Promise<{ taken: number; full: boolean }> {
    const taken = await this.indexSqliteBatch();
    return { taken, full: taken >= (this.deps.batchMessages ?? BATCH_MESSAGES) };
  }

  /** PostgreSQL: pending ranges, the small ones apart from the large. */
  private async takePendingRanges(): Promise<{ taken: number; full: boolean }> {
    const batchRanges = this.deps.batchRanges ?? BATCH_RANGES;
    const batchSmallRanges = this.deps.batchSmallRanges ?? BATCH_SMALL_RANGES;
    const smallRangeMessages = this.deps.smallRangeMessages ?? SMALL_RANGE_MESSAGES;
    // Its probe of the numbers already known must read the btree, never the trigram index.
    const { rows } = (await withoutBitmapScans(this.deps.db, (trx) =>
      trx.raw(PG_NUMBERS_BATCH_SQL, [smallRangeMessages, batchSmallRanges, smallRangeMessages, batchRanges]),
    )) as { rows: { small: string | number; large: string | number }[] };
    const small = Number(rows[0]?.small ?? 0);
    const large = Number(rows[0]?.large ?? 0);
    return { taken: small + large, full: small >= batchSmallRanges || large >= batchRanges };
  }

  private async indexSqliteBatch(): Promise<number> {
    return this.deps.db.transaction(async (trx) => {
      const progress = (await trx('recipient_search_progress').first('lastMessageId')) as { lastMessageId: number | string } | undefined;
      const after = Number(progress?.lastMessageId ?? 0);
      const [batch] = (await trx.raw('select max(id) as "upTo", count(*) as "messages" from (select id from messages where id > ? order by id limit ?)', [
        after,
        this.deps.batchMessages ?? BATCH_MESSAGES,
      ])) as { upTo: number | null; messages: number }[];
      if (!batch || batch.upTo === null) return 0;
      await trx.raw('insert into messages_recipient_search (rowid, recipient) select id, recipient from messages where id > ? and id <= ?', [after, batch.upTo]);
      await trx('recipient_search_progress').update({ lastMessageId: batch.upTo });
      return batch.messages;
    });
  }

  protected async run(): Promise<void> {
    while (this.running) {
      let batch = { taken: 0, full: false };
      const started = performance.now();
      try {
        if (!(await anyCampaignStaged(this.deps.db))) batch = await this.takeBatch();
        this.failures.recovered();
      } catch (error) {
        await this.pause.wait(Math.max(this.pause.ms, this.failures.failed(error)));
        continue;
      }
      const took = performance.now() - started;
      if (batch.taken > 0) await sleep(batch.full ? took : Math.max(took, TRICKLE_REST_MS), undefined, { ref: false });
      else await this.pause.wait();
    }
  }
}
