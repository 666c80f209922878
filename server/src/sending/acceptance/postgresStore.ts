/**
 * Acceptance's storage on PostgreSQL (see store.ts). Its statements are named below.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import type { Knex } from 'knex';
import { asPrepared, insertPart, runSingleStatement, singleStatement, type StatementPart } from '../../db/singleStatement';
import type { WalletAfterDebit, WalletService } from '../../wallet/service';
import type { DedupeKeys } from './dedupeKeys';
import { duplicateGuardPart, lockDuplicates } from './duplicateLocks';
import { BLOCKING_STATUSES_SQL, errorOf, OPTED_OUT_ERROR_CODE, PG_MESSAGE_COLUMNS, statusOf, variablesOf, type RecipientRow } from './messageRows';
import {
  KnexAcceptanceStore,
  REOPENED_COMPLETED_AT_SQL,
  REOPENED_STATUS_SQL,
  type AtOnceReads,
  type CampaignFigures,
  type DuplicateProbe,
  type MessageBatch,
  type OneStatementStore,
  type OneStatementWrite,
  type StagedBatch,
} from './store';

/** Rows per INSERT (one unnest statement per chunk; each chunk becomes queue jobs). */
const INSERT_CHUNK = 5_000;
/** Lean rows per COPY chunk (text handed to the connection at a time). */
const STAGED_COPY_CHUNK = 10_000;
/** Keys per lookup (= ANY($1)). */
const LOOKUP_CHUNK = 10_000;
/**
 * Sends of at most this many recipients are written by one statement (see `OneStatementWrite`):
 * their ids are taken from the sequences beforehand, one `nextval` each, which a large send would
 * feel (docs/decisions/2026-11-28-api-writes-in-one-statement.md) and a group commit does not.
 */
const ONE_STATEMENT_MAX_RECIPIENTS = 1_000;

/**
 * `probeKeys`: the blocking keys among a lookup's worth, in `messages` and in the lean rows still
 * staged (bindings: `pgDuplicateProbe`). Each recipient is looked up on its own, through the
 * (user, recipient) index: a user's messages grow faster than autovacuum analyses them, and asked
 * for all the recipients at once the planner took an index on the user alone as the one expected
 * to match a row, then filtered every message the user sent that day, where the recipient index
 * reads one entry per key. A lateral subquery with a limit is planned once per recipient and
 * cannot be turned into that scan; the window and the statuses are written `(...) is true` so that
 * no index but the recipient one matches more than the user. The user is `(select ?)`, a value the
 * planner does not look up in the statistics: a sender they have not seen yet (a new customer's
 * first large send, until the next analysis however large the table) was expected at one row in
 * every index that starts with the user, the report index tied with the recipient one and won.
 * Unknown, the user is expected at the average user's share of the table, and only the recipient
 * index narrows it.
 */
const DUPLICATE_PROBE_SQL = `select k.key as dedupe_key from unnest(?::text[], ?::text[]) as k(recipient, key)
  cross join lateral (select 1 from messages m
    where m.user_id = (select ?::integer) and m.recipient = k.recipient and m.dedupe_key = k.key
      and (m.created_at >= ? and m.status in (${BLOCKING_STATUSES_SQL})) is true
    limit 1) as found
  union select dedupe_key from campaign_recipients
  where campaign_id in (select id from campaigns where user_id = ? and template_id = ? and staged_recipients > 0) and status_code = 0 and dedupe_key = any(?)`;

/** `DUPLICATE_PROBE_SQL` with its bindings: the keys with their recipients, in the same order. */
export function pgDuplicateProbe(probe: { userId: number; templateId: number; to: string[]; keys: string[]; since: string }): { sql: string; bindings: Knex.ValueDict[string][] } {
  return { sql: DUPLICATE_PROBE_SQL, bindings: [probe.to, probe.keys, probe.userId, probe.since, probe.userId, probe.templateId, probe.keys] };
}

/**
 * A small send's reads as one statement: its price's parts (the pricing service's query, lateral),
 * its blocked keys, its opted-out recipients and the ids of its campaign and messages, taken from
 * their sequences. Made as four queries at once they each took a connection and a round trip, and
 * a group commit of the public API waited longer for them than for its writes.
 */
const READ_AT_ONCE_SQL = (probeSql: string) => `select price.pricing_mode as mode, price.default_units as standard, price.custom_units as custom,
    array(${probeSql}) as blocked,
    array(select recipient from suppressions where user_id = ? and recipient = any(?)) as suppressed,
    nextval(pg_get_serial_sequence('campaigns', 'id')) as campaign,
    array(select nextval(pg_get_serial_sequence('messages', 'id')) from generate_series(1, ?)) as messages
  from (select 1) as one left join lateral ? as price on true`;

/** `READ_AT_ONCE_SQL`'s row (null mode: no such user). */
interface AtOnceRow {
  mode: 'default' | 'custom' | null;
  standard: number | string | null;
  custom: number | string | null;
  blocked: string[];
  suppressed: string[];
  campaign: number | string;
  messages: (number | string)[];
}

/** The opted-out recipients among a lookup's worth. */
const SUPPRESSED_AMONG_SQL = 'select recipient from suppressions where user_id = ? and recipient = any(?)';

/** The values of a message row after the campaign and user (`$now`: the time), from the unnested arrays. */
const MESSAGE_VALUES_SQL = 't.recipient, t.status, t.price, t.variables, t.dedupe, t.error_code, t.error_message, 0, t.next_attempt, false, $now, $now';
const MESSAGE_UNNESTED = 't(recipient, status, price, variables, dedupe, error_code, error_message, next_attempt)';

/** One chunk of message rows by unnest(), on the driver's connection (numbered placeholders). */
const INSERT_MESSAGES_SQL = `insert into messages (${PG_MESSAGE_COLUMNS})
  select $1, $2, ${MESSAGE_VALUES_SQL.replaceAll('$now', '$3')}
    from unnest($4::text[], $5::text[], $6::bigint[], $7::text[], $8::text[], $9::int[], $10::text[], $11::timestamptz[]) as ${MESSAGE_UNNESTED}`;

/**
 * `INSERT_MESSAGES_SQL` answering the queued rows' ids (for their jobs) and, where `every`, every
 * row's: ids come from the sequence in the order unnest gives the rows, so sorted they are the rows' order.
 */
const INSERT_MESSAGES_RETURNING_SQL = (every: boolean) => `with inserted as (${INSERT_MESSAGES_SQL} returning id, status)
  select array_agg(id order by id) filter (where status = 'queued') as queued, ${every ? 'array_agg(id order by id)' : 'null'} as every from inserted`;

/** The message rows of a single statement, with the ids taken for them (knex placeholders). */
const INSERT_MESSAGES_WITH_IDS_SQL = `insert into messages (id, ${PG_MESSAGE_COLUMNS})
  select t.id, ?, ?, ${MESSAGE_VALUES_SQL.replaceAll('$now', '?::timestamptz')}
    from unnest(?::bigint[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[], ?::int[], ?::text[], ?::timestamptz[]) as t(id, ${MESSAGE_UNNESTED.slice(2)}`;

/** A large send's lean rows, each taking its message's id from the column's default in the file's order. */
const COPY_STAGED_SQL = 'copy campaign_recipients (campaign_id, position, recipient, variables, dedupe_key, status_code) from stdin';

/** A join's update of the day campaign in a single statement, answering its id only where it still takes sends and the guard let the send through. */
const JOIN_CAMPAIGN_SQL = (guardSql: string) => `update campaigns set total_recipients = total_recipients + ?, billable_count = billable_count + ?, duplicate_count = duplicate_count + ?,
    invalid_count = invalid_count + ?, suppressed_count = suppressed_count + ?, total_cost_units = total_cost_units + ?,
    status = ${REOPENED_STATUS_SQL}, completed_at = ${REOPENED_COMPLETED_AT_SQL}, updated_at = ?
  where id = ? and api_day is not null and ${guardSql} returning id`;

/** A single statement's answer: what the debit left. */
const ONE_STATEMENT_ANSWER_SQL = 'select credit_balance as balance, low_balance_threshold_units as threshold from wallet_debit';

/** A join debits only where the day campaign took the send: otherwise the debit changes no row and the statement fails as a whole. */
const JOINED_CONDITION_SQL = 'exists (select 1 from campaign)';

export class PostgresAcceptanceStore extends KnexAcceptanceStore {
  readonly lookupChunk = LOOKUP_CHUNK;
  readonly oneStatement: OneStatementStore;

  constructor(private readonly deps: { db: Knex; wallet: Pick<WalletService, 'campaignDebitStatementParts'> }) {
    super(deps.db);
    this.oneStatement = {
      maxRecipients: ONE_STATEMENT_MAX_RECIPIENTS,
      readAtOnce: (read) => this.readAtOnce(read),
      write: (write) => this.writeInOneStatement(write),
    };
  }

  async lockDuplicates(trx: Knex.Transaction, userId: number, templateId: number, keys: readonly string[] | null): Promise<void> {
    await lockDuplicates(trx, userId, templateId, keys);
  }

  async probeKeys(db: Knex, probe: DuplicateProbe, found: Set<string>): Promise<Set<string>> {
    const { keys, recipients } = probe;
    for (let start = 0; start < keys.length; start += LOOKUP_CHUNK) {
      const to = recipients.slice(start, start + LOOKUP_CHUNK).map((recipient) => recipient.to);
      const query = pgDuplicateProbe({ userId: probe.userId, templateId: probe.templateId, to, keys: keys.slice(start, start + LOOKUP_CHUNK), since: probe.since });
      const { rows } = (await db.raw(query.sql, query.bindings)) as { rows: Record<string, string>[] };
      for (const row of rows) found.add((row.dedupeKey ?? row.dedupe_key) as string);
    }
    return found;
  }

  protected async suppressedAmong(db: Knex, userId: number, recipients: string[]): Promise<string[]> {
    const { rows } = (await db.raw(SUPPRESSED_AMONG_SQL, [userId, recipients])) as { rows: { recipient: string }[] };
    return rows.map((row) => row.recipient);
  }

  /**
   * One unnest() statement per `INSERT_CHUNK` rows on the transaction's own connection (knex would
   * compile a query per chunk); each chunk's queued rows get their jobs before the next.
   */
  async insertMessages(trx: Knex.Transaction, batch: MessageBatch): Promise<number[] | undefined> {
    const { campaignId, userId, nowIso, recipients, jobs } = batch;
    const ids: number[] | undefined = batch.returnIds ? [] : undefined;
    const client = (await (trx.client as unknown as { acquireConnection(): Promise<unknown> }).acquireConnection()) as { query(text: string, values: unknown[]): Promise<{ rows: unknown[] }> };
    for (let start = 0; start < recipients.length; start += INSERT_CHUNK) {
      const end = Math.min(recipients.length, start + INSERT_CHUNK);
      const values = [campaignId, userId, nowIso, ...messageArrays(batch, start, end)];
      if (!jobs && !ids) {
        await client.query(INSERT_MESSAGES_SQL, values);
        continue;
      }
      const { rows } = await client.query(INSERT_MESSAGES_RETURNING_SQL(ids !== undefined), values);
      const answer = rows[0] as { queued?: (number | string)[] | null; every?: (number | string)[] | null } | undefined;
      for (const id of answer?.every ?? []) ids?.push(Number(id));
      const queued = (answer?.queued ?? []).map(Number);
      if (jobs && queued.length > 0) await jobs.enqueue(trx, queued);
    }
    return ids;
  }

  /** One COPY fed a chunk of text at a time (the materialiser then writes chunks side by side). */
  async insertStaged(trx: Knex.Transaction, batch: StagedBatch): Promise<void> {
    const { campaignId, recipients, keys, statusCodes, firstPosition } = batch;
    const connection = (await (trx.client as unknown as { acquireConnection(): Promise<unknown> }).acquireConnection()) as { query<T extends NodeJS.WritableStream>(stream: T): T };
    async function* text(): AsyncGenerator<string> {
      for (let start = 0; start < recipients.length; start += STAGED_COPY_CHUNK) {
        const end = Math.min(recipients.length, start + STAGED_COPY_CHUNK);
        let chunk = '';
        for (let i = start; i < end; i++) {
          const recipient = recipients[i] as RecipientRow;
          const variables = variablesOf(recipient);
          chunk += `${campaignId}\t${firstPosition + i}\t${copyText(recipient.to)}\t${variables === null ? '\\N' : copyText(variables)}\t${keys.at(i)}\t${statusCodes[i] as number}\n`;
        }
        yield chunk;
      }
    }
    await pipeline(Readable.from(text()), connection.query(copyFrom(COPY_STAGED_SQL)));
  }

  private async readAtOnce(read: Parameters<OneStatementStore['readAtOnce']>[0]): Promise<AtOnceReads> {
    const { userId, recipients, keys } = read;
    const to = recipients.map((recipient) => recipient.to);
    const probe = pgDuplicateProbe({ userId, templateId: read.templateId, to, keys: keys.slice(0, keys.length), since: read.since });
    // Prepared: PostgreSQL parsed and planned it at every round otherwise.
    const { rows } = (await asPrepared(this.db.raw(READ_AT_ONCE_SQL(probe.sql), [...probe.bindings, userId, to, recipients.length, read.priceQuery]))) as { rows: AtOnceRow[] };
    const row = rows[0];
    if (!row) throw new Error('the reads of a send answered no row');
    return {
      price: row.mode === null ? undefined : { pricingMode: row.mode, defaultUnits: row.standard ?? 0, customUnits: row.custom },
      blocked: row.blocked,
      suppressed: row.suppressed,
      campaignId: Number(row.campaign),
      messageIds: row.messages.map(Number),
    };
  }

  /**
   * The debit, its ledger row, the campaign, its messages and their queue jobs as one statement,
   * atomic without `BEGIN` and `COMMIT` (db/singleStatement.ts): a transaction costs seven round
   * trips one after another, and a group commit's requests each wait for all of them.
   */
  private async writeInOneStatement(write: OneStatementWrite): Promise<WalletAfterDebit> {
    const { joinId, figures, statusCodes, keys, recipients } = write;
    // The messages to be queued, looked for again by the guard under the send's locks, before the
    // debit locks the wallet's row.
    const queuedTo: string[] = [];
    const queuedKeys: string[] = [];
    statusCodes.forEach((code, i) => {
      if (code !== 0) return;
      queuedTo.push((recipients[i] as RecipientRow).to);
      queuedKeys.push(keys.at(i));
    });
    // The guard looks past the statement's own campaign: a join's is the day campaign's fresh id,
    // which no message has, so the day campaign's earlier messages still block their repeats.
    const guard = duplicateGuardPart({ userId: write.userId, templateId: write.templateId, campaignId: write.newCampaignId, recipients: queuedTo, keys: queuedKeys, since: write.since });
    const campaignId = joinId ?? write.newCampaignId;
    const { debit, ledger } = this.deps.wallet.campaignDebitStatementParts(write.debit, joinId !== undefined ? { sql: JOINED_CONDITION_SQL, bindings: [] } : guard);
    // A join's guard runs in the campaign's update, before its row is locked: the locks come in
    // the order of the transaction path (the send's locks, the campaign's row, the wallet's row).
    const campaign = joinId !== undefined ? joinPart(joinId, figures, guard) : insertPart(this.db, 'campaigns', { id: write.newCampaignId, ...write.campaignRow });
    const messages: StatementPart = {
      sql: INSERT_MESSAGES_WITH_IDS_SQL,
      bindings: [campaignId, write.userId, write.nowIso, write.nowIso, write.messageIds, ...messageArrays({ recipients, keys, statusCodes, priceUnits: figures.priceUnits, dueIso: write.nowIso }, 0, recipients.length)],
    };
    const jobs = await write.jobs.enqueueStatement(write.messageIds.filter((_, i) => statusCodes[i] === 0));
    // A join's debit reads the campaign's update, which must come first among the statement's parts.
    const statement = singleStatement(
      joinId !== undefined
        ? [
            ['campaign', campaign],
            ['wallet_debit', debit],
            ['wallet_ledger', ledger],
            ['message', messages],
            ['job', jobs],
          ]
        : [
            ['wallet_debit', debit],
            ['wallet_ledger', ledger],
            ['campaign', campaign],
            ['message', messages],
            ['job', jobs],
          ],
      ONE_STATEMENT_ANSWER_SQL,
    );
    const [wallet] = await runSingleStatement<{ balance: number | string; threshold: number | string | null }>(this.db, statement, { prepared: true });
    if (!wallet) throw new Error(`campaign ${campaignId}: the debit answered no balance`);
    return { balanceUnits: Number(wallet.balance), lowBalanceThresholdUnits: wallet.threshold === null ? null : Number(wallet.threshold) };
  }
}

/** A join's update of the day campaign as a part of the single statement. */
function joinPart(campaignId: number, figures: CampaignFigures, guard: StatementPart): StatementPart {
  return {
    sql: JOIN_CAMPAIGN_SQL(guard.sql),
    bindings: [
      figures.totalRecipients,
      figures.billableCount,
      figures.duplicateCount,
      figures.invalidCount,
      figures.suppressedCount,
      figures.totalCostUnits,
      figures.updatedAt,
      campaignId,
      ...guard.bindings,
    ],
  };
}

/** Rows `start` to `end` of a send as the arrays the unnest() inserts take, in `MESSAGE_UNNESTED` order. */
function messageArrays(
  rows: { recipients: readonly RecipientRow[]; keys: DedupeKeys; statusCodes: Uint8Array; priceUnits: number; dueIso: string },
  start: number,
  end: number,
): [string[], string[], number[], (string | null)[], string[], (number | null)[], (string | null)[], (string | null)[]] {
  const { recipients, keys, statusCodes, priceUnits, dueIso } = rows;
  const to: string[] = [];
  const statuses: string[] = [];
  const prices: number[] = [];
  const variables: (string | null)[] = [];
  const dedupe: string[] = [];
  const errorCodes: (number | null)[] = [];
  const errorMessages: (string | null)[] = [];
  const nextAttempts: (string | null)[] = [];
  for (let i = start; i < end; i++) {
    const code = statusCodes[i] as number;
    const recipient = recipients[i] as RecipientRow;
    to.push(recipient.to);
    statuses.push(statusOf(code));
    prices.push(code === 0 ? priceUnits : 0);
    variables.push(variablesOf(recipient));
    dedupe.push(keys.at(i));
    errorCodes.push(code === 2 ? OPTED_OUT_ERROR_CODE : null);
    errorMessages.push(errorOf(code));
    nextAttempts.push(code === 0 ? dueIso : null);
  }
  return [to, statuses, prices, variables, dedupe, errorCodes, errorMessages, nextAttempts];
}

/** A value in COPY's text format: backslash, tab and line breaks escaped. */
function copyText(value: string): string {
  return /[\\\t\n\r]/.test(value) ? value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : value;
}
