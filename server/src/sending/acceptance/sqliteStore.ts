/**
 * Acceptance's storage on SQLite (see store.ts): one connection, so one transaction at a time and
 * no locks to take; rows go in through the driver's prepared statements. Its statements are named below.
 */
import type { Knex } from 'knex';
import { errorOf, OPTED_OUT_ERROR_CODE, statusOf, variablesOf, BLOCKING_STATUSES_SQL, type RecipientRow } from './messageRows';
import { KnexAcceptanceStore, type DuplicateProbe, type MessageBatch, type StagedBatch } from './store';

/** Bound values per lookup: IN (...) (a Duplicate Blocked probe's two lists share it). */
const LOOKUP_CHUNK = 900;
/** Rows per INSERT statement where their ids are not wanted. */
const ROWS_PER_INSERT = 200;
/** Lean rows per INSERT (six values each, under SQLite's 32,766 variables). */
const STAGED_ROWS_PER_INSERT = 500;

const placeholders = (count: number) => new Array<string>(count).fill('?').join(', ');

/**
 * `probeKeys`: the blocking keys among a lookup's worth, in `messages` (through the recipient
 * index: SQLite's planner may prefer the status index and scan) and in the lean rows still staged.
 */
const DUPLICATE_PROBE_SQL = (recipients: number, keys: number) => `select dedupe_key from messages indexed by messages_user_recipient_index
    where user_id = ? and recipient in (${placeholders(recipients)}) and dedupe_key in (${placeholders(keys)}) and created_at >= ? and status in (${BLOCKING_STATUSES_SQL})
  union select dedupe_key from campaign_recipients
    where campaign_id in (select id from campaigns where user_id = ? and template_id = ? and staged_recipients > 0) and status_code = 0 and dedupe_key in (${placeholders(keys)})`;

/** The opted-out recipients among a lookup's worth. */
const SUPPRESSED_AMONG_SQL = (recipients: number) => `select recipient from suppressions where user_id = ? and recipient in (${placeholders(recipients)})`;

/** Message rows, `rows` to a statement. */
const INSERT_MESSAGES_SQL = (rows: number) =>
  `insert into messages (campaign_id, user_id, recipient, status, price_units, variables, dedupe_key, error_code, error_message,
     attempts, next_attempt_at, refunded, created_at, updated_at) values ${Array<string>(rows).fill('(?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, 0, ?, ?)').join(', ')}`;

/** A large send's lean rows, `rows` to a statement. */
const INSERT_STAGED_SQL = (rows: number) => `insert into campaign_recipients (campaign_id, position, recipient, variables, dedupe_key, status_code) values ${Array<string>(rows).fill('(?, ?, ?, ?, ?, ?)').join(', ')}`;

type SqliteConnection = { prepare(sql: string): { run(...params: unknown[]): { lastInsertRowid: number | bigint } } };

export class SqliteAcceptanceStore extends KnexAcceptanceStore {
  readonly lookupChunk = LOOKUP_CHUNK;
  readonly oneStatement = null;

  async lockDuplicates(): Promise<void> {
    // The one connection runs one transaction at a time, and acceptance reads inside its own.
  }

  async probeKeys(db: Knex, probe: DuplicateProbe, found: Set<string>): Promise<Set<string>> {
    const { userId, templateId, recipients, keys, since } = probe;
    const size = LOOKUP_CHUNK / 2;
    for (let start = 0; start < keys.length; start += size) {
      const chunk = keys.slice(start, start + size);
      const to = recipients.slice(start, start + size).map((recipient) => recipient.to);
      const rows = (await db.raw(DUPLICATE_PROBE_SQL(to.length, chunk.length), [userId, ...to, ...chunk, since, userId, templateId, ...chunk])) as Record<string, string>[];
      for (const row of rows) found.add((row.dedupeKey ?? row.dedupe_key) as string);
    }
    return found;
  }

  protected async suppressedAmong(db: Knex, userId: number, recipients: string[]): Promise<string[]> {
    const rows = (await db.raw(SUPPRESSED_AMONG_SQL(recipients.length), [userId, ...recipients])) as { recipient: string }[];
    return rows.map((row) => row.recipient);
  }

  /**
   * One prepared statement reused per `ROWS_PER_INSERT` rows where no ids are wanted, and the rest
   * in one more: on the messages table with its indexes, less time per row than one statement
   * each, and less again with more rows per statement
   * (docs/decisions/2026-11-24-acceptance-speed-and-memory.md). Rows whose ids are wanted go one
   * to a statement. The dispatcher finds queued rows in the table: no jobs to make.
   */
  async insertMessages(trx: Knex.Transaction, batch: MessageBatch): Promise<number[] | undefined> {
    const { campaignId, userId, priceUnits, nowIso, dueIso, recipients, keys, statusCodes } = batch;
    const ids: number[] | undefined = batch.returnIds ? [] : undefined;
    const sqlite = (await (trx.client as unknown as { acquireConnection(): Promise<unknown> }).acquireConnection()) as SqliteConnection;
    const params: unknown[] = [];
    const pushRow = (i: number) => {
      const code = statusCodes[i] as number;
      const recipient = recipients[i] as RecipientRow;
      params.push(campaignId, userId, recipient.to, statusOf(code), code === 0 ? priceUnits : 0, variablesOf(recipient), keys.at(i), code === 2 ? OPTED_OUT_ERROR_CODE : null, errorOf(code), code === 0 ? dueIso : null, nowIso, nowIso);
    };
    let i = 0;
    if (!ids) {
      const statement = (rows: number) => sqlite.prepare(INSERT_MESSAGES_SQL(rows));
      const many = recipients.length >= ROWS_PER_INSERT ? statement(ROWS_PER_INSERT) : null;
      for (; many && i + ROWS_PER_INSERT <= recipients.length; i += ROWS_PER_INSERT) {
        params.length = 0;
        for (let row = i; row < i + ROWS_PER_INSERT; row++) pushRow(row);
        many.run(...params);
      }
      if (recipients.length - i > 1) {
        params.length = 0;
        for (let row = i; row < recipients.length; row++) pushRow(row);
        statement(recipients.length - i).run(...params);
        i = recipients.length;
      }
    }
    const single = sqlite.prepare(INSERT_MESSAGES_SQL(1));
    for (; i < recipients.length; i++) {
      params.length = 0;
      pushRow(i);
      const { lastInsertRowid } = single.run(...params);
      ids?.push(Number(lastInsertRowid));
    }
    return ids;
  }

  /** One prepared INSERT of `STAGED_ROWS_PER_INSERT` rows reused. */
  async insertStaged(trx: Knex.Transaction, batch: StagedBatch): Promise<void> {
    const { campaignId, recipients, keys, statusCodes, firstPosition } = batch;
    const sqlite = (await (trx.client as unknown as { acquireConnection(): Promise<unknown> }).acquireConnection()) as SqliteConnection;
    const statement = (rows: number) => sqlite.prepare(INSERT_STAGED_SQL(rows));
    const params: unknown[] = [];
    const many = recipients.length >= STAGED_ROWS_PER_INSERT ? statement(STAGED_ROWS_PER_INSERT) : null;
    for (let start = 0; start < recipients.length; start += STAGED_ROWS_PER_INSERT) {
      const end = Math.min(recipients.length, start + STAGED_ROWS_PER_INSERT);
      params.length = 0;
      for (let i = start; i < end; i++) {
        const recipient = recipients[i] as RecipientRow;
        params.push(campaignId, firstPosition + i, recipient.to, variablesOf(recipient), keys.at(i), statusCodes[i]);
      }
      (many && end - start === STAGED_ROWS_PER_INSERT ? many : statement(end - start)).run(...params);
    }
  }
}
