/**
 * The contact book kept from what the account sends and receives, off the send path: acceptance
 * writes only message rows, and this worker then records each campaign's recipients as contacts
 * (created when new; the sent count and the last message time moved), a batch of messages at a
 * time, one statement per batch (docs/decisions/2026-12-07-contacts-from-sends.md). Replies are
 * few and arrive in the conversations' own batches, so they are recorded there, by
 * {@link recordReplies}.
 *
 * A campaign is due while it has no staged rows left to write and the recipients recorded fall
 * short of its recipients; its mark (`contacts_last_message_id`) moves in the same transaction as
 * the batch, so a batch is recorded once. A campaign the public API keeps adding to each day is
 * due again as its recipient count grows.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { forUpdateIfSupported, forUpdateSkipLocked } from '../db/dialect';
import { OutageLog } from '../db/outage';
import type { Logger } from '../logger';
import { PollingWorker } from '../pollingWorker';
import { anyCampaignStaged } from '../sending/acceptance/stagedRows';
import { withConflictRetry, type MessageStatusChanges } from '../sending/messageOutcomes';
import { attributeColumn } from './segmentSql';

/** Messages read per batch: the grouped upsert of 5,000 contacts is one statement on either database. */
const BATCH_MESSAGES = 5_000;
/** With nothing due, look again this often. */
const IDLE_POLL_MS = 1_000;

/**
 * A campaign's messages in an id range, read along the primary key: the unary plus keeps either
 * database off the (campaign, status) index, which would visit every message of the campaign for
 * each batch, and a public-API campaign takes a batch every few hundred sends all day.
 */
const CAMPAIGN_ID_RANGE = '+m.campaign_id = ? and m.id > ? and m.id <= ?';

/** The next batch of a campaign's messages past its mark (bindings: the campaign, the mark, the batch size). */
export const NEXT_BATCH_SQL = `select max(id) as "upTo", count(*) as "messages"
  from (select m.id from messages m where +m.campaign_id = ? and m.id > ? order by m.id limit ?) batch`;

/** Message fates that never reached the contact: not counted as sent, no last-message time. */
const NOT_SENT_STATUSES = "('duplicate', 'suppressed')";

/**
 * One batch of a campaign's messages as contacts (bindings: now twice, the campaign, after, up to).
 * `on conflict` on the (owner, number) key works alike on SQLite and PostgreSQL; the `where`
 * before it keeps SQLite's parser from reading `on` as a join's.
 */
export const RECORD_SENDS_SQL = `insert into contacts (user_id, phone, sent_count, last_message_at, created_at, updated_at)
  select m.user_id, m.recipient,
    sum(case when m.status in ${NOT_SENT_STATUSES} then 0 else 1 end),
    max(case when m.status in ${NOT_SENT_STATUSES} then null else m.created_at end), ?, ?
  from messages m where ${CAMPAIGN_ID_RANGE}
  group by m.user_id, m.recipient
  on conflict (user_id, phone) do update set
    sent_count = contacts.sent_count + excluded.sent_count,
    last_message_at = case when contacts.last_message_at is null or contacts.last_message_at < excluded.last_message_at
      then excluded.last_message_at else contacts.last_message_at end,
    updated_at = excluded.updated_at`;

/** Contacts written by one reply statement: a few hundred rows of seven bindings each, well inside either database's limit. */
const REPLY_CONTACTS_PER_STATEMENT = 500;

/**
 * A chunk of a reply batch's contacts, one row each (bindings per row: owner, number, name, count,
 * time, now, now); the batch groups by contact first, so no row meets another of its statement.
 */
const recordRepliesSql = (rows: number) => `insert into contacts (user_id, phone, name, replied_count, last_replied_at, created_at, updated_at)
  values ${Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}
  on conflict (user_id, phone) do update set
    name = coalesce(contacts.name, excluded.name),
    replied_count = contacts.replied_count + excluded.replied_count,
    last_replied_at = case when contacts.last_replied_at is null or contacts.last_replied_at < excluded.last_replied_at
      then excluded.last_replied_at else contacts.last_replied_at end,
    updated_at = excluded.updated_at`;

/**
 * Delivered or read messages counted on their contacts (bindings: now twice, then the message ids).
 * An upsert, not an update: a status can overtake the worker's recording of the campaign, and the
 * contact it creates then takes its sent count from that recording.
 */
function recordStatusSql(column: 'delivered_count' | 'read_count', ids: number): string {
  return `insert into contacts (user_id, phone, ${column}, created_at, updated_at)
  select m.user_id, m.recipient, count(*), ?, ? from messages m where m.id in (${new Array(ids).fill('?').join(', ')})
  group by m.user_id, m.recipient
  on conflict (user_id, phone) do update set ${column} = contacts.${column} + excluded.${column}, updated_at = excluded.updated_at`;
}

/** Message ids per counting statement: within either database's bound-parameter limit. */
const STATUS_IDS_PER_STATEMENT = 900;

/**
 * Counts the messages that just became delivered or read on their contacts, inside the
 * transaction that moves them: the changes are transitions (a repeated webhook moves nothing), so
 * each is counted once, and one grouped statement per status and batch of ingested events is all
 * it costs (docs/decisions/2026-12-07-contact-delivery-counts.md). A savepoint keeps a failure
 * here from undoing the status write it follows.
 */
export async function recordDeliveries(trx: Knex.Transaction, changes: MessageStatusChanges, now: Date, log: Logger): Promise<void> {
  const wanted = changes.filter((change) => (change.status === 'delivered' || change.status === 'read') && change.messageIds.length > 0);
  if (wanted.length === 0) return;
  const nowIso = now.toISOString();
  try {
    await trx.transaction(async (savepoint) => {
      for (const change of wanted) {
        const column = change.status === 'delivered' ? 'delivered_count' : 'read_count';
        // In id order, as the status write locked the messages.
        const ids = [...change.messageIds].sort((a, b) => a - b);
        for (let start = 0; start < ids.length; start += STATUS_IDS_PER_STATEMENT) {
          const chunk = ids.slice(start, start + STATUS_IDS_PER_STATEMENT);
          await savepoint.raw(recordStatusSql(column, chunk.length), [nowIso, nowIso, ...chunk]);
        }
      }
    });
  } catch (error) {
    log.warn({ err: error }, 'contact delivery counts not recorded for a status batch');
  }
}

/** A text, number or date value as its attribute's slot holds it, or null when it cannot be. */
function slotValue(type: string, value: string): string | number | null {
  const text = value.trim();
  if (text === '') return null;
  if (type === 'name') return text.slice(0, 200);
  if (type === 'number') {
    const parsed = Number(text.replace(/,/g, ''));
    return Number.isFinite(parsed) ? parsed : null;
  }
  if (type === 'date') return /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : null;
  return text.slice(0, 500);
}

/** Bound parameters per attribute statement: under SQLite's limit, and PostgreSQL's. */
const ATTRIBUTE_BINDINGS = 30_000;

interface DueCampaign {
  id: number | string;
  contactsLastMessageId: number | string;
  contactsRecorded: number | string;
  totalRecipients: number | string;
  userId: number | string;
  contactAttributes: string | null;
}

/** An incoming message as the reply batch holds it. */
export interface RecordedReply {
  userId: number | string;
  contact: string;
  direction: string;
  profileName: string | null;
  occurredAt: string | Date;
}

/**
 * Records a batch of incoming messages on their senders' contacts, inside the caller's
 * transaction: created when new (named by their WhatsApp profile), the reply count and the last
 * reply time moved. Outgoing rows are left out.
 */
export async function recordReplies(trx: Knex | Knex.Transaction, rows: readonly RecordedReply[], now: Date): Promise<void> {
  const groups = new Map<string, { userId: number; contact: string; name: string | null; count: number; at: string }>();
  for (const row of rows) {
    if (row.direction !== 'in') continue;
    const key = `${row.userId}:${row.contact}`;
    const at = new Date(row.occurredAt).toISOString();
    const group = groups.get(key);
    if (!group) {
      groups.set(key, { userId: Number(row.userId), contact: row.contact, name: row.profileName, count: 1, at });
      continue;
    }
    group.count += 1;
    if (at > group.at) group.at = at;
    group.name = row.profileName ?? group.name;
  }
  const nowIso = now.toISOString();
  // A contact's number is the stored E.164 digits, as the conversation's is. One statement per
  // chunk, not per contact: the batch runs inside the transaction that applies incoming messages.
  const all = [...groups.values()];
  for (let start = 0; start < all.length; start += REPLY_CONTACTS_PER_STATEMENT) {
    const chunk = all.slice(start, start + REPLY_CONTACTS_PER_STATEMENT);
    await trx.raw(
      recordRepliesSql(chunk.length),
      chunk.flatMap((group) => [group.userId, group.contact, group.name, group.count, group.at, nowIso, nowIso]),
    );
  }
}

export class ContactActivity extends PollingWorker {
  private readonly failures: OutageLog;
  private readonly now: () => Date;

  constructor(private readonly deps: { db: Knex; log: Logger; batchMessages?: number; now?: () => Date }) {
    super(IDLE_POLL_MS);
    this.failures = new OutageLog(deps.log, 'recording sends on contacts');
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * Until no campaign is due (tests and the bench). It waits for a campaign another transaction
   * holds rather than passing it over: a status batch completing the campaign, or another
   * instance's turn, holds its row for a moment, and a drain that skipped it would return with the
   * campaign unrecorded.
   */
  async drain(): Promise<void> {
    while (await this.recordBatch({ waitForHeld: true }));
  }

  /**
   * Records one batch of one due campaign's messages; answers whether a campaign was due. The
   * worker's turns pass over a campaign held by another transaction (it is due again next turn).
   */
  async recordBatch(options: { waitForHeld?: boolean } = {}): Promise<boolean> {
    const limit = this.deps.batchMessages ?? BATCH_MESSAGES;
    // A status batch upserts contacts and then completes their campaign; this locks the campaign and
    // then upserts its contacts, so PostgreSQL may end one as a deadlock. The batch reads its mark
    // inside its transaction and moves it there, so running it again after the rollback is exact.
    return withConflictRetry(() => this.recordBatchOnce(limit, options.waitForHeld === true));
  }

  private recordBatchOnce(limit: number, waitForHeld: boolean): Promise<boolean> {
    const db = this.deps.db;
    return db.transaction(async (trx) => {
      let query = trx('campaigns')
        .where('stagedRecipients', 0)
        .where('contactsRecorded', '<', trx.ref('totalRecipients'))
        .orderBy('id')
        .first('id', 'userId', 'contactsLastMessageId', 'contactsRecorded', 'totalRecipients', 'contactAttributes');
      query = waitForHeld ? forUpdateIfSupported(query, db) : forUpdateSkipLocked(query, db);
      const campaign = (await query) as DueCampaign | undefined;
      if (!campaign) return false;
      const after = await this.startingMark(trx, campaign);
      const [batch] = rowsOf(
        await trx.raw(NEXT_BATCH_SQL, [Number(campaign.id), after, limit]),
      ) as { upTo: number | string | null; messages: number | string }[];
      const taken = Number(batch?.messages ?? 0);
      const total = Number(campaign.totalRecipients);
      if (taken === 0 || batch?.upTo === null || batch?.upTo === undefined) {
        await trx('campaigns').where('id', campaign.id).update({ contactsRecorded: total });
        return true;
      }
      const upTo = Number(batch.upTo);
      const nowIso = this.now().toISOString();
      await trx.raw(RECORD_SENDS_SQL, [nowIso, nowIso, Number(campaign.id), after, upTo]);
      if (campaign.contactAttributes) await this.rememberColumns(trx, campaign, after, upTo, nowIso);
      // A short batch took all there is; a full one leaves the campaign due for the next.
      const recorded = taken < limit ? total : Math.min(Number(campaign.contactsRecorded) + taken, total - 1);
      await trx('campaigns').where('id', campaign.id).update({ contactsLastMessageId: upTo, contactsRecorded: recorded });
      return true;
    });
  }

  /**
   * Where a campaign's batches start. A campaign not yet begun starts just before its first
   * message, found once through its own index (`id + 0` keeps PostgreSQL from walking the primary
   * key from the table's start to find it); the batches then read along the primary key from there.
   */
  private async startingMark(trx: Knex.Transaction, campaign: DueCampaign): Promise<number> {
    const mark = Number(campaign.contactsLastMessageId);
    if (mark > 0) return mark;
    const [first] = rowsOf(await trx.raw('select min(id + 0) as "firstId" from messages where campaign_id = ?', [Number(campaign.id)])) as { firstId: number | string | null }[];
    return first?.firstId === null || first?.firstId === undefined ? mark : Number(first.firstId) - 1;
  }

  /**
   * The values of a campaign's remembered columns, from one batch of its message rows, as the
   * attributes the sender chose (the definitions were made when the send was accepted). A
   * contact messaged twice in the batch keeps its latest row's values; a value its attribute's
   * type cannot hold is left out.
   */
  private async rememberColumns(trx: Knex.Transaction, campaign: DueCampaign, after: number, upTo: number, nowIso: string): Promise<void> {
    const ownerId = Number(campaign.userId);
    let mapping: Record<string, string>;
    try {
      mapping = JSON.parse(campaign.contactAttributes ?? '{}') as Record<string, string>;
    } catch {
      return;
    }
    const definitions = (await trx('contact_attributes').where('user_id', ownerId).whereIn('name', Object.values(mapping)).select('name', 'type', 'slot')) as { name: string; type: 'text' | 'number' | 'date'; slot: number | string }[];
    const targets = Object.entries(mapping).flatMap(([variable, name]): { variable: string; type: 'name' | 'text' | 'number' | 'date'; column: string }[] => {
      // A column remembered as `name` is the contact's own name, as `attr:name` reads it.
      if (name === 'name') return [{ variable, type: 'name', column: 'name' }];
      const definition = definitions.find((row) => row.name === name);
      return definition ? [{ variable, type: definition.type, column: attributeColumn({ type: definition.type, slot: Number(definition.slot) }) }] : [];
    });
    if (targets.length === 0) return;
    const rows = (await trx('messages as m')
      .whereRaw(CAMPAIGN_ID_RANGE, [Number(campaign.id), after, upTo])
      .whereNotIn('status', ['duplicate', 'suppressed'])
      .orderBy('id')
      .select('recipient', 'variables')) as { recipient: string; variables: string | null }[];
    const byPhone = new Map<string, (string | number | null)[]>();
    for (const row of rows) {
      let values: Record<string, unknown> = {};
      try {
        values = row.variables ? (JSON.parse(row.variables) as Record<string, unknown>) : {};
      } catch {
        continue;
      }
      byPhone.set(row.recipient, targets.map((target) => {
        const value = values[target.variable];
        return typeof value === 'string' ? slotValue(target.type, value) : null;
      }));
    }
    if (byPhone.size === 0) return;
    const columns = [...new Set(targets.map((target) => target.column))];
    // Two variables naming one attribute: the later one's value is the one kept.
    const columnIndex = columns.map((column) => targets.map((target) => target.column).lastIndexOf(column));
    const perRow = columns.length + 4;
    const rowsPerStatement = Math.max(1, Math.floor(ATTRIBUTE_BINDINGS / perRow));
    const entries = [...byPhone.entries()];
    const updates = columns.map((column) => `${column} = coalesce(excluded.${column}, contacts.${column})`).join(', ');
    for (let start = 0; start < entries.length; start += rowsPerStatement) {
      const chunk = entries.slice(start, start + rowsPerStatement);
      const placeholders = chunk.map(() => `(${new Array(perRow).fill('?').join(', ')})`).join(', ');
      const bindings = chunk.flatMap(([phone, values]) => [ownerId, phone, ...columnIndex.map((index) => values[index] ?? null), nowIso, nowIso]);
      await trx.raw(
        `insert into contacts (user_id, phone, ${columns.join(', ')}, created_at, updated_at) values ${placeholders}
          on conflict (user_id, phone) do update set ${updates}, updated_at = excluded.updated_at`,
        bindings,
      );
    }
  }

  protected async run(): Promise<void> {
    while (this.running) {
      let took = false;
      const started = performance.now();
      try {
        // A large send's rows being written come first: its figure would pay for this work.
        if (!(await anyCampaignStaged(this.deps.db))) took = await this.recordBatch();
        this.failures.recovered();
      } catch (error) {
        await this.pause.wait(Math.max(this.pause.ms, this.failures.failed(error)));
        continue;
      }
      // Rest as long as the batch took, so the dispatcher's writes keep at least half the time.
      if (took) await sleep(performance.now() - started, undefined, { ref: false });
      else await this.pause.wait();
    }
  }
}

/** Rows of a raw query on either driver (PostgreSQL answers `{rows}`, SQLite the array). */
function rowsOf(result: unknown): unknown[] {
  if (Array.isArray(result)) return result;
  return (result as { rows: unknown[] }).rows;
}
