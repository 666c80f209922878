import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { istDayStart, istMonthRange } from '@shared/istTime';
import { messages } from '@shared/messages';
import type { TWalletHistoryQuery } from '@shared/schemas/wallet';
import { WALLET_TYPES_BY_KIND } from '@shared/walletHistory';
import { AppError, NotFoundError } from '../errors';
import { isUniqueViolation } from '../db/knex';
import { forUpdateIfSupported } from '../db/dialect';
import { insertPart, type StatementPart } from '../db/singleStatement';
import { CreditTransaction, Payment, User } from '../models';

const DAY_MS = 86_400_000;
/** Message ids per lookup of a refund (under SQLite's limit of bound values). */
const REFUND_LOOKUP_CHUNK = 900;

/**
 * The wallet's one rule on every change of a balance: it never goes below zero. SQL over the
 * `users` row, bound to the signed change; both ways money moves use it (`write`'s conditional
 * update and the debit of acceptance's single statement). The database's CHECK constraint refuses
 * a negative balance too, as a last guard should code go wrong.
 */
const NEVER_BELOW_ZERO_SQL = 'credit_balance + ? >= 0';
/** The balance after a signed change, bound to the change. */
const CHANGED_BALANCE_SQL = 'credit_balance + ?';

/** A top-up as its receipt needs it: the ledger entry, the payment behind it and the payer. */
export interface TopUpReceiptSource {
  entry: CreditTransaction;
  payment: Payment | null;
  user: User;
}

export interface LedgerEntryInput {
  userId: number;
  /** Signed credit units: positive adds, negative spends. */
  amountUnits: number;
  /** Type code; credits contain ADD (spec 000 §3). */
  type: string;
  description: string;
  /** Unique per balance change: a retry with the same key does nothing and answers the first entry. */
  idempotencyKey: string;
  templateName?: string | null;
  templateCategory?: string | null;
  referenceType?: string | null;
  referenceId?: string | null;
  actorUserId?: number | null;
}

export const InsufficientCreditsError = () => new AppError(422, 'insufficient_credits', messages.wallet.insufficientCredits);

/**
 * The wallet ledger. Every balance change is one ledger row written in the same transaction as
 * the conditional balance update; the database's CHECK constraints refuse a negative balance
 * even if code were wrong.
 */
export class WalletService {
  constructor(private readonly deps: { db: Knex }) {}

  /**
   * Applies one ledger entry. Runs in a savepoint when given a transaction, so a duplicate key
   * rolls back only this entry. Answers the entry and whether it was applied now.
   *
   * `keyIsNew`: the key names a row made in the caller's own transaction (a new campaign's debit),
   * so no earlier entry can hold it: neither the lookup nor the savepoint is needed, and a clash
   * would roll back the caller's whole transaction. The public send API debits once per group
   * commit, and these three round trips were a sixth of each.
   */
  async apply(input: LedgerEntryInput, outer: Knex = this.deps.db, options: { keyIsNew?: boolean } = {}): Promise<{ entry: CreditTransaction; applied: boolean }> {
    if (!Number.isSafeInteger(input.amountUnits)) throw new Error(`Ledger amount must be an integer: ${input.amountUnits}`);
    if (options.keyIsNew && outer.isTransaction) return { entry: await this.write(input, outer), applied: true };
    const existing = await CreditTransaction.query(outer).findOne({ idempotencyKey: input.idempotencyKey });
    if (existing) return { entry: existing, applied: false };
    try {
      return await outer.transaction(async (trx) => ({ entry: await this.write(input, trx), applied: true }));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const first = await CreditTransaction.query(outer).findOne({ idempotencyKey: input.idempotencyKey });
      if (!first) throw error;
      return { entry: first, applied: false };
    }
  }

  /** The conditional balance update and its ledger row, each one statement answering what it wrote. */
  private async write(input: LedgerEntryInput, trx: Knex): Promise<CreditTransaction> {
    const [updated] = (await trx('users')
      .where({ id: input.userId })
      .whereNull('deletedAt')
      .andWhereRaw(NEVER_BELOW_ZERO_SQL, [input.amountUnits])
      .update(
        {
          creditBalance: trx.raw(CHANGED_BALANCE_SQL, [input.amountUnits]),
          updatedAt: new Date().toISOString(),
        },
        ['creditBalance'],
      )) as { creditBalance: number | string }[];
    if (!updated) {
      const user = await User.query(trx).findById(input.userId).whereNull('deletedAt');
      if (!user) throw new AppError(404, 'user_not_found', messages.admin.userNotFound);
      throw InsufficientCreditsError();
    }
    return CreditTransaction.query(trx)
      .insert(ledgerRow(input, Number(updated.creditBalance), new Date()))
      .returning('*');
  }

  /**
   * A new campaign's debit as two parts of the caller's single PostgreSQL statement (the public
   * send API's group commit): `wallet_debit`, the conditional balance update, and
   * `wallet_ledger`, its ledger row, whose `balance_after` is the update's answer. Where the wallet
   * cannot cover the debit the update changes no row, the ledger row's NOT NULL `balance_after`
   * refuses it, and with it the whole statement: nothing the statement wrote is kept
   * (`isRefusedStatementDebit` tells that refusal). The idempotency key names a campaign row that
   * does not exist yet, so no earlier entry can hold it (as `keyIsNew`).
   */
  campaignDebitStatementParts(input: CampaignDebitInput & { at: Date }, condition?: StatementPart): { debit: StatementPart; ledger: StatementPart } {
    if (!Number.isSafeInteger(input.units)) throw new Error(`Ledger amount must be an integer: ${input.units}`);
    // `write`'s conditional update as the CTE's text, under the same rule (NEVER_BELOW_ZERO_SQL).
    // A condition of the caller's (a subquery of no row's) is checked once, before the row is locked.
    const debit = {
      sql: `update users set credit_balance = ${CHANGED_BALANCE_SQL}, updated_at = ? where id = ? and deleted_at is null and ${NEVER_BELOW_ZERO_SQL}${condition ? ` and ${condition.sql}` : ''} returning credit_balance, low_balance_threshold_units`,
      bindings: [-input.units, input.at.toISOString(), input.userId, -input.units, ...(condition?.bindings ?? [])],
    };
    const ledger = insertPart(this.deps.db, 'credit_transactions', ledgerRow(campaignDebitEntry(input), this.deps.db.raw('(select credit_balance from wallet_debit)'), input.at));
    return { debit, ledger };
  }

  /** A page of a user's ledger, newest first, with the total count. */
  async history(userId: number, page = 1, limit = 50): Promise<{ entries: CreditTransaction[]; total: number }> {
    const [entries, total] = await Promise.all([
      CreditTransaction.query(this.deps.db).where({ userId }).orderBy('id', 'desc').limit(limit).offset((page - 1) * limit),
      CreditTransaction.query(this.deps.db).where({ userId }).resultSize(),
    ]);
    return { entries, total };
  }

  /**
   * A page of a user's ledger for the Wallet page, newest first, keyset-paged by id (the
   * `(user_id, id)` index serves every filter: kinds and IST days only narrow that range). Asks
   * one row more than the page to know whether another page follows.
   */
  async historyPage(userId: number, query: TWalletHistoryQuery): Promise<{ entries: CreditTransaction[]; nextCursor: string | null }> {
    let builder = CreditTransaction.query(this.deps.db).where({ userId });
    if (query.cursor) builder = builder.where('id', '<', query.cursor);
    if (query.kind) builder = builder.whereIn('type', [...WALLET_TYPES_BY_KIND[query.kind]]);
    if (query.from) builder = builder.where('createdAt', '>=', istDayStart(query.from).toISOString());
    if (query.to) builder = builder.where('createdAt', '<', new Date(istDayStart(query.to).getTime() + DAY_MS).toISOString());
    const rows = await builder.orderBy('id', 'desc').limit(query.limit + 1);
    const entries = rows.slice(0, query.limit);
    const last = entries.at(-1);
    return { entries, nextCursor: rows.length > query.limit && last ? String(last.id) : null };
  }

  /** Every ledger entry of a user in an IST month (YYYY-MM), oldest first: the monthly statement's. */
  async monthEntries(userId: number, month: string): Promise<CreditTransaction[]> {
    const { from, to } = istMonthRange(month);
    return CreditTransaction.query(this.deps.db).where({ userId }).where('createdAt', '>=', from.toISOString()).where('createdAt', '<', to.toISOString()).orderBy('id');
  }

  /**
   * When each of these ledger entries' campaigns is due, for those still waiting for their time:
   * their debit reserves the cost of messages not sent yet.
   */
  async scheduledCampaignTimes(userId: number, entries: readonly CreditTransaction[]): Promise<Map<string, Date>> {
    const ids = [...new Set(entries.filter((entry) => entry.type === 'CAMPAIGN_DEBIT' && entry.referenceType === 'campaign' && entry.referenceId).map((entry) => String(entry.referenceId)))];
    if (ids.length === 0) return new Map();
    const rows = (await this.deps.db('campaigns').where({ userId, status: 'scheduled' }).whereIn('id', ids.map(Number)).whereNotNull('scheduledAt').select('id', 'scheduledAt')) as { id: number; scheduledAt: string | Date }[];
    return new Map(rows.map((row) => [String(row.id), new Date(row.scheduledAt)]));
  }

  /**
   * A top-up of this user for its receipt. Another user's entry, or an entry that is not a
   * top-up, is not found (404, never 403: ids are not confirmed to exist).
   */
  async topUpReceiptSource(userId: number, entryId: string): Promise<TopUpReceiptSource> {
    if (!/^\d{1,18}$/.test(entryId)) throw NotFoundError(messages.walletHistory.receiptNotFound);
    const entry = await CreditTransaction.query(this.deps.db).findOne({ id: entryId, userId, type: 'TOPUP_ADD' });
    if (!entry) throw NotFoundError(messages.walletHistory.receiptNotFound);
    const user = await User.query(this.deps.db).findById(userId);
    if (!user) throw NotFoundError(messages.walletHistory.receiptNotFound);
    const payment =
      entry.referenceType === 'payment' && entry.referenceId
        ? ((await Payment.query(this.deps.db).findOne({ paymentId: entry.referenceId, userId })) ?? null)
        : null;
    return { entry, payment, user };
  }

  /** The current balance in credit units. */
  async balance(userId: number, db: Knex = this.deps.db): Promise<number> {
    const row = (await db('users').where({ id: userId }).whereNull('deletedAt').first('creditBalance')) as { creditBalance: number } | undefined;
    if (!row) throw new AppError(404, 'user_not_found', messages.admin.userNotFound);
    return Number(row.creditBalance);
  }

  /**
   * Takes back up to `units` credits in the caller's transaction, never more than the wallet
   * holds (the balance floors at zero, as an administrator's deduction does), reading the balance
   * under a row lock on PostgreSQL. Answers the entry (null when nothing was there to take), the
   * units taken and whether this call applied it (false: the key's entry was already written).
   */
  async deductAtMost(trx: Knex, input: Omit<LedgerEntryInput, 'amountUnits'> & { units: number }): Promise<{ entry: CreditTransaction | null; movedUnits: number; applied: boolean }> {
    const existing = await CreditTransaction.query(trx).findOne({ idempotencyKey: input.idempotencyKey });
    if (existing) return { entry: existing, movedUnits: -existing.amount, applied: false };
    const locked = (await forUpdateIfSupported(trx('users').where({ id: input.userId }).whereNull('deletedAt'), trx).first('creditBalance')) as { creditBalance: number } | undefined;
    if (!locked) throw new AppError(404, 'user_not_found', messages.admin.userNotFound);
    const moved = Math.min(input.units, Number(locked.creditBalance));
    if (moved <= 0) return { entry: null, movedUnits: 0, applied: true };
    const { units: _units, ...entryInput } = input;
    const { entry, applied } = await this.apply({ ...entryInput, amountUnits: -moved }, trx);
    return { entry, movedUnits: applied ? moved : -entry.amount, applied };
  }

  /**
   * An administrator adds or deducts credits. A deduction takes at most what the wallet holds
   * (spec 001: the balance floors at zero); the amount actually moved is answered. The balance is
   * read under a row lock on PostgreSQL (SQLite has one writer) so concurrent adjustments compose.
   */
  async adjustByAdmin(input: {
    userId: number;
    mode: 'add' | 'deduct';
    units: number;
    reason: string;
    actorUserId: number;
    idempotencyKey: string;
    ip?: string | null;
    audit: (trx: Knex, details: Record<string, unknown>) => Promise<void>;
    /** Runs in the adjustment's transaction once it is applied (a refund's credit notes). */
    onApplied?: (trx: Knex, entry: CreditTransaction) => Promise<void>;
  }): Promise<{ entry: CreditTransaction | null; movedUnits: number; balanceUnits: number }> {
    return this.deps.db.transaction(async (trx) => {
      const locked = (await forUpdateIfSupported(trx('users').where({ id: input.userId }).whereNull('deletedAt'), trx).first('creditBalance')) as { creditBalance: number } | undefined;
      if (!locked) throw new AppError(404, 'user_not_found', messages.admin.userNotFound);
      const current = Number(locked.creditBalance);
      const moved = input.mode === 'add' ? input.units : Math.min(input.units, current);
      if (moved === 0) return { entry: null, movedUnits: 0, balanceUnits: current };
      const { entry, applied } = await this.apply(
        {
          userId: input.userId,
          amountUnits: input.mode === 'add' ? moved : -moved,
          type: input.mode === 'add' ? 'ADMIN_ADD' : 'ADMIN_DEDUCT',
          description: input.reason,
          idempotencyKey: input.idempotencyKey,
          referenceType: 'admin',
          referenceId: String(input.actorUserId),
          actorUserId: input.actorUserId,
        },
        trx,
      );
      // A retry of an adjustment already made answers that adjustment and records nothing new.
      if (!applied) return { entry, movedUnits: Math.abs(entry.amount), balanceUnits: await this.balance(input.userId, trx) };
      await input.audit(trx, { mode: input.mode, requestedUnits: input.units, movedUnits: moved, balanceAfter: entry.balanceAfter, reason: input.reason });
      await input.onApplied?.(trx, entry);
      return { entry, movedUnits: moved, balanceUnits: entry.balanceAfter };
    });
  }

  /**
   * Charges a campaign at acceptance, in the caller's transaction (which also writes the campaign
   * and its messages). Refused with 422 when the wallet cannot cover it; idempotent per campaign.
   */
  async debitCampaign(
    trx: Knex,
    input: CampaignDebitInput,
    /** `campaignIsNew`: the campaign was inserted in `trx` itself, so it cannot have been debited before. */
    options: { campaignIsNew?: boolean } = {},
  ): Promise<CreditTransaction> {
    const { entry } = await this.apply(campaignDebitEntry(input), trx, { keyIsNew: options.campaignIsNew === true });
    return entry;
  }

  /**
   * Refunds finally failed (or cancelled) messages that were charged and not refunded yet, in the
   * caller's transaction: one ledger row per campaign and call, covering each message once (its
   * `refunded` flag flips in this same transaction, and only rows this call flipped are paid).
   * Answers the campaigns touched, the messages refunded and the units paid back.
   */
  async refundMessages(
    trx: Knex.Transaction,
    messageIds: readonly number[],
    status: 'failed' | 'cancelled' = 'failed',
  ): Promise<{ campaignIds: number[]; messageIds: number[]; units: number }> {
    if (messageIds.length === 0) return { campaignIds: [], messageIds: [], units: 0 };
    const rows: { id: number; campaignId: number; userId: number; priceUnits: number }[] = [];
    for (let start = 0; start < messageIds.length; start += REFUND_LOOKUP_CHUNK) {
      const chunk = messageIds.slice(start, start + REFUND_LOOKUP_CHUNK);
      const due = (await trx('messages')
        .whereIn('id', chunk)
        .where({ status, refunded: false })
        .where('priceUnits', '>', 0)
        .select('id', 'campaignId', 'userId', 'priceUnits')) as typeof rows;
      if (due.length === 0) continue;
      // The flag flips only where it is still false, and only rows this call flipped are paid:
      // a concurrent refund of the same message cannot pay it twice.
      const flipped = (await trx('messages')
        .whereIn(
          'id',
          due.map((r) => r.id),
        )
        .where({ refunded: false })
        .update({ refunded: true }, ['id'])) as { id: number | string }[];
      const claimed = new Set(flipped.map((r) => Number(r.id)));
      rows.push(...due.filter((r) => claimed.has(Number(r.id))));
    }
    const byCampaign = new Map<number, { userId: number; units: number; count: number }>();
    for (const row of rows) {
      const entry = byCampaign.get(row.campaignId) ?? { userId: row.userId, units: 0, count: 0 };
      entry.units += Number(row.priceUnits);
      entry.count += 1;
      byCampaign.set(row.campaignId, entry);
    }
    for (const [campaignId, entry] of byCampaign) {
      const campaign = (await trx('campaigns').where({ id: campaignId }).first('name', 'templateName', 'category')) as { name: string; templateName: string | null; category: string | null } | undefined;
      await this.apply(
        {
          userId: entry.userId,
          amountUnits: entry.units,
          type: 'REFUND_ADD',
          description: `Refund: ${entry.count} ${status} message${entry.count === 1 ? '' : 's'} in campaign "${(campaign?.name ?? String(campaignId)).slice(0, 120)}"`,
          idempotencyKey: `campaign:${campaignId}:refund:${randomUUID()}`,
          templateName: campaign?.templateName ?? null,
          templateCategory: campaign?.category ?? null,
          referenceType: 'campaign',
          referenceId: String(campaignId),
        },
        trx,
      );
      await trx('campaigns')
        .where({ id: campaignId })
        .update({ refundedUnits: trx.raw('refunded_units + ?', [entry.units]), updatedAt: new Date().toISOString() });
    }
    return { campaignIds: [...byCampaign.keys()], messageIds: rows.map((r) => Number(r.id)), units: rows.reduce((sum, r) => sum + Number(r.priceUnits), 0) };
  }
}

/** What a debit left in the wallet, as the debit's own statement answered it (the low-balance check needs no read). */
export interface WalletAfterDebit {
  balanceUnits: number;
  /** The user's own low-balance threshold; null for the default. */
  lowBalanceThresholdUnits: number | null;
}

export interface CampaignDebitInput {
  userId: number;
  campaignId: number | string;
  units: number;
  description: string;
  templateName?: string | null;
  templateCategory?: string | null;
  /**
   * The debit's idempotency key where the campaign is charged more than once (the public API's
   * day campaign is charged once per group of sends it takes); `campaign:{id}:debit` otherwise.
   */
  debitKey?: string;
}

function campaignDebitEntry(input: CampaignDebitInput): LedgerEntryInput {
  return {
    userId: input.userId,
    amountUnits: -input.units,
    type: 'CAMPAIGN_DEBIT',
    description: input.description,
    idempotencyKey: input.debitKey ?? `campaign:${input.campaignId}:debit`,
    templateName: input.templateName ?? null,
    templateCategory: input.templateCategory ?? null,
    referenceType: 'campaign',
    referenceId: String(input.campaignId),
  };
}

/** A ledger entry's row, its balance after the change given (a number, or the statement's own answer). */
function ledgerRow<Balance extends number | Knex.Raw>(input: LedgerEntryInput, balanceAfter: Balance, at: Date) {
  return {
    userId: input.userId,
    type: input.type,
    amount: input.amountUnits,
    balanceAfter,
    description: input.description.slice(0, 255),
    templateName: input.templateName ?? null,
    templateCategory: input.templateCategory ?? null,
    referenceType: input.referenceType ?? null,
    referenceId: input.referenceId ?? null,
    idempotencyKey: input.idempotencyKey,
    actorUserId: input.actorUserId ?? null,
    createdAt: at,
  };
}

/** The refusal of `campaignDebitStatementParts`' debit: the wallet could not cover it, so its ledger row had no balance. */
export function isRefusedStatementDebit(error: unknown): boolean {
  const fault = error as { code?: unknown; table?: unknown; column?: unknown } | null;
  return fault !== null && typeof fault === 'object' && fault.code === '23502' && fault.table === 'credit_transactions' && fault.column === 'balance_after';
}
