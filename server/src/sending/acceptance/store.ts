/**
 * Where acceptance reads and writes. `CampaignAcceptance` (campaignAcceptance.ts) is the rule:
 * price, screen, classify, check the balance, write, announce. How each step reaches the database
 * differs by database and lives behind this interface, chosen once in container.ts:
 * - `PostgresAcceptanceStore` (postgresStore.ts): advisory locks against a send of the same
 *   messages at the same moment, unnest() inserts, COPY staging, and a small send read and written
 *   as single statements;
 * - `SqliteAcceptanceStore` (sqliteStore.ts): prepared multi-row inserts on the one connection.
 * What both write alike (the campaign's row, the public API's day campaign, opt-outs, earlier
 * campaigns' keys) is `KnexAcceptanceStore`'s, below.
 */
import type { Knex } from 'knex';
import type { WalletAfterDebit, CampaignDebitInput } from '../../wallet/service';
import type { Enqueuer } from '../dispatchJobs';
import { KeySet, type DedupeKeys } from './dedupeKeys';
import { BLOCKING_STATUSES_SQL, type RecipientRow } from './messageRows';

/** The campaign row's fields that follow from what was accepted. */
export interface CampaignFigures {
  status: 'completed' | 'scheduled' | 'running';
  scheduledAt: string | null;
  totalRecipients: number;
  billableCount: number;
  duplicateCount: number;
  invalidCount: number;
  suppressedCount: number;
  totalCostUnits: number;
  updatedAt: string;
  completedAt: string | null;
}

/** A campaign's row as acceptance writes it. */
export type CampaignRowValues = Record<string, unknown>;

/** Message rows of one send (or one chunk of it), with what every row of the campaign shares. */
export interface MessageBatch {
  campaignId: number;
  userId: number;
  priceUnits: number;
  nowIso: string;
  /** When the queued rows are first due: now, or the scheduled time. */
  dueIso: string;
  /** The queue's jobs for the queued rows, in the same transaction; null: none now (SQLite, a scheduled campaign). */
  jobs: Pick<Enqueuer, 'enqueue'> | null;
  /** Answer every row's id in input order. */
  returnIds: boolean;
  recipients: readonly RecipientRow[];
  keys: DedupeKeys;
  statusCodes: Uint8Array;
}

/** A large send's recipients as lean rows (`campaign_recipients`), from this place in the send on. */
export interface StagedBatch {
  campaignId: number;
  recipients: readonly RecipientRow[];
  keys: DedupeKeys;
  statusCodes: Uint8Array;
  firstPosition: number;
}

/** Which of these recipients' keys an earlier message blocks, since the window's start. */
export interface DuplicateProbe {
  userId: number;
  templateId: number;
  recipients: readonly RecipientRow[];
  keys: DedupeKeys;
  since: string;
}

/** The reads of a small send written as one statement, as one statement too. */
export interface AtOnceReads {
  /** The user's price's parts; undefined: no such user. */
  price: { pricingMode: 'default' | 'custom'; defaultUnits: number | string; customUnits: number | string | null } | undefined;
  blocked: string[];
  suppressed: string[];
  /** Ids taken from the sequences for the campaign and each message, in input order. */
  campaignId: number;
  messageIds: number[];
}

/** A small send's debit, ledger row, campaign, messages and queue jobs, as one statement. */
export interface OneStatementWrite {
  userId: number;
  templateId: number;
  /** The campaign id taken beforehand (a join's guard looks past it: no message has it). */
  newCampaignId: number;
  /** The public API's day campaign this send joins, if it does. */
  joinId: number | undefined;
  campaignRow: CampaignRowValues;
  figures: CampaignFigures & { priceUnits: number };
  debit: CampaignDebitInput & { at: Date };
  messageIds: readonly number[];
  nowIso: string;
  since: string;
  recipients: readonly RecipientRow[];
  keys: DedupeKeys;
  statusCodes: Uint8Array;
  jobs: Pick<Enqueuer, 'enqueueStatement'>;
}

/** A store that can read and write a small send as single statements (PostgreSQL). */
export interface OneStatementStore {
  /** Sends of at most this many recipients are written so. */
  readonly maxRecipients: number;
  readAtOnce(read: { userId: number; templateId: number; priceQuery: Knex.QueryBuilder | Knex.Raw; recipients: readonly RecipientRow[]; keys: DedupeKeys; since: string }): Promise<AtOnceReads>;
  /** Refused as a whole where the wallet no longer covers the debit or another send took a message meanwhile. */
  write(write: OneStatementWrite): Promise<WalletAfterDebit>;
}

export interface AcceptanceStore {
  /** Single-statement acceptance of small sends, where the database has it. */
  readonly oneStatement: OneStatementStore | null;
  /** Keys of a send looked up at once (beyond, earlier campaigns are asked about first). */
  readonly lookupChunk: number;
  /** Keeps a send of the same messages at the same moment waiting until `trx` ends (`keys`: a small group's; null: the whole send). */
  lockDuplicates(trx: Knex.Transaction, userId: number, templateId: number, keys: readonly string[] | null): Promise<void>;
  /** Adds the blocked keys among the probe's to `found`. */
  probeKeys(db: Knex, probe: DuplicateProbe, found: Set<string>): Promise<Set<string>>;
  /** The recipients among these who opted out of the user's messages. */
  suppressedRecipients(db: Knex, userId: number, recipients: readonly RecipientRow[]): Promise<Set<string>>;
  /** Whether the user has any opt-out at all. */
  anySuppression(db: Knex, userId: number): Promise<boolean>;
  /**
   * The blocking keys of this user's earlier campaigns of the template in the window, when there
   * are at most `limit` earlier messages (an empty set when there are none); 'probe' when more.
   */
  earlierKeys(db: Knex, userId: number, templateId: number, since: string, limit: number): Promise<KeySet | 'probe'>;
  insertMessages(trx: Knex.Transaction, batch: MessageBatch): Promise<number[] | undefined>;
  insertStaged(trx: Knex.Transaction, batch: StagedBatch): Promise<void>;
  insertCampaign(trx: Knex, row: CampaignRowValues): Promise<number>;
  /** Adds a send's figures to a day campaign of the public API; false where it no longer takes sends. */
  joinCampaign(trx: Knex.Transaction, campaignId: number, figures: CampaignFigures): Promise<boolean>;
  updateCampaign(trx: Knex.Transaction, campaignId: number, values: Partial<CampaignFigures> & { stagedRecipients?: number }): Promise<void>;
  /** The public API's day campaign with these keys, if made. */
  findDayCampaign(where: { userId: number; apiKeyId: number; templateId: number; senderNumberId: number; apiDay: string }): Promise<number | null>;
  /** Makes it; a concurrent maker's row wins, silently. */
  insertDayCampaign(row: CampaignRowValues): Promise<void>;
  /** Whether a day campaign of the public API still takes sends. */
  takesSends(campaignId: number): Promise<boolean>;
  /** A scheduled campaign's queued messages due now; answers their ids where `withIds` (for their jobs), else only how many. */
  releaseScheduled(trx: Knex.Transaction, campaignId: number, nowIso: string, withIds: boolean): Promise<{ count: number; ids: number[] }>;
}

/** A day campaign whose status is `completed` runs again when a send queues a message in it. */
export const REOPENED_STATUS_SQL = "case when status = 'completed' then 'running' else status end";
export const REOPENED_COMPLETED_AT_SQL = "case when status = 'completed' then null else completed_at end";

/** `earlierKeys`' read of one earlier campaign: its blocking messages and its rows still staged (which count as queued). */
const EARLIER_CAMPAIGN_KEYS_SQL = `select dedupe_key from messages where campaign_id = ? and status in (${BLOCKING_STATUSES_SQL}) and created_at >= ?
  union all select dedupe_key from campaign_recipients where campaign_id = ? and status_code = 0`;

/** What both stores write and read alike, through knex. */
export abstract class KnexAcceptanceStore implements AcceptanceStore {
  abstract readonly oneStatement: OneStatementStore | null;
  abstract readonly lookupChunk: number;

  constructor(protected readonly db: Knex) {}

  abstract lockDuplicates(trx: Knex.Transaction, userId: number, templateId: number, keys: readonly string[] | null): Promise<void>;
  abstract probeKeys(db: Knex, probe: DuplicateProbe, found: Set<string>): Promise<Set<string>>;
  abstract insertMessages(trx: Knex.Transaction, batch: MessageBatch): Promise<number[] | undefined>;
  abstract insertStaged(trx: Knex.Transaction, batch: StagedBatch): Promise<void>;
  /** The opted-out recipients among one lookup's worth. */
  protected abstract suppressedAmong(db: Knex, userId: number, recipients: string[]): Promise<string[]>;

  async anySuppression(db: Knex, userId: number): Promise<boolean> {
    return (await db('suppressions').where({ userId }).first('id')) !== undefined;
  }

  async suppressedRecipients(db: Knex, userId: number, recipients: readonly RecipientRow[]): Promise<Set<string>> {
    const found = new Set<string>();
    if (!(await this.anySuppression(db, userId))) return found;
    for (let start = 0; start < recipients.length; start += this.lookupChunk) {
      const chunk = recipients.slice(start, start + this.lookupChunk).map((r) => r.to);
      for (const recipient of await this.suppressedAmong(db, userId, chunk)) found.add(recipient);
    }
    return found;
  }

  async earlierKeys(db: Knex, userId: number, templateId: number, since: string, limit: number): Promise<KeySet | 'probe'> {
    const earlier = new KeySet();
    const recentCampaigns = () => db('campaigns').where({ userId, templateId }).where('createdAt', '>=', since);
    const [totals] = (await recentCampaigns().count({ campaigns: '*' }).sum({ earlier: 'totalRecipients' })) as { campaigns: number | string; earlier: number | string | null }[];
    if (!totals || Number(totals.campaigns) === 0) return earlier;
    if (Number(totals.earlier ?? 0) > limit) return 'probe';
    for (const campaign of (await recentCampaigns().select('id')) as { id: number }[]) {
      // One statement reads both tables at one moment: the materialiser moves rows from one to
      // the other in transactions of its own.
      const result = (await db.raw(EARLIER_CAMPAIGN_KEYS_SQL, [campaign.id, since, campaign.id])) as Record<string, string>[] | { rows: Record<string, string>[] };
      for (const row of Array.isArray(result) ? result : result.rows) earlier.add((row.dedupeKey ?? row.dedupe_key) as string);
    }
    return earlier;
  }

  async insertCampaign(trx: Knex, row: CampaignRowValues): Promise<number> {
    const [inserted] = (await trx('campaigns').insert(row).returning('id')) as ({ id: number } | number)[];
    return typeof inserted === 'object' && inserted !== null ? inserted.id : (inserted as number);
  }

  async joinCampaign(trx: Knex.Transaction, campaignId: number, figures: CampaignFigures): Promise<boolean> {
    const add = (column: string, value: number) => trx.raw(`${column} + ?`, [value]);
    const changed = await trx('campaigns')
      .where({ id: campaignId })
      .whereNotNull('apiDay')
      .update({
        totalRecipients: add('total_recipients', figures.totalRecipients),
        billableCount: add('billable_count', figures.billableCount),
        duplicateCount: add('duplicate_count', figures.duplicateCount),
        invalidCount: add('invalid_count', figures.invalidCount),
        suppressedCount: add('suppressed_count', figures.suppressedCount),
        totalCostUnits: add('total_cost_units', figures.totalCostUnits),
        ...(figures.billableCount > 0 ? { status: trx.raw(REOPENED_STATUS_SQL), completedAt: trx.raw(REOPENED_COMPLETED_AT_SQL) } : {}),
        updatedAt: figures.updatedAt,
      });
    return changed > 0;
  }

  async updateCampaign(trx: Knex.Transaction, campaignId: number, values: Partial<CampaignFigures> & { stagedRecipients?: number }): Promise<void> {
    await trx('campaigns').where({ id: campaignId }).update(values);
  }

  async findDayCampaign(where: { userId: number; apiKeyId: number; templateId: number; senderNumberId: number; apiDay: string }): Promise<number | null> {
    const found = (await this.db('campaigns').where(where).first('id')) as { id: number | string } | undefined;
    return found ? Number(found.id) : null;
  }

  async insertDayCampaign(row: CampaignRowValues): Promise<void> {
    // The member who made the key answers for what it sends (null for a key older than teams).
    const actorUserId = row.apiKeyId ? this.db('api_keys').where({ id: row.apiKeyId }).select('actorUserId') : null;
    await this.db('campaigns')
      .insert({ ...row, actorUserId })
      .onConflict(['userId', 'apiKeyId', 'templateId', 'senderNumberId', 'apiDay'])
      .ignore();
  }

  async takesSends(campaignId: number): Promise<boolean> {
    return (await this.db('campaigns').where({ id: campaignId }).whereNotNull('apiDay').first('id')) !== undefined;
  }

  async releaseScheduled(trx: Knex.Transaction, campaignId: number, nowIso: string, withIds: boolean): Promise<{ count: number; ids: number[] }> {
    const count = await trx('messages').where({ campaignId, status: 'queued' }).update({ nextAttemptAt: nowIso });
    if (!withIds || count === 0) return { count, ids: [] };
    const rows = (await trx('messages').where({ campaignId, status: 'queued' }).orderBy('id').select('id')) as { id: number }[];
    return { count, ids: rows.map((row) => Number(row.id)) };
  }
}
