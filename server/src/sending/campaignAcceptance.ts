import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { messages as catalogue } from '@shared/messages';
import type { PriceCategory } from '@shared/pricing';
import { USABLE_TEMPLATE_STATUSES } from '@shared/templates';
import { AppError } from '../errors';
import type { Template, User } from '../models';
import type { PricingService } from '../services/pricing';
import type { WalletService } from '../services/wallet';

export interface RecipientRow {
  /** Digits with country code, already normalised and de-duplicated within the send. */
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
  /** Entries dropped as repeats within this send. */
  inSendDuplicates: number;
}

export interface AcceptedCampaign {
  campaignId: number;
  accepted: number;
  duplicates: number;
  invalid: number;
  suppressed: number;
  priceUnits: number;
  totalCostUnits: number;
}

/** Rows per INSERT: SQLite refuses much larger compound inserts; PostgreSQL caps bound parameters. */
const INSERT_CHUNK = 500;
/** Keys per IN (...) lookup. */
const LOOKUP_CHUNK = 500;
/** Earlier messages in these states block an identical one (a failed message may be resent). */
const BLOCKING_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'read'];

function canonicalVariables(variables: Record<string, string>): string {
  return JSON.stringify(
    Object.keys(variables)
      .sort()
      .map((key) => [key, variables[key]]),
  );
}

/** Same user, template, recipient and variable values: the Duplicate Blocked identity. */
export function dedupeKey(userId: number, templateId: number, recipient: string, variables: Record<string, string>): string {
  return createHash('sha256').update(`${userId}|${templateId}|${recipient}|${canonicalVariables(variables)}`).digest('hex');
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Accepting a send (quick, bulk, personalised, API): everything is decided before the one
 * transaction that charges the wallet (never below zero: otherwise nothing is queued), writes the
 * campaign and its message rows in large batches, and leaves them queued for the dispatcher.
 * Blocked duplicates and opted-out recipients are stored (for reports) but not charged.
 */
export class CampaignAcceptance {
  constructor(
    private readonly deps: {
      db: Knex;
      pricing: PricingService;
      wallet: WalletService;
      duplicateWindowHours: number;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async accept(input: AcceptCampaignInput): Promise<AcceptedCampaign> {
    const { user, template } = input;
    if (template.userId !== user.id || !USABLE_TEMPLATE_STATUSES.includes(template.status as never)) {
      throw new AppError(404, 'template_not_found', catalogue.templates.notFound);
    }
    const now = this.now();
    const category = template.category.toLowerCase() as PriceCategory;
    const priceUnits = await this.deps.pricing.effectiveFor(user.id, category);

    const keyed = input.recipients.map((recipient) => ({
      ...recipient,
      key: dedupeKey(user.id, template.id, recipient.to, recipient.variables),
    }));
    const windowStart = new Date(now.getTime() - this.deps.duplicateWindowHours * 3_600_000);
    const blocked = await this.recentKeys(
      keyed.map((r) => r.key),
      windowStart,
    );
    const suppressed = await this.suppressedRecipients(
      user.id,
      keyed.map((r) => r.to),
    );

    let billable = 0;
    let duplicates = 0;
    let suppressedCount = 0;
    const nowIso = now.toISOString();
    const rows = keyed.map((recipient) => {
      let status: 'queued' | 'duplicate' | 'suppressed' = 'queued';
      if (blocked.has(recipient.key)) status = 'duplicate';
      else if (suppressed.has(recipient.to)) status = 'suppressed';
      if (status === 'queued') billable += 1;
      else if (status === 'duplicate') duplicates += 1;
      else suppressedCount += 1;
      return {
        userId: user.id,
        recipient: recipient.to,
        status,
        priceUnits: status === 'queued' ? priceUnits : 0,
        variables: JSON.stringify(recipient.variables),
        dedupeKey: recipient.key,
        errorCode: status === 'suppressed' ? 131050 : null,
        errorMessage:
          status === 'suppressed' ? 'Recipient opted out of messages from this business' : status === 'duplicate' ? 'Duplicate Blocked' : null,
        attempts: 0,
        nextAttemptAt: status === 'queued' ? nowIso : null,
        refunded: false,
        createdAt: nowIso,
        updatedAt: nowIso,
      };
    });
    const totalCostUnits = billable * priceUnits;

    const campaignId = await this.deps.db.transaction(async (trx) => {
      const [inserted] = (await trx('campaigns')
        .insert({
          userId: user.id,
          templateId: template.id,
          senderNumberId: input.senderNumberId,
          name: input.name.slice(0, 200),
          source: input.source,
          templateName: template.name,
          templateLanguage: template.language,
          category: template.category,
          priceUnits,
          status: billable > 0 ? 'running' : 'completed',
          totalRecipients: rows.length,
          billableCount: billable,
          duplicateCount: duplicates + input.inSendDuplicates,
          invalidCount: input.invalidCount,
          suppressedCount,
          totalCostUnits,
          createdAt: nowIso,
          updatedAt: nowIso,
          completedAt: billable > 0 ? null : nowIso,
        })
        .returning('id')) as ({ id: number } | number)[];
      const id = typeof inserted === 'object' && inserted !== null ? inserted.id : (inserted as number);
      if (totalCostUnits > 0) {
        await this.deps.wallet.debitCampaign(trx, {
          userId: user.id,
          campaignId: id,
          units: totalCostUnits,
          description: `Campaign "${input.name.slice(0, 120)}": ${billable} message${billable === 1 ? '' : 's'}`,
          templateName: template.name,
          templateCategory: template.category,
        });
      }
      for (const chunk of chunks(rows, INSERT_CHUNK)) {
        await trx('messages').insert(chunk.map((row) => ({ ...row, campaignId: id })));
      }
      return id;
    });

    return {
      campaignId,
      accepted: billable,
      duplicates: duplicates + input.inSendDuplicates,
      invalid: input.invalidCount,
      suppressed: suppressedCount,
      priceUnits,
      totalCostUnits,
    };
  }

  private async recentKeys(keys: readonly string[], since: Date): Promise<Set<string>> {
    const found = new Set<string>();
    for (const chunk of chunks(keys, LOOKUP_CHUNK)) {
      const rows = (await this.deps.db('messages')
        .whereIn('dedupeKey', chunk)
        .where('createdAt', '>=', since.toISOString())
        .whereIn('status', BLOCKING_STATUSES)
        .distinct('dedupeKey')) as { dedupeKey: string }[];
      for (const row of rows) found.add(row.dedupeKey);
    }
    return found;
  }

  private async suppressedRecipients(userId: number, recipients: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const chunk of chunks(recipients, LOOKUP_CHUNK)) {
      const rows = (await this.deps.db('suppressions').where({ userId }).whereIn('recipient', chunk).select('recipient')) as {
        recipient: string;
      }[];
      for (const row of rows) found.add(row.recipient);
    }
    return found;
  }
}
