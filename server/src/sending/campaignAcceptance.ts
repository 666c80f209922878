/**
 * Campaign acceptance, the rule every send follows (quick, bulk, custom, upload, the public API):
 * check the template, price the send, screen its recipients (Duplicate Blocked by an earlier
 * campaign's identical message in the window, opted out), classify each, check the balance, write
 * the campaign, its debit and its messages together, and announce what completed. Where the rows
 * go and how is the `AcceptanceStore`'s (acceptance/store.ts), chosen once in container.ts; the
 * queue's jobs are the `Enqueuer`'s (dispatchJobs.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { fillMessage, messages as catalogue } from '@shared/messages';
import { formatIndianNumber, unitsToRupees } from '@shared/money';
import type { PriceCategory } from '@shared/pricing';
import { templateStatusLabel, USABLE_TEMPLATE_STATUSES } from '@shared/templates';
import { AppError } from '../errors';
import type { Template, User } from '../models';
import type { PricingService } from '../pricing/service';
import { isRefusedStatementDebit, type WalletAfterDebit, type WalletService } from '../wallet/service';
import { DedupeKeyMaker, DedupeKeys } from './acceptance/dedupeKeys';
import { isDuplicateRace, MESSAGE_LOCKS_MAX } from './acceptance/duplicateLocks';
import type { RecipientRow } from './acceptance/messageRows';
import type { AcceptanceStore, CampaignFigures, CampaignRowValues } from './acceptance/store';
import type { Enqueuer } from './dispatchJobs';


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
  /** Variable to contact attribute, JSON: the columns the contacts worker remembers on contacts. */
  contactAttributes?: string | null;
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

/** A chunk's fates and Duplicate Blocked keys (see `CampaignAcceptance.classify`). */
interface ClassifiedChunk {
  keys: DedupeKeys;
  statusCodes: Uint8Array;
  billable: number;
  duplicates: number;
  suppressed: number;
}

/**
 * Sends of at least this many recipients (unless configured otherwise) are written as lean rows
 * into `campaign_recipients` and become message rows right after the commit (the store's
 * `insertStaged` and `sending/materialiser.ts`).
 */
export const STAGED_MIN_RECIPIENTS = 50_000;
/**
 * A streamed send reads its earlier campaigns' keys into memory up to this many (about 80 MB);
 * beyond, each chunk's keys are probed in the index.
 */
const STREAM_EARLIER_KEYS_LOADED = 1_000_000;
/** Queued message ids per enqueue when a scheduled campaign starts. */
const RELEASE_ENQUEUE_CHUNK = 5_000;

export class CampaignAcceptance {
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
      store: AcceptanceStore;
      /** The queue's jobs for queued messages (none where the dispatcher polls the table). */
      jobs: Enqueuer;
      pricing: PricingService;
      wallet: WalletService;
      duplicateWindowHours: number;
      /** Sends of at least this many recipients are staged (`STAGED_MIN_RECIPIENTS` when unset). */
      stagedMinRecipients?: number;
      now?: () => Date;
    },
  ) {}

  /**
   * A scheduled campaign starting (ScheduledCampaigns): its queued messages become due now, with
   * their queue jobs made in the same transaction, so a crash cannot leave them without jobs.
   */
  async releaseScheduled(trx: Knex.Transaction, campaignId: number): Promise<number> {
    const { jobs } = this.deps;
    const { count, ids } = await this.deps.store.releaseScheduled(trx, campaignId, this.now().toISOString(), jobs.makesJobs);
    for (let start = 0; start < ids.length; start += RELEASE_ENQUEUE_CHUNK) await jobs.enqueue(trx, ids.slice(start, start + RELEASE_ENQUEUE_CHUNK));
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
    const { store } = this.deps;
    this.begin({ user, template });
    const nowIso = this.now().toISOString();
    const where = { userId: user.id, apiKeyId: key.apiKeyId, templateId: template.id, senderNumberId: key.senderNumberId, apiDay: key.day };
    const existing = await store.findDayCampaign(where);
    if (existing !== null) return existing;
    const priceUnits = await this.deps.pricing.effectiveFor(user.id, template.category.toLowerCase() as PriceCategory);
    const input = { user, template, senderNumberId: key.senderNumberId, name: apiDayCampaignName(template.name, key.day), source: 'api' as const, headerMedia: key.headerMedia ?? null };
    const figures = { priceUnits, ...campaignFigures({ count: 0, billable: 0, duplicates: 0, invalid: 0, suppressed: 0, priceUnits, nowIso, scheduledIso: null }) };
    await store.insertDayCampaign({ ...campaignRow(input, figures), apiKeyId: key.apiKeyId, apiDay: key.day });
    const made = await store.findDayCampaign(where);
    if (made === null) throw new Error(`the API's day campaign of user ${user.id} was not made`);
    return made;
  }

  async accept(input: AcceptCampaignInput): Promise<AcceptedCampaign> {
    const { user, template } = input;
    const { store } = this.deps;
    const { now, nowIso, scheduledIso } = this.begin(input);
    const category = template.category.toLowerCase() as PriceCategory;
    const recipients = input.recipients;
    const count = recipients.length;
    // A large send due now is written as lean rows; its message rows follow the commit.
    const staged = !scheduledIso && input.returnMessageIds !== true && count >= (this.deps.stagedMinRecipients ?? STAGED_MIN_RECIPIENTS);
    const keys = DedupeKeys.of(new DedupeKeyMaker(user.id, template.id), recipients);
    const oneStatement = store.oneStatement;
    if (oneStatement && this.deps.jobs.embedsInStatement && !staged && !scheduledIso && count > 0 && count <= oneStatement.maxRecipients) {
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
      // send of the same messages at the same moment waits and then finds these.
      await store.lockDuplicates(trx, user.id, template.id, count <= MESSAGE_LOCKS_MAX ? keys.slice(0, count) : null);
      const classified = await this.classify(trx, user.id, template.id, recipients, keys, now);
      const { statusCodes, billable } = classified;
      const totalCostUnits = billable * priceUnits;
      // The debit below checks again; this refuses before anything is written.
      if (totalCostUnits > 0 && balance < totalCostUnits) throw insufficientBalance(totalCostUnits, balance);
      const { figures, accepted } = outcomeOf(input, classified, { priceUnits, nowIso, scheduledIso });
      let id: number;
      if (input.joinCampaignId !== undefined) {
        id = input.joinCampaignId;
        if (!(await store.joinCampaign(trx, id, figures))) throw new ApiDayCampaignClosed(id);
      } else id = await store.insertCampaign(trx, campaignRow(input, staged ? { ...figures, stagedRecipients: count } : figures));
      await this.debit(trx, input, id, billable, totalCostUnits);
      if (staged) await store.insertStaged(trx, { campaignId: id, recipients, keys, statusCodes, firstPosition: 0 });
      else {
        messageIds = await store.insertMessages(trx, {
          ...this.messagesOf({ campaignId: id, userId: user.id, priceUnits, nowIso, scheduledIso }),
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

  /**
   * A small send due now, where the store can (PostgreSQL): its reads as one statement, then,
   * where there is something to debit, its writes as another, guarded against a send of the same
   * messages meanwhile. Null where nothing is billable: such a send is written in a transaction.
   * Where the wallet no longer covers the debit (another send spent it since the balance was read)
   * the statement fails as a whole and the refusal is the one `accept` gives.
   */
  private async acceptAsOneStatement(input: AcceptCampaignInput, keys: DedupeKeys, at: { category: PriceCategory; now: Date; nowIso: string }): Promise<AcceptedCampaign | null> {
    const { user, template, recipients } = input;
    const { category, now, nowIso } = at;
    const oneStatement = this.deps.store.oneStatement;
    if (!oneStatement) return null;
    const since = this.windowStart(now);
    const read = await oneStatement.readAtOnce({ userId: user.id, templateId: template.id, priceQuery: this.deps.pricing.effectiveForQuery(user.id, category), recipients, keys, since });
    const priceUnits = await this.deps.pricing.effectiveFromRow(user.id, category, read.price);
    const classified = fates(recipients, keys, new Set(read.blocked), new Set(read.suppressed));
    if (classified.billable === 0) return null;
    const { figures, accepted } = outcomeOf(input, classified, { priceUnits, nowIso, scheduledIso: null });
    const joinId = input.joinCampaignId;
    const campaignId = joinId ?? read.campaignId;
    try {
      const walletAfter = await oneStatement.write({
        userId: user.id,
        templateId: template.id,
        newCampaignId: read.campaignId,
        joinId,
        campaignRow: campaignRow(input, figures),
        figures,
        debit: { ...this.debitInput(input, campaignId, figures.billableCount, figures.totalCostUnits), at: now },
        messageIds: read.messageIds,
        nowIso,
        since,
        recipients,
        keys,
        statusCodes: classified.statusCodes,
        jobs: this.deps.jobs,
      });
      return { campaignId, ...accepted, walletAfter, ...(input.returnMessageIds ? { messageIds: read.messageIds } : {}) };
    } catch (error) {
      if (joinId !== undefined && !isDuplicateRace(error) && !(await this.deps.store.takesSends(joinId))) throw new ApiDayCampaignClosed(joinId);
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
    const { store } = this.deps;
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
        // Reads inside go through the transaction: on SQLite it holds the only connection.
        await store.lockDuplicates(trx, user.id, template.id, null);
        const classify = await this.chunkClassifier(trx, user.id, template.id, now);
        const id = await store.insertCampaign(trx, campaignRow(input, { priceUnits, ...campaignFigures({ ...totals, invalid: 0, priceUnits, nowIso, scheduledIso }) }));
        const campaignMessages = this.messagesOf({ campaignId: id, userId: user.id, priceUnits, nowIso, scheduledIso });
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
              await store.insertStaged(trx, { campaignId: id, recipients: chunk, keys: classified.keys, statusCodes: classified.statusCodes, firstPosition });
              stagedCount += chunk.length;
            } else await store.insertMessages(trx, { ...campaignMessages, returnIds: false, recipients: chunk, keys: classified.keys, statusCodes: classified.statusCodes });
          }
          next = await reading;
        }
        const totalCostUnits = totals.billable * priceUnits;
        if (totalCostUnits > 0 && balance < totalCostUnits) throw insufficientBalance(totalCostUnits, balance);
        screenedOut = input.screenedOut();
        await store.updateCampaign(trx, id, {
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

  /**
   * What acceptance would set aside now for these recipients of this template, for a cost preview
   * where the recipients and their values are known (resend to failed): Duplicate Blocked and opted out.
   */
  async screen(userId: number, templateId: number, recipients: readonly RecipientRow[]): Promise<{ billable: number; duplicates: number; suppressed: number; statusCodes: Uint8Array }> {
    const keys = DedupeKeys.of(new DedupeKeyMaker(userId, templateId), recipients);
    const { billable, duplicates, suppressed, statusCodes } = await this.classify(this.deps.db, userId, templateId, recipients, keys, this.now());
    return { billable, duplicates, suppressed, statusCodes };
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

  /** Each recipient's fate: 0 queued, 1 duplicate, 2 suppressed (one byte each instead of a row object). */
  private async classify(db: Knex, userId: number, templateId: number, recipients: readonly RecipientRow[], keys: DedupeKeys, now: Date): Promise<ClassifiedChunk> {
    const since = this.windowStart(now);
    const [blocked, suppressed] = await Promise.all([this.recentKeys(db, { userId, templateId, recipients, keys, since }), this.deps.store.suppressedRecipients(db, userId, recipients)]);
    return fates(recipients, keys, blocked, suppressed);
  }

  /**
   * The classifier of a streamed send's chunks: what earlier campaigns could block is asked once
   * (none, their keys in memory, or a probe per chunk), opt-outs once, then each chunk costs at
   * most one lookup of each. `db` is the accepting transaction where there is one.
   */
  private async chunkClassifier(db: Knex, userId: number, templateId: number, now: Date): Promise<(recipients: readonly RecipientRow[]) => Promise<ClassifiedChunk>> {
    const { store } = this.deps;
    const since = this.windowStart(now);
    const maker = new DedupeKeyMaker(userId, templateId);
    const [earlier, anySuppression] = await Promise.all([store.earlierKeys(db, userId, templateId, since, STREAM_EARLIER_KEYS_LOADED), store.anySuppression(db, userId)]);
    return async (recipients) => {
      const keys = DedupeKeys.of(maker, recipients);
      let blocked = new Set<string>();
      if (earlier === 'probe') blocked = await store.probeKeys(db, { userId, templateId, recipients, keys, since }, blocked);
      else if (earlier.size > 0) {
        for (let i = 0; i < keys.length; i++) if (keys.isIn(i, earlier)) blocked.add(keys.at(i));
      }
      const suppressed = anySuppression ? await store.suppressedRecipients(db, userId, recipients) : new Set<string>();
      return fates(recipients, keys, blocked, suppressed);
    };
  }

  /**
   * Blocked duplicates can only come from this user's earlier campaigns of the same template in
   * the window. A send of one lookup's worth of keys probes the index at once (asking first whether
   * any earlier campaign exists would cost the same round trip again). Otherwise: none earlier (the
   * common case), nothing is looked up; fewer earlier messages than keys, their keys are read into
   * memory; else each key is probed in the index.
   */
  private async recentKeys(db: Knex, probe: { userId: number; templateId: number; recipients: readonly RecipientRow[]; keys: DedupeKeys; since: string }): Promise<Set<string>> {
    const { store } = this.deps;
    const { keys } = probe;
    const found = new Set<string>();
    if (keys.length <= store.lookupChunk) return store.probeKeys(db, probe, found);
    const earlier = await store.earlierKeys(db, probe.userId, probe.templateId, probe.since, keys.length * 2);
    if (earlier === 'probe') return store.probeKeys(db, probe, found);
    // The earlier keys are in the set, not this send's: a million-row send then makes no
    // million-string set, and writes out as text only the keys that may be in it.
    if (earlier.size === 0) return found;
    for (let i = 0; i < keys.length; i++) if (keys.isIn(i, earlier)) found.add(keys.at(i));
    return found;
  }

  private windowStart(now: Date): string {
    return new Date(now.getTime() - this.deps.duplicateWindowHours * 3_600_000).toISOString();
  }

  /**
   * What every message row of a campaign shares: queued rows are due now and get queue jobs, or,
   * for a scheduled campaign, are due at its time and get their jobs when it starts.
   */
  private messagesOf(campaign: { campaignId: number; userId: number; priceUnits: number; nowIso: string; scheduledIso: string | null }) {
    const { scheduledIso, ...shared } = campaign;
    const jobs = !scheduledIso && this.deps.jobs.makesJobs ? this.deps.jobs : null;
    return { ...shared, dueIso: scheduledIso ?? campaign.nowIso, jobs };
  }

  private debitInput(input: { user: User; template: Template; name: string; joinCampaignId?: number | undefined }, campaignId: number, billable: number, units: number) {
    return {
      userId: input.user.id,
      campaignId,
      units,
      description: debitDescription(input.name, billable),
      templateName: input.template.name,
      templateCategory: input.template.category,
      // A day campaign is charged once per group of sends it takes: each debit has a key of its own.
      ...(input.joinCampaignId !== undefined ? { debitKey: `campaign:${campaignId}:debit:${randomUUID()}` } : {}),
    };
  }

  private async debit(trx: Knex.Transaction, input: { user: User; template: Template; name: string; joinCampaignId?: number | undefined }, campaignId: number, billable: number, units: number): Promise<void> {
    if (units <= 0) return;
    try {
      // A new campaign's key, or a join's key made just now: no earlier entry can hold either.
      await this.deps.wallet.debitCampaign(trx, this.debitInput(input, campaignId, billable, units), { campaignIsNew: true });
    } catch (error) {
      // Another send spent the balance between the check before the transaction and this debit.
      // The balance is read in the transaction: on SQLite it holds the only connection, and a read
      // outside it would wait for the connection until the pool gave up.
      if (error instanceof AppError && error.code === 'insufficient_credits') throw insufficientBalance(units, await this.deps.wallet.balance(input.user.id, trx));
      throw error;
    }
  }
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

/** A campaign's figures and what acceptance answers of it, from its recipients' fates. */
function outcomeOf(
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

/** A campaign's row as acceptance writes it. */
function campaignRow(
  input: Pick<AcceptCampaignInput, 'user' | 'template' | 'senderNumberId' | 'name' | 'source' | 'headerMedia' | 'contactAttributes'>,
  figures: CampaignFigures & { priceUnits: number; stagedRecipients?: number },
): CampaignRowValues {
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
    ...(input.contactAttributes ? { contactAttributes: input.contactAttributes } : {}),
    createdAt: figures.updatedAt,
    ...figures,
  };
}

/** The public API's day campaign's name: the template and the Indian day it collects. */
export function apiDayCampaignName(templateName: string, day: string): string {
  return `API - ${templateName} - ${day}`;
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
