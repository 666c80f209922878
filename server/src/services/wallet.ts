import type { Knex } from 'knex';
import { messages } from '@shared/messages';
import { AppError } from '../errors';
import { isUniqueViolation } from '../db/knex';
import { CreditTransaction, User } from '../models';

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

export const InsufficientCreditsError = () =>
  new AppError(422, 'insufficient_credits', 'Insufficient credits for this operation');

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
   */
  async apply(input: LedgerEntryInput, outer: Knex = this.deps.db): Promise<{ entry: CreditTransaction; applied: boolean }> {
    if (!Number.isSafeInteger(input.amountUnits)) throw new Error(`Ledger amount must be an integer: ${input.amountUnits}`);
    const existing = await CreditTransaction.query(outer).findOne({ idempotencyKey: input.idempotencyKey });
    if (existing) return { entry: existing, applied: false };
    try {
      return await outer.transaction(async (trx) => {
        const updated = await trx('users')
          .where({ id: input.userId })
          .whereNull('deletedAt')
          .andWhereRaw('credit_balance + ? >= 0', [input.amountUnits])
          .update({
            creditBalance: trx.raw('credit_balance + ?', [input.amountUnits]),
            updatedAt: new Date().toISOString(),
          });
        if (updated === 0) {
          const user = await User.query(trx).findById(input.userId).whereNull('deletedAt');
          if (!user) throw new AppError(404, 'user_not_found', messages.admin.userNotFound);
          throw InsufficientCreditsError();
        }
        const row = (await trx('users').where({ id: input.userId }).first('creditBalance')) as { creditBalance: number };
        const entry = await CreditTransaction.query(trx).insertAndFetch({
          userId: input.userId,
          type: input.type,
          amount: input.amountUnits,
          balanceAfter: Number(row.creditBalance),
          description: input.description.slice(0, 255),
          templateName: input.templateName ?? null,
          templateCategory: input.templateCategory ?? null,
          referenceType: input.referenceType ?? null,
          referenceId: input.referenceId ?? null,
          idempotencyKey: input.idempotencyKey,
          actorUserId: input.actorUserId ?? null,
          createdAt: new Date(),
        });
        return { entry, applied: true };
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const first = await CreditTransaction.query(outer).findOne({ idempotencyKey: input.idempotencyKey });
      if (!first) throw error;
      return { entry: first, applied: false };
    }
  }

  /** A user's ledger, newest first. */
  async history(userId: number, limit = 200): Promise<CreditTransaction[]> {
    return CreditTransaction.query(this.deps.db).where({ userId }).orderBy('id', 'desc').limit(limit);
  }
}
