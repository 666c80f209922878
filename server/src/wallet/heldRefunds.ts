import type { Knex } from 'knex';
import type { AuditService } from '../audit/service';
import type { WalletService } from './service';
import type { MessageRow } from '../db/rows/messages';

/** How many held messages one listing shows (the count and total cover them all). */
const LISTED_MAX = 500;

export interface HeldRefundRow {
  id: number;
  campaignId: number;
  campaignName: string;
  recipient: string;
  priceUnits: number;
  failedAt: string | null;
  errorCode: number | null;
  errorMessage: string | null;
}

/**
 * Refunds held for an administrator: a `failed` status reported only under a customer's own app
 * secret marks the message failed but does not refund it (the customer could forge it). Such a
 * message stays `failed`, charged and unrefunded until an administrator releases it here, through
 * the same refund path every other refund takes (its flag flips once, so a refund pays once).
 */
export class HeldRefunds {
  constructor(private readonly deps: { db: Knex; wallet: WalletService; audit: AuditService }) {}

  private held(db: Knex, userId: number) {
    return db('messages').where({ 'messages.userId': userId, 'messages.status': 'failed', 'messages.refunded': false }).where('messages.priceUnits', '>', 0);
  }

  async list(userId: number): Promise<{ count: number; units: number; messages: HeldRefundRow[] }> {
    const totals = (await this.held(this.deps.db, userId).count('messages.id as count').sum('messages.priceUnits as units').first()) as { count: number | string; units: number | string | null } | undefined;
    const rows = (await this.held(this.deps.db, userId)
      .join('campaigns', 'campaigns.id', 'messages.campaignId')
      .orderBy('messages.id')
      .limit(LISTED_MAX)
      .select('messages.id', 'messages.campaignId', 'campaigns.name as campaignName', 'messages.recipient', 'messages.priceUnits', 'messages.failedAt', 'messages.errorCode', 'messages.errorMessage')) as (Omit<HeldRefundRow, 'failedAt'> & { failedAt: string | Date | null })[];
    return {
      count: Number(totals?.count ?? 0),
      units: Number(totals?.units ?? 0),
      messages: rows.map((row) => ({
        ...row,
        id: Number(row.id),
        campaignId: Number(row.campaignId),
        priceUnits: Number(row.priceUnits),
        failedAt: row.failedAt === null ? null : new Date(row.failedAt).toISOString(),
      })),
    };
  }

  /**
   * Refunds the user's held messages (the named ones, else all), audited in the same transaction.
   * Ids that are not this user's held messages are ignored; a message already refunded pays nothing.
   */
  async release(userId: number, messageIds: readonly number[] | undefined, actor: { userId: number; ip: string | null }): Promise<{ released: number; units: number; balanceUnits: number }> {
    return this.deps.db.transaction(async (trx) => {
      const query = this.held(trx, userId).orderBy('messages.id');
      if (messageIds) query.whereIn('messages.id', [...messageIds]);
      const ids = ((await query.select('messages.id')) as Pick<MessageRow, 'id'>[]).map((row) => Number(row.id));
      const result = await this.deps.wallet.refundMessages(trx, ids);
      if (result.messageIds.length > 0) {
        await this.deps.audit.record(
          {
            actorUserId: actor.userId,
            action: 'refund.release_held',
            targetType: 'user',
            targetId: userId,
            details: { messages: result.messageIds.length, amountUnits: result.units, messageIds: result.messageIds.slice(0, 1000) },
            ip: actor.ip,
          },
          trx,
        );
      }
      return { released: result.messageIds.length, units: result.units, balanceUnits: await this.deps.wallet.balance(userId, trx) };
    });
  }
}
