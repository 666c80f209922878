/**
 * Where log cleanup differs between the databases, as a value chosen once in the container: the
 * retention rule (what is old, in what order it goes, what is kept of it) never asks which
 * database it runs on.
 */
import type { Knex } from 'knex';
import { NO_BITMAP_SCANS_SQL, withoutBitmapScans } from '../db/bitmapScans';
import type { DeletedMessage } from './dailyTotals';

/** Final message statuses: only these are deleted, so nothing that may still be sent (or refunded) is lost. */
export const FINAL_MESSAGE_STATUSES = ['sent', 'delivered', 'read', 'failed', 'duplicate', 'suppressed', 'cancelled'] as const;

export interface RetentionStore {
  /**
   * Where batches are sized by time rather than by count: how long a batch should take, and the
   * first batch's rows. Null to take the largest batch each time.
   */
  timeBudget: { ms: number; firstRows: number } | null;
  /** The rest after a batch, as a share of the time it took. */
  restRatio: number;
  /** The next old final messages, oldest first, from `from` on. */
  oldMessageBatch(db: Knex, cutoff: string, from: string | null, limit: number): Promise<{ id: number | string; createdAt: string | Date }[]>;
  /** Deletes these messages where they are final, inside `trx`; answers what each deleted row held. */
  deleteMessages(trx: Knex.Transaction, ids: readonly (number | string)[], nowIso: string): Promise<DeletedMessage[]>;
  /**
   * Forgets up to `limit` of the numbers kept for the reports' search whose messages were deleted;
   * answers how many were looked at (0 when none is left) and how many were forgotten.
   */
  forgetNumbers(db: Knex, limit: number): Promise<{ taken: number; forgotten: number }>;
}

/** What a deleted message row tells the daily totals. */
const DELETED_COLUMNS = `user_id as "userId", campaign_id as "campaignId", status as "status", error_code as "errorCode", created_at as "createdAt",
  sent_at as "sentAt", delivered_at as "deliveredAt", read_at as "readAt", failed_at as "failedAt"`;

const FINAL = FINAL_MESSAGE_STATUSES.map(() => '?').join(', ');

const deleteMessagesSql = (ids: number) => `delete from messages where id in (${new Array(ids).fill('?').join(', ')}) and status in (${FINAL})`;

const oldMessagesSql = (index: string, from: boolean) => `select id as "id", created_at as "createdAt" from messages${index}
  where created_at < ?${from ? ' and created_at >= ?' : ''} and status in (${FINAL})
  order by created_at limit ?`;

/**
 * SQLite: better-sqlite3 runs each statement on the event loop, so while a batch runs the whole
 * server waits (requests, the dispatcher, the in-process simulator); a batch's time follows its
 * rows (with their index entries) and the machine's load, so batches are sized to a budget of
 * time. The batch itself is what holds the server, and already short: any rest lets every waiting
 * request take its next step, so a quarter keeps the cleanup from crawling behind busy readers
 * (with a million rows and reports read back to back, a full rest made it take an hour).
 */
export const SQLITE_RETENTION: RetentionStore = {
  timeBudget: { ms: 50, firstRows: 250 },
  restRatio: 0.25,

  async oldMessageBatch(db, cutoff, from, limit) {
    // The creation-time index, named: without statistics SQLite's planner took the
    // (status, next_attempt_at) index for the status list and sorted every old row for each
    // batch, over a second per batch for a million rows.
    return (await db.raw(oldMessagesSql(' indexed by messages_created_index', from !== null), [cutoff, ...(from === null ? [] : [from]), ...FINAL_MESSAGE_STATUSES, limit])) as {
      id: number | string;
      createdAt: string | Date;
    }[];
  },

  async deleteMessages(trx, ids) {
    // The search index loses the deleted messages through a trigger on `messages`, in this transaction.
    return (await trx.raw(`${deleteMessagesSql(ids.length)} returning ${DELETED_COLUMNS}`, [...ids, ...FINAL_MESSAGE_STATUSES])) as DeletedMessage[];
  },

  // SQLite keeps no table of numbers beside the messages: its search index follows them.
  async forgetNumbers() {
    return { taken: 0, forgotten: 0 };
  },
};

/**
 * PostgreSQL: the largest batch each time, resting as long as it took: the cleanup never has
 * more than half the database, and the daily job is in no hurry.
 */
export const POSTGRES_RETENTION: RetentionStore = {
  timeBudget: null,
  restRatio: 1,

  async oldMessageBatch(db, cutoff, from, limit) {
    const { rows } = (await db.raw(oldMessagesSql('', from !== null), [cutoff, ...(from === null ? [] : [from]), ...FINAL_MESSAGE_STATUSES, limit])) as {
      rows: { id: number | string; createdAt: string | Date }[];
    };
    return rows;
  },

  async deleteMessages(trx, ids, nowIso) {
    // The numbers are marked through the btree, not the trigram index (db/bitmapScans.ts).
    await trx.raw(NO_BITMAP_SCANS_SQL);
    // Each user's numbers are kept for the reports' search: the numbers of the deleted messages
    // are marked, and forgotten at the end of the run if no message to them is left.
    const { rows } = (await trx.raw(
      `with gone as (${deleteMessagesSql(ids.length)} returning *),
       marked as (update recipient_numbers r set orphaned_at = ? from (select distinct user_id, recipient from gone) g
                  where r.user_id = g.user_id and r.recipient = g.recipient and r.orphaned_at is null)
       select ${DELETED_COLUMNS} from gone`,
      [...ids, ...FINAL_MESSAGE_STATUSES, nowIso],
    )) as { rows: DeletedMessage[] };
    return rows;
  },

  /**
   * The numbers marked by this run or an earlier one are forgotten where no message to the number
   * is left, or where a live entry for it was added since; the rest are live again. A message
   * written meanwhile brings its number back by itself (the trigger on messages and
   * `reports/recipientNumbers.ts`), so nothing here waits for senders.
   */
  async forgetNumbers(db, limit) {
    // The live entry is found by the btree, not the trigram index (db/bitmapScans.ts).
    const { rows } = (await withoutBitmapScans(db, (trx) =>
      trx.raw(
        `with batch as (select ctid as row, user_id, recipient from recipient_numbers where orphaned_at is not null limit ? for update skip locked),
         forgotten as (
           delete from recipient_numbers r using batch b
           where r.ctid = b.row
             and (not exists (select 1 from messages m where m.user_id = b.user_id and m.recipient = b.recipient)
                  or exists (select 1 from recipient_numbers live where live.user_id = b.user_id and live.recipient = b.recipient and live.orphaned_at is null))
           returning b.row),
         kept as (update recipient_numbers r set orphaned_at = null from batch b where r.ctid = b.row and b.row not in (select row from forgotten))
         select (select count(*) from batch) as "taken", (select count(*) from forgotten) as "forgotten"`,
        [limit],
      ),
    )) as { rows: { taken: string; forgotten: string }[] };
    return { taken: Number(rows[0]?.taken ?? 0), forgotten: Number(rows[0]?.forgotten ?? 0) };
  },
};

/** The store for a database kind (the container's choice, and tests'). */
export function retentionStoreFor(kind: 'sqlite' | 'postgresql'): RetentionStore {
  return kind === 'postgresql' ? POSTGRES_RETENTION : SQLITE_RETENTION;
}
