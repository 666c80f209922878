import { hash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import type { Knex } from 'knex';
import { isPostgres } from '../db/knex';
import { messages as catalogue } from '@shared/messages';
import type { PriceCategory } from '@shared/pricing';
import { templateStatusLabel, USABLE_TEMPLATE_STATUSES } from '@shared/templates';
import { fillMessage } from '@shared/messages';
import { formatIndianNumber, unitsToRupees } from '@shared/money';
import { AppError } from '../errors';
import type { Template, User } from '../models';
import type { PricingService } from '../pricing/service';
import { isRefusedStatementDebit, type WalletAfterDebit, type WalletService } from '../wallet/service';
import { duplicateGuardPart, isDuplicateRace, lockDuplicates, MESSAGE_LOCKS_MAX } from './duplicateLocks';
import { asPrepared, insertPart, runSingleStatement, singleStatement, type StatementPart } from '../db/singleStatement';
import type { MessageRow } from '../db/rows/messages';

export interface RecipientRow {
  /** Digits with country code, already normalised; a row repeating another in number and values was screened out. */
  to: string;
  variables: Record<string, string>;
}

export interface AcceptCampaignInput {
  user: User;
  template: Template;
  senderNumberId: number;
  name: string;
  source: 'quick' | 'bulk' | 'custom' | 'api';
  recipients: readonly RecipientRow[];
  /** Entries of the request that were not phone numbers (counted, not stored). */
  invalidCount: number;
  /** Entries dropped as repeats within this send (the same number and values as an earlier one). */
  inSendDuplicates: number;
  headerMedia?: { type: 'image' | 'video' | 'document'; path: string; name?: string | null } | null;
  /**
   * Send later: accepted, priced and debited now; the campaign waits as `scheduled` and
   * its messages stay queued without queue jobs until ScheduledCampaigns starts it at this time.
   */
  scheduledAt?: Date | undefined;
  /** Answer each recipient's message id (the public send API's group commit answers every request with its own). */
  returnMessageIds?: boolean;
  /**
   * Add the recipients to this open campaign of the public API's day (`openApiDayCampaign`)
   * instead of making one: its figures grow, and it runs again if it had completed, in the
   * transaction (or statement) of the debit. Refused with `ApiDayCampaignClosed` once it stopped
   * taking sends (cancelled).
   */
  joinCampaignId?: number;
}

/** The public API's day campaign no longer takes sends (it was cancelled): a new one is opened. */
export class ApiDayCampaignClosed extends Error {
  constructor(readonly campaignId: number) {
    super(`campaign ${campaignId} no longer takes the API's sends`);
  }
}

/** Which day campaign of the public API a single send joins (see `openApiDayCampaign`). */
export interface ApiDayCampaignKey {
  user: User;
  template: Template;
  senderNumberId: number;
  apiKeyId: number;
  /** The Indian calendar day, YYYY-MM-DD. */
  day: string;
  headerMedia?: AcceptCampaignInput['headerMedia'];
}

/**
 * A send whose recipients arrive a chunk at a time (a send from an upload): each chunk is
 * classified before the next is read and written while it is, so at most two chunks are held,
 * never an array of the whole send.
 */
export interface StreamedCampaignInput extends Omit<AcceptCampaignInput, 'recipients' | 'invalidCount' | 'inSendDuplicates' | 'returnMessageIds'> {
  chunks: AsyncIterable<readonly RecipientRow[]>;
  /** Each chunk's fates (see `AcceptedCampaign.statusCodes`), in order, as soon as it is classified. */
  onClassified: (chunk: readonly RecipientRow[], statusCodes: Uint8Array) => void;
  /** Entries set aside before acceptance; read once every chunk has been read. */
  screenedOut: () => { invalidCount: number; inSendDuplicates: number };
}

/** `readAtOnce`'s row: the price's parts (null mode: no such user), the blocked keys, the opted-out recipients and the ids. */
interface AtOnceRow {
  mode: 'default' | 'custom' | null;
  standard: number | string | null;
  custom: number | string | null;
  blocked: string[];
  suppressed: string[];
  campaign: number | string;
  messages: (number | string)[];
}

/** A chunk's fates and Duplicate Blocked keys (see `CampaignAcceptance.classify`). */
interface ClassifiedChunk {
  keys: DedupeKeys;
  statusCodes: Uint8Array;
  billable: number;
  duplicates: number;
  suppressed: number;
}

/**
 * Called inside the accepting transaction with the ids of each inserted chunk of queued
 * messages: the PostgreSQL queue adapter turns them into pg-boss jobs in the same transaction.
 */
export type EnqueueHook = (trx: Knex.Transaction, messageIds: number[]) => Promise<void>;

/**
 * The same enqueue as a part of acceptance's single statement (see `acceptInOneStatement`): the
 * queue adapter's insert, not run, as SQL and bindings.
 */
export type EnqueueStatement = (messageIds: number[]) => Promise<StatementPart>;

export interface AcceptedCampaign {
  campaignId: number;
  /** Each recipient's fate, in input order: 0 queued, 1 Duplicate Blocked, 2 opted out (see classify). */
  statusCodes: Uint8Array;
  accepted: number;
  /** Duplicate Blocked recipients and the repeats within this send (`repeats`) together. */
  duplicates: number;
  /** Entries of this send that repeated an earlier one in number and values (screened out before acceptance). */
  repeats: number;
  invalid: number;
  suppressed: number;
  priceUnits: number;
  totalCostUnits: number;
  /** Set when the campaign waits for this time (`scheduled`). */
  scheduledAt?: Date;
  /** Each recipient's message id, in input order, when `returnMessageIds` asked for them. */
  messageIds?: number[];
  /** What the debit left, where the write answered it (one statement, PostgreSQL). */
  walletAfter?: WalletAfterDebit;
}

/** The stored status of each of acceptance's status codes (see `AcceptedCampaign.statusCodes`). */
export const ACCEPTED_STATUS_BY_CODE: readonly MessageRow['status'][] = ['queued', 'duplicate', 'suppressed'];

/** ACCEPTED_STATUS_BY_CODE as SQL over a staged row's `status_code` (campaign_recipients). */
export const STAGED_STATUS_SQL = `case status_code ${ACCEPTED_STATUS_BY_CODE.map((status, code) => `when ${code} then '${status}'`).join(' ')} end`;

/** Rows per INSERT statement on SQLite where their ids are not wanted. */
const SQLITE_ROWS_PER_INSERT = 200;
/** Rows per INSERT on PostgreSQL (one unnest statement per chunk; each chunk becomes queue jobs). */
const PG_INSERT_CHUNK = 5_000;
/**
 * Sends of at most this many recipients are written by one statement on PostgreSQL (see
 * `acceptInOneStatement`): their ids are taken from the sequences beforehand, one `nextval` each,
 * which a large send would feel (3.6 s a million, see
 * docs/decisions/2026-11-28-api-writes-in-one-statement.md) and a group commit does not.
 */
const ONE_STATEMENT_MAX_RECIPIENTS = 1_000;
/**
 * Sends of at least this many recipients (unless configured otherwise) are written as lean rows
 * into `campaign_recipients` and become message rows right after the commit (see `insertStaged`
 * and `sending/materialiser.ts`).
 */
export const STAGED_MIN_RECIPIENTS = 50_000;
/** Lean rows per INSERT on SQLite (six values each, under its 32,766 variables). */
const SQLITE_STAGED_ROWS_PER_INSERT = 500;
/** Lean rows per COPY chunk on PostgreSQL (text handed to the connection at a time). */
const PG_STAGED_COPY_CHUNK = 10_000;
/** Keys per lookup: IN (...) on SQLite (a Duplicate Blocked probe's two lists share it), = ANY($1) on PostgreSQL. */
const LOOKUP_CHUNK = 900;
const PG_LOOKUP_CHUNK = 10_000;
/**
 * A streamed send reads its earlier campaigns' keys into memory up to this many (about 80 MB);
 * beyond, each chunk's keys are probed in the index.
 */
const STREAM_EARLIER_KEYS_LOADED = 1_000_000;
/**
 * Earlier messages in these states block an identical one (a failed or cancelled message may be
 * sent again). `unknown` blocks: the provider may have taken the send, so the recipient may have it.
 */
export const BLOCKING_STATUSES: readonly MessageRow['status'][] = ['queued', 'sending', 'unknown', 'sent', 'delivered', 'read'];

interface CanonicalShape {
  /** The keys in sorted order. */
  sorted: string[];
  /** What precedes each key's value in the canonical text: `[["a",` then `],["b",` and so on. */
  prefixes: string[];
}

/** Each shape's sorted keys and their encoded prefixes, by the keys' own order joined: rows of one sheet share one shape. */
const shapes = new Map<string, CanonicalShape>();

/**
 * `JSON.stringify` of the `[key, value]` pairs in sorted key order (the stored key's format), built
 * without an array of pairs per row: a million-row send canonicalises a million values objects, so
 * only the values are encoded per row.
 */
function canonicalVariables(variables: Record<string, string>): string {
  const own = Object.keys(variables);
  if (own.length === 0) return '[]';
  const shapeKey = own.join('\u0000');
  let shape = shapes.get(shapeKey);
  if (shape === undefined) {
    const sorted = own.sort();
    shape = { sorted, prefixes: sorted.map((key, i) => `${i === 0 ? '[[' : '],['}${JSON.stringify(key)},`) };
    if (shapes.size >= 1_000) shapes.clear();
    shapes.set(shapeKey, shape);
  }
  let text = '';
  for (let i = 0; i < shape.sorted.length; i++) {
    const value = variables[shape.sorted[i] as string];
    // An undefined value is null inside an array, as JSON.stringify writes it.
    text += (shape.prefixes[i] as string) + (value === undefined ? 'null' : JSON.stringify(value));
  }
  return `${text}]]`;
}

/** Quick sends share one values object across every recipient: the last one canonicalised is remembered. */
let lastVariables: Record<string, string> | null = null;
let lastCanonical = '';

export function dedupeKey(userId: number, templateId: number, recipient: string, variables: Record<string, string>): string {
  return dedupeDigestHex(userId, templateId, recipient, variables).slice(0, 16);
}

/**
 * The SHA-256 of the key's definition as hex. `crypto.hash` with a text output is the one-shot
 * form: about 0.5 s for a million keys here, where a Hash object and a Buffer digest per row took
 * 2.3 s (the acceptance figure of docs/performance.md).
 */
function dedupeDigestHex(userId: number, templateId: number, recipient: string, variables: Record<string, string>): string {
  if (variables !== lastVariables) {
    lastCanonical = canonicalVariables(variables);
    lastVariables = variables;
  }
  return hash('sha256', `${userId}|${templateId}|${recipient}|${lastCanonical}`, 'hex');
}

/**
 * A campaign's Duplicate Blocked keys as their 8 bytes each in one buffer (8 MB for a million
 * recipients, where a million 16-character strings and their array took about 60 MB); a key is
 * written out as the stored hex only where a statement needs it.
 */
class DedupeKeys {
  private readonly bytes: Buffer;

  constructor(readonly length: number) {
    this.bytes = Buffer.allocUnsafe(length * 8);
  }

  set(index: number, userId: number, templateId: number, recipient: string, variables: Record<string, string>): void {
    this.bytes.write(dedupeDigestHex(userId, templateId, recipient, variables), index * 8, 8, 'hex');
  }

  at(index: number): string {
    return this.bytes.toString('hex', index * 8, index * 8 + 8);
  }

  /**
   * Whether the key at `index` is one of `set`'s, written out as text only where its prefix is one
   * of theirs: a million-row send checked against an earlier campaign's keys made a million
   * short-lived strings here, a few per cent of its acceptance's time.
   */
  isIn(index: number, set: KeySet): boolean {
    return set.prefixes.has(keyPrefix(this.bytes.readUInt32BE(index * 8))) && set.keys.has(this.at(index));
  }

  slice(start: number, end: number): string[] {
    const keys: string[] = [];
    for (let i = start; i < Math.min(end, this.length); i++) keys.push(this.at(i));
    return keys;
  }
}

/**
 * A key's first 30 bits, from its first four bytes: a small integer, which a Set holds without a
 * heap object each (a million earlier keys' prefixes took 21 MB, against 37 MB for 48 bits), and
 * which 1,000,000 earlier keys share with a new key about once in a thousand.
 */
function keyPrefix(firstFourBytes: number): number {
  return firstFourBytes >>> 2;
}

/** Stored Duplicate Blocked keys (hex) and their prefixes (`keyPrefix`), for `DedupeKeys.isIn`. */
class KeySet {
  readonly keys = new Set<string>();
  readonly prefixes = new Set<number>();

  get size(): number {
    return this.keys.size;
  }

  add(key: string): void {
    this.keys.add(key);
    this.prefixes.add(keyPrefix(Number.parseInt(key.slice(0, 8), 16)));
  }
}

export class CampaignAcceptance {
  private enqueue: EnqueueHook | null = null;
  private enqueueStatement: EnqueueStatement | null = null;

  /**
   * Given, inside the accepting transaction, a campaign complete as it is accepted (nothing in it
   * billable: every recipient Duplicate Blocked or opted out), as MessageOutcomes is given the
   * campaigns its writes complete: `campaign.completed` in the webhook outbox. The public API
   * answers such a send with its campaign id, so an integrator waits for that event. Must not fail
   * the transaction.
   */
  recordCampaignsCompleted: ((trx: Knex.Transaction, campaignIds: readonly number[]) => Promise<void>) | null = null;

  /** Told, after the commit, of a campaign complete as it is accepted (the owner's notification). */
  onCampaignsSettled: ((campaignIds: readonly number[]) => void) | null = null;

  /** Told, after the commit, of a campaign whose recipients wait in `campaign_recipients` (the materialiser wakes). */
  onStaged: ((campaignId: number) => void) | null = null;

  constructor(
    private readonly deps: {
      db: Knex;
      pricing: PricingService;
      wallet: WalletService;
      duplicateWindowHours: number;
      /** Sends of at least this many recipients are staged (`STAGED_MIN_RECIPIENTS` when unset). */
      stagedMinRecipients?: number;
      now?: () => Date;
    },
  ) {}

  /**
   * The queue adapter's enqueue of queued messages in a transaction (PostgreSQL's pg-boss jobs),
   * for message rows written after acceptance (the materialiser); nothing where the dispatcher
   * polls the table (SQLite).
   */
  async enqueueMessages(trx: Knex.Transaction, messageIds: number[]): Promise<void> {
    if (this.enqueue && messageIds.length > 0) await this.enqueue(trx, messageIds);
  }

  /** The queue adapter registers itself here (PostgreSQL); SQLite's dispatcher polls the table. */
  setEnqueueHook(hook: EnqueueHook | null): void {
    this.enqueue = hook;
  }

  /** The queue adapter's enqueue as a statement part, where it can give one (see `acceptInOneStatement`). */
  setEnqueueStatement(statement: EnqueueStatement | null): void {
    this.enqueueStatement = statement;
  }

  /**
   * A scheduled campaign starting (ScheduledCampaigns): its queued messages become due now, with
   * their queue jobs made in the same transaction, so a crash cannot leave them without jobs.
   */
  async releaseScheduled(trx: Knex.Transaction, campaignId: number): Promise<number> {
    const nowIso = this.now().toISOString();
    const count = await trx('messages').where({ campaignId, status: 'queued' }).update({ nextAttemptAt: nowIso });
    if (this.enqueue && count > 0) {
      const rows = (await trx('messages').where({ campaignId, status: 'queued' }).orderBy('id').select('id')) as { id: number }[];
      for (let start = 0; start < rows.length; start += PG_INSERT_CHUNK) {
        await this.enqueue(
          trx,
          rows.slice(start, start + PG_INSERT_CHUNK).map((row) => Number(row.id)),
        );
      }
    }
    return count;
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * The campaign the public API's single sends of one user, key, template, number and Indian day
   * join, made on first use. It starts completed and empty: the first send that queues a message
   * sets it running. The unique index on those columns makes two first calls at once, here or on
   * another instance, end in one campaign: the loser's insert is ignored and it reads the winner's.
   */
  async openApiDayCampaign(key: ApiDayCampaignKey): Promise<number> {
    const { user, template } = key;
    this.begin({ user, template });
    const nowIso = this.now().toISOString();
    const where = { userId: user.id, apiKeyId: key.apiKeyId, templateId: template.id, senderNumberId: key.senderNumberId, apiDay: key.day };
    const open = async () => (await this.deps.db('campaigns').where(where).first('id')) as { id: number | string } | undefined;
    const existing = await open();
    if (existing) return Number(existing.id);
    const priceUnits = await this.deps.pricing.effectiveFor(user.id, template.category.toLowerCase() as PriceCategory);
    const input = { user, template, senderNumberId: key.senderNumberId, name: apiDayCampaignName(template.name, key.day), source: 'api' as const, headerMedia: key.headerMedia ?? null, invalidCount: 0, inSendDuplicates: 0 };
    const figures = { priceUnits, ...campaignFigures({ count: 0, billable: 0, duplicates: 0, invalid: 0, suppressed: 0, priceUnits, nowIso, scheduledIso: null }) };
    await this.deps.db('campaigns')
      .insert({ ...campaignRow(input, figures), apiKeyId: key.apiKeyId, apiDay: key.day })
      .onConflict(['userId', 'apiKeyId', 'templateId', 'senderNumberId', 'apiDay'])
      .ignore();
    const made = await open();
    if (!made) throw new Error(`the API's day campaign of user ${user.id} was not made`);
    return Number(made.id);
  }

  /** Whether a day campaign of the public API still takes sends. */
  private async takesSends(campaignId: number): Promise<boolean> {
    return (await this.deps.db('campaigns').where({ id: campaignId }).whereNotNull('apiDay').first('id')) !== undefined;
  }

  /**
   * Adds a send's figures to the public API's day campaign inside the accepting transaction, and
   * sets it running again where it had completed and this send queues something.
   */
  private async joinCampaign(trx: Knex.Transaction, campaignId: number, figures: CampaignFigures): Promise<void> {
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
    if (changed === 0) throw new ApiDayCampaignClosed(campaignId);
  }

  async accept(input: AcceptCampaignInput): Promise<AcceptedCampaign> {
    const { user, template } = input;
    const { now, nowIso, scheduledIso } = this.begin(input);
    const category = template.category.toLowerCase() as PriceCategory;
    const recipients = input.recipients;
    const count = recipients.length;
    // A large send due now is written as lean rows; its message rows follow the commit.
    const staged = !scheduledIso && input.returnMessageIds !== true && count >= (this.deps.stagedMinRecipients ?? STAGED_MIN_RECIPIENTS);
    const keys = dedupeKeysOf(user.id, template.id, recipients);
    if (this.enqueueStatement !== null && !staged && !scheduledIso && count > 0 && count <= ONE_STATEMENT_MAX_RECIPIENTS) {
      try {
        const accepted = await this.acceptAsOneStatement(input, keys, { category, now, nowIso });
        if (accepted) return accepted;
      } catch (error) {
        // Another send accepted one of these messages between this one's read and its write: the
        // send is accepted again below, where its read waits for that send's commit.
        if (!isDuplicateRace(error)) throw error;
      }
    }

    // Price and balance do not depend on other sends' messages: read at once before the transaction.
    const [priceUnits, balance] = await Promise.all([this.deps.pricing.effectiveFor(user.id, category), this.deps.wallet.balance(user.id)]);
    let messageIds: number[] | undefined;
    const { campaignId, accepted } = await this.deps.db.transaction(async (trx) => {
      // What blocks this send is read under its locks and written before they are let go, so a
      // send of the same messages at the same moment waits and then finds these (duplicateLocks.ts).
      await lockDuplicates(trx, user.id, template.id, count <= MESSAGE_LOCKS_MAX ? keys.slice(0, count) : null);
      const classified = await this.classify(trx, user.id, template.id, recipients, keys, now);
      const { statusCodes, billable } = classified;
      const totalCostUnits = billable * priceUnits;
      // The debit below checks again; this refuses before anything is written.
      if (totalCostUnits > 0 && balance < totalCostUnits) throw insufficientBalance(totalCostUnits, balance);
      const { figures, accepted } = this.outcomeOf(input, classified, { priceUnits, nowIso, scheduledIso });
      let id: number;
      if (input.joinCampaignId !== undefined) {
        id = input.joinCampaignId;
        await this.joinCampaign(trx, id, figures);
      } else id = await this.insertCampaign(trx, input, staged ? { ...figures, stagedRecipients: count } : figures);
      await this.debit(trx, input, id, billable, totalCostUnits);
      if (staged) await this.insertStaged(trx, { campaignId: id, recipients, keys, statusCodes, firstPosition: 0 });
      else {
        messageIds = await this.insertMessages(trx, {
          ...messagesOf({ campaignId: id, userId: user.id, priceUnits, nowIso, scheduledIso }),
          returnIds: input.returnMessageIds === true,
          recipients,
          keys,
          statusCodes,
        });
      }
      // A day campaign that takes a send with nothing to queue completes nothing new.
      if (billable === 0 && input.joinCampaignId === undefined) await this.recordCampaignsCompleted?.(trx, [id]);
      return { campaignId: id, accepted };
    });
    if (staged) this.onStaged?.(campaignId);
    if (accepted.accepted === 0 && input.joinCampaignId === undefined) this.onCampaignsSettled?.([campaignId]);

    return {
      campaignId,
      ...accepted,
      ...(scheduledIso && accepted.accepted > 0 ? { scheduledAt: new Date(scheduledIso) } : {}),
      ...(messageIds ? { messageIds } : {}),
    };
  }

  /** A campaign's figures and what acceptance answers of it, from its recipients' fates. */
  private outcomeOf(
    input: AcceptCampaignInput,
    classified: ClassifiedChunk,
    at: { priceUnits: number; nowIso: string; scheduledIso: string | null },
  ): { figures: CampaignFigures & { priceUnits: number }; accepted: Omit<AcceptedCampaign, 'campaignId'> } {
    const { priceUnits, nowIso, scheduledIso } = at;
    const { statusCodes, billable, duplicates, suppressed } = classified;
    const totalCostUnits = billable * priceUnits;
    const figures = {
      priceUnits,
      ...campaignFigures({ count: input.recipients.length, billable, duplicates: duplicates + input.inSendDuplicates, invalid: input.invalidCount, suppressed, priceUnits, nowIso, scheduledIso }),
    };
    return {
      figures,
      accepted: { statusCodes, accepted: billable, duplicates: duplicates + input.inSendDuplicates, repeats: input.inSendDuplicates, invalid: input.invalidCount, suppressed, priceUnits, totalCostUnits },
    };
  }

  /**
   * PostgreSQL, a small send due now: its reads as one statement, then, where there is something
   * to debit, its writes as another, guarded against a send of the same messages meanwhile
   * (`duplicateGuardPart`). Null where nothing is billable: such a send is written in a transaction.
   */
  private async acceptAsOneStatement(
    input: AcceptCampaignInput,
    keys: DedupeKeys,
    at: { category: PriceCategory; now: Date; nowIso: string },
  ): Promise<AcceptedCampaign | null> {
    const { user, template } = input;
    const { category, now, nowIso } = at;
    const [priceUnits, classified, ids] = await this.readAtOnce(user.id, template.id, category, input.recipients, keys, now);
    if (classified.billable === 0) return null;
    const { figures, accepted } = this.outcomeOf(input, classified, { priceUnits, nowIso, scheduledIso: null });
    const walletAfter = await this.acceptInOneStatement(input, ids, { figures, classified, nowIso, now });
    return { campaignId: input.joinCampaignId ?? ids.campaignId, ...accepted, walletAfter, ...(input.returnMessageIds ? { messageIds: ids.messageIds } : {}) };
  }

  /**
   * The reads of a send written as one statement (`acceptInOneStatement`), as one statement too:
   * its price, its recipients' duplicates and opt-outs, and the ids of its campaign and messages,
   * taken from their sequences. Made as four queries at once they each took a connection and a
   * round trip, and a group commit of the public API waited longer for them than for its writes
   * (6.5 ms against 4.2 ms a round under the bench's load).
   */
  private async readAtOnce(
    userId: number,
    templateId: number,
    category: PriceCategory,
    recipients: readonly RecipientRow[],
    keys: DedupeKeys,
    now: Date,
  ): Promise<[number, ClassifiedChunk, { campaignId: number; messageIds: number[] }]> {
    const db = this.deps.db;
    const to = recipients.map((recipient) => recipient.to);
    const probe = pgDuplicateProbe({ userId, templateId, to, keys: keys.slice(0, keys.length), since: this.windowStart(now) });
    // Prepared: PostgreSQL parsed and planned it at every round (1.5-2 ms of its time a round).
    const { rows } = (await asPrepared(db.raw(
      `select price.pricing_mode as mode, price.default_units as standard, price.custom_units as custom,
         array(${probe.sql}) as blocked,
         array(select recipient from suppressions where user_id = ? and recipient = any(?)) as suppressed,
         nextval(pg_get_serial_sequence('campaigns', 'id')) as campaign,
         array(select nextval(pg_get_serial_sequence('messages', 'id')) from generate_series(1, ?)) as messages
       from (select 1) as one left join lateral ? as price on true`,
      [
        ...probe.bindings,
        userId,
        to,
        recipients.length,
        this.deps.pricing.effectiveForQuery(userId, category),
      ],
    ))) as { rows: AtOnceRow[] };
    const row = rows[0];
    if (!row) throw new Error('the reads of a send answered no row');
    const priceUnits = await this.deps.pricing.effectiveFromRow(
      userId,
      category,
      row.mode === null ? undefined : { pricingMode: row.mode, defaultUnits: row.standard ?? 0, customUnits: row.custom },
    );
    const classified = fates(recipients, keys, new Set(row.blocked), new Set(row.suppressed));
    return [priceUnits, classified, { campaignId: Number(row.campaign), messageIds: row.messages.map(Number) }];
  }

  /**
   * PostgreSQL, a small send with something to debit (the public send API's group commit, quick
   * sends): the debit, its ledger row, the campaign, its messages and their queue jobs as one
   * statement, atomic without `BEGIN` and `COMMIT` (db/singleStatement.ts). The transaction of
   * `accept` costs seven round trips one after another, and a group commit's requests each wait
   * for all of them. The ids were taken beforehand, so every part is known before it runs. Where
   * the wallet no longer covers the debit (another send spent it since the balance was read) the
   * statement fails as a whole and the refusal is the one `accept` gives.
   */
  private async acceptInOneStatement(
    input: AcceptCampaignInput,
    ids: { campaignId: number; messageIds: number[] },
    accepted: { figures: CampaignFigures & { priceUnits: number }; classified: ClassifiedChunk; nowIso: string; now: Date },
  ): Promise<WalletAfterDebit> {
    const { user, template } = input;
    const { figures, classified, nowIso, now } = accepted;
    const enqueueStatement = this.enqueueStatement;
    if (!enqueueStatement) throw new Error('acceptInOneStatement needs the queue adapter\'s enqueue statement');
    // The messages to be queued, looked for again by the guard under the send's locks, before the
    // debit locks the wallet's row.
    const queuedTo: string[] = [];
    const queuedKeys: string[] = [];
    classified.statusCodes.forEach((code, i) => {
      if (code !== 0) return;
      queuedTo.push((input.recipients[i] as RecipientRow).to);
      queuedKeys.push(classified.keys.at(i));
    });
    // The guard looks past the statement's own campaign: a join's is the day campaign's fresh id,
    // which no message has, so the day campaign's earlier messages still block their repeats.
    const guard = duplicateGuardPart({ userId: user.id, templateId: template.id, campaignId: ids.campaignId, recipients: queuedTo, keys: queuedKeys, since: this.windowStart(now) });
    const joinId = input.joinCampaignId;
    const campaignId = joinId ?? ids.campaignId;
    const { debit, ledger } = this.deps.wallet.campaignDebitStatementParts(
      {
        userId: user.id,
        campaignId,
        units: figures.totalCostUnits,
        description: debitDescription(input.name, figures.billableCount),
        templateName: template.name,
        templateCategory: template.category,
        at: now,
        ...(joinId !== undefined ? { debitKey: joinDebitKey(joinId) } : {}),
      },
      // A join debits only where the day campaign took the send (it may have been cancelled since
      // it was looked up): otherwise the debit changes no row and the statement fails as a whole.
      joinId !== undefined ? { sql: 'exists (select 1 from campaign)', bindings: [] } : guard,
    );
    // A join's guard runs in the campaign's update, before its row is locked: the locks come in
    // the order of the transaction path (the send's locks, the campaign's row, the wallet's row).
    const campaign = joinId !== undefined ? joinPart(joinId, figures, guard) : insertPart(this.deps.db, 'campaigns', { id: ids.campaignId, ...campaignRow(input, figures) });
    const messages = pgMessagesPart({
      ids: ids.messageIds,
      campaignId,
      userId: user.id,
      priceUnits: figures.priceUnits,
      nowIso,
      dueIso: nowIso,
      recipients: input.recipients,
      keys: classified.keys,
      statusCodes: classified.statusCodes,
    });
    const queued = ids.messageIds.filter((_, i) => classified.statusCodes[i] === 0);
    const jobs = await enqueueStatement(queued);
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
      'select credit_balance as balance, low_balance_threshold_units as threshold from wallet_debit',
    );
    try {
      const [wallet] = await runSingleStatement<{ balance: number | string; threshold: number | string | null }>(this.deps.db, statement, { prepared: true });
      if (!wallet) throw new Error(`campaign ${campaignId}: the debit answered no balance`);
      return { balanceUnits: Number(wallet.balance), lowBalanceThresholdUnits: wallet.threshold === null ? null : Number(wallet.threshold) };
    } catch (error) {
      if (joinId !== undefined && !isDuplicateRace(error) && !(await this.takesSends(joinId))) throw new ApiDayCampaignClosed(joinId);
      if (isRefusedStatementDebit(error)) throw insufficientBalance(figures.totalCostUnits, await this.deps.wallet.balance(user.id));
      throw error;
    }
  }

  /**
   * A campaign whose recipients stream in chunks (a send from an upload), in one
   * transaction as `accept`: the campaign row first, then each chunk classified, then written and
   * enqueued while the next is read, then the campaign's figures and the debit. A send the
   * balance does not cover stops writing at the chunk that passes it but is classified to the end,
   * so the refusal names its whole cost; the transaction then rolls back, as it does when reading
   * the recipients fails (the client gone, a file refused): nothing is kept.
   */
  async acceptStream(input: StreamedCampaignInput): Promise<AcceptedCampaign> {
    const { user, template } = input;
    const { now, nowIso, scheduledIso } = this.begin(input);
    const chunks = input.chunks[Symbol.asyncIterator]();
    try {
      // The first chunk is read before the transaction: reading looks the upload up, which on
      // SQLite's one connection could not run inside it, and a file refused at its start (unknown
      // column, no recipient) is refused before anything is written.
      const first = await chunks.next();
      const [priceUnits, balance] = await Promise.all([this.deps.pricing.effectiveFor(user.id, template.category.toLowerCase() as PriceCategory), this.deps.wallet.balance(user.id)]);
      const statusCodes = new GrowingCodes();
      const totals = { count: 0, billable: 0, duplicates: 0, suppressed: 0 };
      // Once the send reaches the staging size, its chunks from there on are staged (the size of
      // a file is not known before its rows are read); the chunks before are message rows.
      const stagedMin = scheduledIso ? Number.POSITIVE_INFINITY : (this.deps.stagedMinRecipients ?? STAGED_MIN_RECIPIENTS);
      let stagedCount = 0;
      let screenedOut = { invalidCount: 0, inSendDuplicates: 0 };
      const campaignId = await this.deps.db.transaction(async (trx) => {
        // Reads inside go through the transaction: on SQLite it holds the only connection. On
        // PostgreSQL the send of this user and template is locked first (duplicateLocks.ts).
        await lockDuplicates(trx, user.id, template.id, null);
        const classify = await this.chunkClassifier(trx, user.id, template.id, now);
        const id = await this.insertCampaign(trx, input, { priceUnits, ...campaignFigures({ ...totals, invalid: 0, priceUnits, nowIso, scheduledIso }) });
        const campaignMessages = messagesOf({ campaignId: id, userId: user.id, priceUnits, nowIso, scheduledIso });
        for (let next = first; next.done !== true; ) {
          const chunk = next.value;
          const classified = await classify(chunk);
          input.onClassified(chunk, classified.statusCodes);
          statusCodes.append(classified.statusCodes);
          const firstPosition = totals.count;
          const staged = firstPosition + chunk.length >= stagedMin;
          totals.count += chunk.length;
          totals.billable += classified.billable;
          totals.duplicates += classified.duplicates;
          totals.suppressed += classified.suppressed;
          // The next chunk is read and screened while this one is written: on PostgreSQL the
          // insert runs in the database's process, so the two overlap. Its failure is awaited below.
          const reading = chunks.next();
          reading.catch(() => undefined);
          if (totals.billable * priceUnits <= balance) {
            if (staged) {
              await this.insertStaged(trx, { campaignId: id, recipients: chunk, keys: classified.keys, statusCodes: classified.statusCodes, firstPosition });
              stagedCount += chunk.length;
            } else await this.insertMessages(trx, { ...campaignMessages, returnIds: false, recipients: chunk, keys: classified.keys, statusCodes: classified.statusCodes });
          }
          next = await reading;
        }
        const totalCostUnits = totals.billable * priceUnits;
        if (totalCostUnits > 0 && balance < totalCostUnits) throw insufficientBalance(totalCostUnits, balance);
        screenedOut = input.screenedOut();
        await trx('campaigns')
          .where({ id })
          .update({
            ...campaignFigures({ ...totals, duplicates: totals.duplicates + screenedOut.inSendDuplicates, invalid: screenedOut.invalidCount, priceUnits, nowIso, scheduledIso }),
            stagedRecipients: stagedCount,
          });
        await this.debit(trx, input, id, totals.billable, totalCostUnits);
        if (totals.billable === 0) await this.recordCampaignsCompleted?.(trx, [id]);
        return id;
      });
      if (stagedCount > 0) this.onStaged?.(campaignId);
      if (totals.billable === 0) this.onCampaignsSettled?.([campaignId]);
      return {
        campaignId,
        statusCodes: statusCodes.codes(),
        accepted: totals.billable,
        duplicates: totals.duplicates + screenedOut.inSendDuplicates,
        repeats: screenedOut.inSendDuplicates,
        invalid: screenedOut.invalidCount,
        suppressed: totals.suppressed,
        priceUnits,
        totalCostUnits: totals.billable * priceUnits,
        ...(scheduledIso && totals.billable > 0 ? { scheduledAt: new Date(scheduledIso) } : {}),
      };
    } finally {
      // Stops the reading (and its parse worker) when acceptance ends early; nothing once it is done.
      await chunks.return?.();
    }
  }

  /**
   * `screen` over recipients streamed in chunks (the dry run of a send from an upload): each chunk's
   * fates go to `onClassified` as soon as they are known; the totals come back.
   */
  async screenStream(
    userId: number,
    templateId: number,
    chunks: AsyncIterable<readonly RecipientRow[]>,
    onClassified: (chunk: readonly RecipientRow[], statusCodes: Uint8Array) => void,
  ): Promise<{ billable: number; duplicates: number; suppressed: number }> {
    const totals = { billable: 0, duplicates: 0, suppressed: 0 };
    let classify: ((recipients: readonly RecipientRow[]) => Promise<ClassifiedChunk>) | null = null;
    for await (const chunk of chunks) {
      classify ??= await this.chunkClassifier(this.deps.db, userId, templateId, this.now());
      const classified = await classify(chunk);
      onClassified(chunk, classified.statusCodes);
      totals.billable += classified.billable;
      totals.duplicates += classified.duplicates;
      totals.suppressed += classified.suppressed;
    }
    return totals;
  }

  /** A campaign's template checked (the sender's, usable) and its times: now, and when it is due if scheduled. */
  private begin(input: { user: User; template: Template; scheduledAt?: Date | undefined }): { now: Date; nowIso: string; scheduledIso: string | null } {
    const { user, template } = input;
    if (template.userId !== user.id) throw new AppError(404, 'template_not_found', catalogue.templates.notFound);
    if (!USABLE_TEMPLATE_STATUSES.includes(template.status as never)) {
      throw new AppError(404, 'template_not_usable', fillMessage(catalogue.templates.notUsable, { name: template.name, status: templateStatusLabel(template.status) }));
    }
    const now = this.now();
    return { now, nowIso: now.toISOString(), scheduledIso: input.scheduledAt?.toISOString() ?? null };
  }

  private async insertCampaign(
    trx: Knex.Transaction,
    input: Omit<AcceptCampaignInput, 'recipients'> | StreamedCampaignInput,
    figures: CampaignFigures & { priceUnits: number; stagedRecipients?: number },
  ): Promise<number> {
    const [inserted] = (await trx('campaigns').insert(campaignRow(input, figures)).returning('id')) as ({ id: number } | number)[];
    return typeof inserted === 'object' && inserted !== null ? inserted.id : (inserted as number);
  }

  private async debit(trx: Knex.Transaction, input: { user: User; template: Template; name: string; joinCampaignId?: number | undefined }, campaignId: number, billable: number, units: number): Promise<void> {
    if (units <= 0) return;
    try {
      await this.deps.wallet.debitCampaign(
        trx,
        {
          userId: input.user.id,
          campaignId,
          units,
          description: debitDescription(input.name, billable),
          templateName: input.template.name,
          templateCategory: input.template.category,
          ...(input.joinCampaignId !== undefined ? { debitKey: joinDebitKey(campaignId) } : {}),
        },
        // A new campaign's key, or a join's key made just now: no earlier entry can hold either.
        { campaignIsNew: true },
      );
    } catch (error) {
      // Another send spent the balance between the check before the transaction and this debit.
      // The balance is read in the transaction: on SQLite it holds the only connection, and a read
      // outside it would wait for the connection until the pool gave up.
      if (error instanceof AppError && error.code === 'insufficient_credits') throw insufficientBalance(units, await this.deps.wallet.balance(input.user.id, trx));
      throw error;
    }
  }

  /**
   * What acceptance would set aside now for these recipients of this template, for a cost preview
   * where the recipients and their values are known (resend to failed): Duplicate Blocked and opted out.
   */
  async screen(userId: number, templateId: number, recipients: readonly RecipientRow[]): Promise<{ billable: number; duplicates: number; suppressed: number; statusCodes: Uint8Array }> {
    const { billable, duplicates, suppressed, statusCodes } = await this.classify(this.deps.db, userId, templateId, recipients, dedupeKeysOf(userId, templateId, recipients), this.now());
    return { billable, duplicates, suppressed, statusCodes };
  }

  /** Each recipient's fate: 0 queued, 1 duplicate, 2 suppressed (one byte each instead of a row object). */
  private async classify(db: Knex, userId: number, templateId: number, recipients: readonly RecipientRow[], keys: DedupeKeys, now: Date): Promise<ClassifiedChunk> {
    const since = this.windowStart(now);
    const [blocked, suppressed] = await Promise.all([this.recentKeys(db, userId, templateId, recipients, keys, since), this.suppressedRecipients(db, userId, recipients)]);
    return fates(recipients, keys, blocked, suppressed);
  }

  /**
   * The classifier of a streamed send's chunks: what earlier campaigns could block is asked once
   * (none, their keys in memory, or a probe per chunk), opt-outs once, then each chunk costs at
   * most one lookup of each. `db` is the accepting transaction where there is one.
   */
  private async chunkClassifier(db: Knex, userId: number, templateId: number, now: Date): Promise<(recipients: readonly RecipientRow[]) => Promise<ClassifiedChunk>> {
    const since = this.windowStart(now);
    const [earlier, anySuppression] = await Promise.all([this.earlierKeys(db, userId, templateId, since, STREAM_EARLIER_KEYS_LOADED), db('suppressions').where({ userId }).first('id')]);
    return async (recipients) => {
      const keys = dedupeKeysOf(userId, templateId, recipients);
      let blocked = new Set<string>();
      if (earlier === 'probe') blocked = await this.probeKeys(db, userId, templateId, recipients, keys, since, blocked);
      else if (earlier.size > 0) {
        for (let i = 0; i < keys.length; i++) if (keys.isIn(i, earlier)) blocked.add(keys.at(i));
      }
      const suppressed = anySuppression ? await this.suppressedRecipients(db, userId, recipients) : new Set<string>();
      return fates(recipients, keys, blocked, suppressed);
    };
  }

  private windowStart(now: Date): string {
    return new Date(now.getTime() - this.deps.duplicateWindowHours * 3_600_000).toISOString();
  }

  /**
   * Message rows go in through the driver itself: one prepared statement reused per row on SQLite
   * (knex would compile a query per chunk), one unnest() statement per 5,000 rows on PostgreSQL.
   */
  private async insertMessages(
    trx: Knex.Transaction,
    batch: {
      campaignId: number;
      userId: number;
      priceUnits: number;
      nowIso: string;
      /** When the queued rows are first due: now, or the scheduled time. */
      dueIso: string;
      /** False for a scheduled campaign: its queue jobs are made when it starts. */
      enqueue: boolean;
      /** Answer every row's id in input order. */
      returnIds: boolean;
      recipients: readonly RecipientRow[];
      keys: DedupeKeys;
      statusCodes: Uint8Array;
    },
  ): Promise<number[] | undefined> {
    const { campaignId, userId, priceUnits, nowIso, dueIso, recipients, keys, statusCodes } = batch;
    const ids: number[] | undefined = batch.returnIds ? [] : undefined;
    const enqueue = batch.enqueue ? this.enqueue : null;
    const connection = await (trx.client as unknown as { acquireConnection(): Promise<unknown> }).acquireConnection();

    if (!isPostgres(this.deps.db)) {
      const sqlite = connection as { prepare(sql: string): { run(...params: unknown[]): { lastInsertRowid: number | bigint } } };
      const insert = `insert into messages (campaign_id, user_id, recipient, status, price_units, variables, dedupe_key, error_code, error_message,
           attempts, next_attempt_at, refunded, created_at, updated_at) values `;
      const oneRow = '(?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, 0, ?, ?)';
      const params: unknown[] = [];
      const pushRow = (i: number) => {
        const code = statusCodes[i] as number;
        const recipient = recipients[i] as RecipientRow;
        params.push(campaignId, userId, recipient.to, statusOf(code), code === 0 ? priceUnits : 0, variablesOf(recipient), keys.at(i), code === 2 ? 131050 : null, errorOf(code), code === 0 ? dueIso : null, nowIso, nowIso);
      };
      let i = 0;
      // Where no ids are wanted, rows go in SQLITE_ROWS_PER_INSERT to a statement, and the rest
      // in one more: measured on the messages table with its indexes, a fifth less time per row
      // than one statement each at 50, and 1M rows 0.6 s faster again at 200
      // (docs/decisions/2026-11-24-acceptance-speed-and-memory.md).
      if (!ids) {
        const statement = (rows: number) => sqlite.prepare(insert + Array<string>(rows).fill(oneRow).join(', '));
        const many = recipients.length >= SQLITE_ROWS_PER_INSERT ? statement(SQLITE_ROWS_PER_INSERT) : null;
        for (; many && i + SQLITE_ROWS_PER_INSERT <= recipients.length; i += SQLITE_ROWS_PER_INSERT) {
          params.length = 0;
          for (let row = i; row < i + SQLITE_ROWS_PER_INSERT; row++) pushRow(row);
          many.run(...params);
        }
        if (recipients.length - i > 1) {
          params.length = 0;
          for (let row = i; row < recipients.length; row++) pushRow(row);
          statement(recipients.length - i).run(...params);
          i = recipients.length;
        }
      }
      const single = sqlite.prepare(insert + oneRow);
      for (; i < recipients.length; i++) {
        params.length = 0;
        pushRow(i);
        const { lastInsertRowid } = single.run(...params);
        ids?.push(Number(lastInsertRowid));
      }
      return ids;
    }

    const pgClient = connection as { query(text: string, values: unknown[]): Promise<{ rows: unknown[] }> };
    for (let start = 0; start < recipients.length; start += PG_INSERT_CHUNK) {
      const end = Math.min(recipients.length, start + PG_INSERT_CHUNK);
      // Only the queued rows' ids come back (as one array), and only when a queue wants them.
      const insert = `insert into messages (${PG_MESSAGE_COLUMNS})
         select $1, $2, ${PG_MESSAGE_VALUES.replaceAll('$now', '$3')}
           from unnest($4::text[], $5::text[], $6::bigint[], $7::text[], $8::text[], $9::int[], $10::text[], $11::timestamptz[]) as ${PG_MESSAGE_UNNESTED}`;
      const values = [campaignId, userId, nowIso, ...pgMessageArrays({ recipients, keys, statusCodes, priceUnits, dueIso }, start, end)];
      if (!enqueue && !ids) {
        await pgClient.query(insert, values);
        continue;
      }
      // Ids come from the sequence in the order unnest gives the rows: sorted, they are the rows' order.
      const { rows } = await pgClient.query(
        `with inserted as (${insert} returning id, status)
         select array_agg(id order by id) filter (where status = 'queued') as queued, ${ids ? 'array_agg(id order by id)' : 'null'} as every from inserted`,
        values,
      );
      const answer = rows[0] as { queued?: (number | string)[] | null; every?: (number | string)[] | null } | undefined;
      for (const id of answer?.every ?? []) ids?.push(Number(id));
      const queued = (answer?.queued ?? []).map(Number);
      if (enqueue && queued.length > 0) await enqueue(trx, queued);
    }
    return ids;
  }

  /**
   * A large send's recipients as lean rows (`campaign_recipients`: the campaign, the row's place,
   * its number, values, key and fate), in the accepting transaction: the materialiser makes their
   * message rows and queue jobs after the commit. Only the table's key is kept up per row, in
   * order, where `messages` keeps seven indexes and a foreign key
   * (docs/decisions/2026-11-28-large-sends-staged.md). SQLite: one
   * prepared INSERT of 500 rows reused; PostgreSQL: one COPY fed a chunk of text at a time, each
   * row taking its message's id from the column's default in the file's order (the materialiser
   * writes chunks side by side).
   */
  private async insertStaged(
    trx: Knex.Transaction,
    batch: { campaignId: number; recipients: readonly RecipientRow[]; keys: DedupeKeys; statusCodes: Uint8Array; firstPosition: number },
  ): Promise<void> {
    const { campaignId, recipients, keys, statusCodes, firstPosition } = batch;
    const connection = await (trx.client as unknown as { acquireConnection(): Promise<unknown> }).acquireConnection();
    if (!isPostgres(this.deps.db)) {
      const sqlite = connection as { prepare(sql: string): { run(...params: unknown[]): unknown } };
      const statement = (rows: number) =>
        sqlite.prepare(`insert into campaign_recipients (campaign_id, position, recipient, variables, dedupe_key, status_code) values ${Array<string>(rows).fill('(?, ?, ?, ?, ?, ?)').join(', ')}`);
      const params: unknown[] = [];
      const many = recipients.length >= SQLITE_STAGED_ROWS_PER_INSERT ? statement(SQLITE_STAGED_ROWS_PER_INSERT) : null;
      for (let start = 0; start < recipients.length; start += SQLITE_STAGED_ROWS_PER_INSERT) {
        const end = Math.min(recipients.length, start + SQLITE_STAGED_ROWS_PER_INSERT);
        params.length = 0;
        for (let i = start; i < end; i++) {
          const recipient = recipients[i] as RecipientRow;
          params.push(campaignId, firstPosition + i, recipient.to, variablesOf(recipient), keys.at(i), statusCodes[i]);
        }
        (many && end - start === SQLITE_STAGED_ROWS_PER_INSERT ? many : statement(end - start)).run(...params);
      }
      return;
    }
    const pg = connection as { query<T extends NodeJS.WritableStream>(stream: T): T };
    async function* text(): AsyncGenerator<string> {
      for (let start = 0; start < recipients.length; start += PG_STAGED_COPY_CHUNK) {
        const end = Math.min(recipients.length, start + PG_STAGED_COPY_CHUNK);
        let chunk = '';
        for (let i = start; i < end; i++) {
          const recipient = recipients[i] as RecipientRow;
          const variables = variablesOf(recipient);
          chunk += `${campaignId}\t${firstPosition + i}\t${copyText(recipient.to)}\t${variables === null ? '\\N' : copyText(variables)}\t${keys.at(i)}\t${statusCodes[i] as number}\n`;
        }
        yield chunk;
      }
    }
    await pipeline(Readable.from(text()), pg.query(copyFrom('copy campaign_recipients (campaign_id, position, recipient, variables, dedupe_key, status_code) from stdin')));
  }

  /**
   * Blocked duplicates can only come from this user's earlier campaigns of the same template in
   * the window. None (the common case): nothing is looked up. Fewer earlier messages than keys:
   * their keys are read into memory. Otherwise each key is probed in the index.
   */
  private async recentKeys(db: Knex, userId: number, templateId: number, recipients: readonly RecipientRow[], keys: DedupeKeys, since: string): Promise<Set<string>> {
    const found = new Set<string>();
    const size = isPostgres(this.deps.db) ? PG_LOOKUP_CHUNK : LOOKUP_CHUNK;
    // A send of one lookup's worth of keys probes the index at once: asking first whether any
    // earlier campaign exists would cost the same round trip again.
    if (keys.length <= size) return this.probeKeys(db, userId, templateId, recipients, keys, since, found);
    const earlier = await this.earlierKeys(db, userId, templateId, since, keys.length * 2);
    if (earlier === 'probe') return this.probeKeys(db, userId, templateId, recipients, keys, since, found);
    // The earlier keys are in the set, not this send's: a million-row send then makes no
    // million-string set, and writes out as text only the keys that may be in it.
    if (earlier.size === 0) return found;
    for (let i = 0; i < keys.length; i++) if (keys.isIn(i, earlier)) found.add(keys.at(i));
    return found;
  }

  /**
   * The blocking keys of this user's earlier campaigns of the template in the window, when there
   * are at most `limit` earlier messages (an empty set when there are none); 'probe' when more.
   */
  private async earlierKeys(db: Knex, userId: number, templateId: number, since: string, limit: number): Promise<KeySet | 'probe'> {
    const earlier = new KeySet();
    const recentCampaigns = () => db('campaigns').where({ userId, templateId }).where('createdAt', '>=', since);
    const [totals] = (await recentCampaigns().count({ campaigns: '*' }).sum({ earlier: 'totalRecipients' })) as { campaigns: number | string; earlier: number | string | null }[];
    if (!totals || Number(totals.campaigns) === 0) return earlier;
    if (Number(totals.earlier ?? 0) > limit) return 'probe';
    const statuses = BLOCKING_STATUSES.map((s) => `'${s}'`).join(', ');
    for (const campaign of (await recentCampaigns().select('id')) as { id: number }[]) {
      // Its rows still staged count as queued. One statement reads both tables at one moment: the
      // materialiser moves rows from one to the other in transactions of its own.
      const result = (await db.raw(
        `select dedupe_key from messages where campaign_id = ? and status in (${statuses}) and created_at >= ?
         union all select dedupe_key from campaign_recipients where campaign_id = ? and status_code = 0`,
        [campaign.id, since, campaign.id],
      )) as Record<string, string>[] | { rows: Record<string, string>[] };
      for (const row of Array.isArray(result) ? result : result.rows) earlier.add((row.dedupeKey ?? row.dedupe_key) as string);
    }
    return earlier;
  }

  /**
   * Each key looked up through its recipient, a lookup's worth at a time; the blocked ones are
   * added to `found`. A key is a digest of the user, template, recipient and values, so an earlier
   * message with the key has this user and recipient: the (user, recipient) index that reports
   * already keep finds it, and `messages` needs no index of its own on the key. That index's
   * entries land at random places, and keeping it up was a third of accepting a million recipients.
   * Rows of a large campaign still staged (`campaign_recipients`, seconds after its acceptance) are
   * queued messages too: the same statement reads them, found through the few campaigns of this
   * user and template that have any (`campaigns_staged_index`), so it sees both tables at one moment.
   */
  private async probeKeys(db: Knex, userId: number, templateId: number, recipients: readonly RecipientRow[], keys: DedupeKeys, since: string, found: Set<string>): Promise<Set<string>> {
    const postgres = isPostgres(this.deps.db);
    const size = postgres ? PG_LOOKUP_CHUNK : LOOKUP_CHUNK / 2;
    const statuses = BLOCKING_STATUSES.map((s) => `'${s}'`).join(', ');
    for (let start = 0; start < keys.length; start += size) {
      const chunk = keys.slice(start, start + size);
      const to = recipients.slice(start, start + size).map((recipient) => recipient.to);
      let rows: Record<string, string>[];
      if (postgres) {
        const probe = pgDuplicateProbe({ userId, templateId, to, keys: chunk, since });
        rows = ((await db.raw(probe.sql, probe.bindings)) as { rows: Record<string, string>[] }).rows;
      } else {
        // SQLite's planner may prefer the status index and scan; the recipient index is the right one.
        rows = (await db.raw(
          `select dedupe_key from messages indexed by messages_user_recipient_index
            where user_id = ? and recipient in (${placeholders(to.length)}) and dedupe_key in (${placeholders(chunk.length)}) and created_at >= ? and status in (${statuses})
           union select dedupe_key from campaign_recipients
            where campaign_id in (select id from campaigns where user_id = ? and template_id = ? and staged_recipients > 0) and status_code = 0 and dedupe_key in (${placeholders(chunk.length)})`,
          [userId, ...to, ...chunk, since, userId, templateId, ...chunk],
        )) as Record<string, string>[];
      }
      for (const row of rows) found.add((row.dedupeKey ?? row.dedupe_key) as string);
    }
    return found;
  }

  private async suppressedRecipients(db: Knex, userId: number, recipients: readonly RecipientRow[]): Promise<Set<string>> {
    const found = new Set<string>();
    const any = await db('suppressions').where({ userId }).first('id');
    if (!any) return found;
    const size = isPostgres(this.deps.db) ? PG_LOOKUP_CHUNK : LOOKUP_CHUNK;
    for (let start = 0; start < recipients.length; start += size) {
      const chunk = recipients.slice(start, start + size).map((r) => r.to);
      const query = db('suppressions').where({ userId }).select('recipient');
      const rows = (await (isPostgres(this.deps.db) ? query.whereRaw('recipient = any(?)', [chunk]) : query.whereIn('recipient', chunk))) as { recipient: string }[];
      for (const row of rows) found.add(row.recipient);
    }
    return found;
  }
}

function placeholders(count: number): string {
  return new Array<string>(count).fill('?').join(', ');
}

/**
 * `probeKeys` on PostgreSQL: the blocking keys among a lookup's worth, in `messages` and in the
 * lean rows still staged (bindings: `pgDuplicateProbe`). Each recipient is looked up on its own,
 * through the (user, recipient) index: a user's messages grow faster than autovacuum analyses
 * them, and asked for all the recipients at once the planner took an index on the user alone as
 * the one expected to match a row, then filtered every message the user sent that day (3,058
 * rows for a 16-key probe, then 6,325, during the public API bench, where the recipient index
 * reads 16 entries). A lateral subquery with a limit is planned once per recipient and cannot be
 * turned into that scan; the window and the statuses are written `(...) is true` so that no index
 * but the recipient one matches more than the user. The user is `(select ?)`, a value the planner
 * does not look up in the statistics: a sender they have not seen yet (a new customer's first large
 * send, until the next analysis however large the table) was expected at one row in every index
 * that starts with the user, the report index tied with the recipient one and won. Unknown, the user
 * is expected at the average user's share of the table, and only the recipient index narrows it.
 */
const PG_PROBE_SQL = `select k.key as dedupe_key from unnest(?::text[], ?::text[]) as k(recipient, key)
  cross join lateral (select 1 from messages m
    where m.user_id = (select ?::integer) and m.recipient = k.recipient and m.dedupe_key = k.key
      and (m.created_at >= ? and m.status in (${BLOCKING_STATUSES.map((s) => `'${s}'`).join(', ')})) is true
    limit 1) as found
  union select dedupe_key from campaign_recipients
  where campaign_id in (select id from campaigns where user_id = ? and template_id = ? and staged_recipients > 0) and status_code = 0 and dedupe_key = any(?)`;

/** `PG_PROBE_SQL` with its bindings: the keys with their recipients, in the same order. */
export function pgDuplicateProbe(probe: { userId: number; templateId: number; to: string[]; keys: string[]; since: string }): { sql: string; bindings: Knex.ValueDict[string][] } {
  return { sql: PG_PROBE_SQL, bindings: [probe.to, probe.keys, probe.userId, probe.since, probe.userId, probe.templateId, probe.keys] };
}

/** Every recipient's Duplicate Blocked key. */
function dedupeKeysOf(userId: number, templateId: number, recipients: readonly RecipientRow[]): DedupeKeys {
  const keys = new DedupeKeys(recipients.length);
  for (let i = 0; i < recipients.length; i++) {
    const recipient = recipients[i] as RecipientRow;
    keys.set(i, userId, templateId, recipient.to, recipient.variables);
  }
  return keys;
}

/** Each recipient's fate from what earlier campaigns block and who opted out: Duplicate Blocked first. */
function fates(recipients: readonly RecipientRow[], keys: DedupeKeys, blocked: ReadonlySet<string>, suppressed: ReadonlySet<string>): ClassifiedChunk {
  const statusCodes = new Uint8Array(recipients.length);
  let billable = 0;
  let duplicates = 0;
  let suppressedCount = 0;
  for (let i = 0; i < recipients.length; i++) {
    if (blocked.size > 0 && blocked.has(keys.at(i))) {
      statusCodes[i] = 1;
      duplicates++;
    } else if (suppressed.size > 0 && suppressed.has((recipients[i] as RecipientRow).to)) {
      statusCodes[i] = 2;
      suppressedCount++;
    } else billable++;
  }
  return { keys, statusCodes, billable, duplicates, suppressed: suppressedCount };
}

/**
 * What every message row of a campaign shares: queued rows are due now and get queue jobs, or,
 * for a scheduled campaign, are due at its time and get their jobs when it starts.
 */
function messagesOf(campaign: { campaignId: number; userId: number; priceUnits: number; nowIso: string; scheduledIso: string | null }) {
  const { scheduledIso, ...shared } = campaign;
  return { ...shared, dueIso: scheduledIso ?? campaign.nowIso, enqueue: !scheduledIso };
}

/** The campaign row's fields that follow from what was accepted. */
interface CampaignFigures {
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

function campaignFigures(accepted: { count: number; billable: number; duplicates: number; invalid: number; suppressed: number; priceUnits: number; nowIso: string; scheduledIso: string | null }): CampaignFigures {
  const { billable, nowIso, scheduledIso } = accepted;
  return {
    status: billable === 0 ? 'completed' : scheduledIso ? 'scheduled' : 'running',
    scheduledAt: billable > 0 ? scheduledIso : null,
    totalRecipients: accepted.count,
    billableCount: billable,
    duplicateCount: accepted.duplicates,
    invalidCount: accepted.invalid,
    suppressedCount: accepted.suppressed,
    totalCostUnits: billable * accepted.priceUnits,
    updatedAt: nowIso,
    completedAt: billable > 0 ? null : nowIso,
  };
}

/** A message row's stored status, its error, and its values as stored, from acceptance's status code. */
const statusOf = (code: number) => ACCEPTED_STATUS_BY_CODE[code] ?? 'suppressed';
export const errorOf = (code: number) => (code === 1 ? catalogue.sending.duplicateBlocked : code === 2 ? catalogue.sending.optedOut : null);
const variablesOf = (r: RecipientRow) => (Object.keys(r.variables).length > 0 ? JSON.stringify(r.variables) : null);

/** A value in COPY's text format: backslash, tab and line breaks escaped. */
function copyText(value: string): string {
  return /[\\\t\n\r]/.test(value) ? value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : value;
}

/** The columns of PostgreSQL's unnest() insert of message rows, their values (`$now`: the time) and the unnested arrays' names. */
export const PG_MESSAGE_COLUMNS =
  'campaign_id, user_id, recipient, status, price_units, variables, dedupe_key, error_code, error_message, attempts, next_attempt_at, refunded, created_at, updated_at';
const PG_MESSAGE_VALUES = 't.recipient, t.status, t.price, t.variables, t.dedupe, t.error_code, t.error_message, 0, t.next_attempt, false, $now, $now';
const PG_MESSAGE_UNNESTED = 't(recipient, status, price, variables, dedupe, error_code, error_message, next_attempt)';

/** Rows `start` to `end` of a send as the arrays PostgreSQL's unnest() insert takes, in `PG_MESSAGE_UNNESTED` order. */
function pgMessageArrays(
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
    errorCodes.push(code === 2 ? 131050 : null);
    errorMessages.push(errorOf(code));
    nextAttempts.push(code === 0 ? dueIso : null);
  }
  return [to, statuses, prices, variables, dedupe, errorCodes, errorMessages, nextAttempts];
}

/** A send's message rows, with the ids taken for them, as a part of acceptance's single statement. */
function pgMessagesPart(batch: {
  ids: readonly number[];
  campaignId: number;
  userId: number;
  priceUnits: number;
  nowIso: string;
  dueIso: string;
  recipients: readonly RecipientRow[];
  keys: DedupeKeys;
  statusCodes: Uint8Array;
}): StatementPart {
  return {
    sql: `insert into messages (id, ${PG_MESSAGE_COLUMNS})
      select t.id, ?, ?, ${PG_MESSAGE_VALUES.replaceAll('$now', '?::timestamptz')}
        from unnest(?::bigint[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[], ?::int[], ?::text[], ?::timestamptz[]) as t(id, ${PG_MESSAGE_UNNESTED.slice(2)}`,
    bindings: [batch.campaignId, batch.userId, batch.nowIso, batch.nowIso, batch.ids, ...pgMessageArrays(batch, 0, batch.recipients.length)],
  };
}

/** A campaign's row as acceptance writes it. */
function campaignRow(input: Omit<AcceptCampaignInput, 'recipients'> | StreamedCampaignInput, figures: CampaignFigures & { priceUnits: number }) {
  const { template } = input;
  return {
    userId: input.user.id,
    templateId: template.id,
    senderNumberId: input.senderNumberId,
    name: input.name.slice(0, 200),
    source: input.source,
    templateName: template.name,
    templateLanguage: template.language,
    category: template.category,
    headerMediaType: input.headerMedia?.type ?? null,
    headerMediaPath: input.headerMedia?.path ?? null,
    headerMediaName: input.headerMedia?.name?.slice(0, 255) ?? null,
    createdAt: figures.updatedAt,
    ...figures,
  };
}

/** The public API's day campaign's name: the template and the Indian day it collects. */
export function apiDayCampaignName(templateName: string, day: string): string {
  return `API - ${templateName} - ${day}`;
}

/** A day campaign is charged once per group of sends it takes: each debit has a key of its own. */
function joinDebitKey(campaignId: number): string {
  return `campaign:${campaignId}:debit:${randomUUID()}`;
}

/** A day campaign whose status is `completed` runs again when a send queues a message in it. */
const REOPENED_STATUS_SQL = "case when status = 'completed' then 'running' else status end";
const REOPENED_COMPLETED_AT_SQL = "case when status = 'completed' then null else completed_at end";

/**
 * PostgreSQL: a join's update of the day campaign as a part of acceptance's single statement
 * (`joinCampaign`'s), answering its id only where the campaign still takes sends and the guard let
 * the send through.
 */
function joinPart(campaignId: number, figures: CampaignFigures, guard: StatementPart): StatementPart {
  return {
    sql: `update campaigns set total_recipients = total_recipients + ?, billable_count = billable_count + ?, duplicate_count = duplicate_count + ?,
        invalid_count = invalid_count + ?, suppressed_count = suppressed_count + ?, total_cost_units = total_cost_units + ?,
        status = ${REOPENED_STATUS_SQL}, completed_at = ${REOPENED_COMPLETED_AT_SQL}, updated_at = ?
      where id = ? and api_day is not null and ${guard.sql} returning id`,
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

/** The ledger's description of a campaign's debit. */
function debitDescription(name: string, billable: number): string {
  return `Campaign "${name.slice(0, 120)}": ${billable} message${billable === 1 ? '' : 's'}`;
}

/** A streamed send's status codes, appended a chunk at a time (one byte per recipient). */
class GrowingCodes {
  private buffer = new Uint8Array(65_536);
  private length = 0;

  append(codes: Uint8Array): void {
    if (this.length + codes.length > this.buffer.length) {
      const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + codes.length));
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
    }
    this.buffer.set(codes, this.length);
    this.length += codes.length;
  }

  codes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

function insufficientBalance(costUnits: number, balanceUnits: number): AppError {
  return new AppError(
    402,
    'insufficient_balance',
    fillMessage(catalogue.sending.insufficientBalance, { cost: formatIndianNumber(unitsToRupees(costUnits), 2), balance: formatIndianNumber(unitsToRupees(Math.max(0, balanceUnits)), 2) }),
  );
}
