import type { Knex } from 'knex';
import { PRICE_CATEGORIES, unitsToPrice, type PriceCategory } from '@shared/pricing';
import { messages } from '@shared/messages';
import { NotFoundError } from '../errors';
import type { AuditService } from '../audit/service';
import type { WalletService } from '../wallet/service';

export type UnitPrices = Record<PriceCategory, number>;
export type CustomUnitPrices = Record<PriceCategory, number | null>;

export interface UserPricing {
  mode: 'default' | 'custom';
  custom: CustomUnitPrices;
  effective: UnitPrices;
  defaults: UnitPrices;
}

const COLUMNS: Record<PriceCategory, 'marketingUnits' | 'utilityUnits' | 'authenticationUnits' | 'serviceUnits'> = {
  marketing: 'marketingUnits',
  utility: 'utilityUnits',
  authentication: 'authenticationUnits',
  service: 'serviceUnits',
};

type PriceRow = { marketingUnits: number | null; utilityUnits: number | null; authenticationUnits: number | null; serviceUnits: number | null };

function fromRow<T extends number | null>(row: PriceRow | undefined, fallback: T): Record<PriceCategory, number | T> {
  return Object.fromEntries(
    PRICE_CATEGORIES.map((category) => [category, row?.[COLUMNS[category]] ?? fallback]),
  ) as Record<PriceCategory, number | T>;
}

function toRow(prices: Record<PriceCategory, number | null>): PriceRow {
  return { marketingUnits: prices.marketing, utilityUnits: prices.utility, authenticationUnits: prices.authentication, serviceUnits: prices.service };
}

/** `effectiveForQuery`'s row: the user's mode, the default price and their custom one (units). */
export interface EffectivePriceRow {
  pricingMode: 'default' | 'custom';
  defaultUnits: number | string;
  customUnits: number | string | null;
}

/** A user's price for one category: their custom price in custom mode where it is set, else the default. */
function effectiveUnits<T extends number | string>(mode: 'default' | 'custom', custom: T | null, fallback: T): T {
  return mode === 'custom' ? (custom ?? fallback) : fallback;
}

/** Prices as the audit log records them: rupee strings ("0.80"), unset custom prices as null. */
function auditPrices(units: Record<PriceCategory, number | null>): Record<PriceCategory, string | null> {
  return Object.fromEntries(PRICE_CATEGORIES.map((category) => [category, units[category] === null ? null : unitsToPrice(units[category])])) as Record<PriceCategory, string | null>;
}

/**
 * What a number of billable messages of one category costs a user now, against their balance.
 * A quote, not a promise: acceptance prices and checks the balance again in its own transaction.
 */
export interface CostQuote {
  priceUnits: number;
  costUnits: number;
  balanceUnits: number;
  balanceAfterUnits: number;
  /** The wallet covers the cost (spec 002 §9: the cost preview says whether it does). */
  sufficient: boolean;
}

/**
 * Global default prices and per-user custom prices (spec 001 Pricing). A user's effective price
 * for a category is their custom price when their mode is custom and that price is set, the
 * global default otherwise. The sending engine prices each message from `effectiveFor`.
 */
export class PricingService {
  constructor(private readonly deps: { db: Knex; audit: AuditService; wallet: WalletService }) {}

  async defaults(db: Knex = this.deps.db): Promise<UnitPrices & { updatedAt: Date | null }> {
    const row = (await db('price_defaults').where({ id: 1 }).first()) as (PriceRow & { updatedAt: string | Date | null }) | undefined;
    if (!row) throw new Error('price_defaults row is missing: run the migrations');
    return { ...(fromRow(row, 0) as UnitPrices), updatedAt: row.updatedAt ? new Date(row.updatedAt) : null };
  }

  async setDefaults(prices: UnitPrices, actor: { userId: number; ip?: string | null }): Promise<UnitPrices & { updatedAt: Date | null }> {
    await this.deps.db.transaction(async (trx) => {
      const before = await this.defaults(trx);
      await trx('price_defaults').where({ id: 1 }).update({ ...toRow(prices), updatedAt: new Date().toISOString(), updatedBy: actor.userId });
      await this.deps.audit.record(
        { actorUserId: actor.userId, action: 'pricing.defaults.update', targetType: 'pricing', targetId: 'defaults', details: { before: auditPrices(before), after: auditPrices(prices) }, ip: actor.ip ?? null },
        trx,
      );
    });
    return this.defaults();
  }

  private async requireUser(userId: number, db: Knex): Promise<{ pricingMode: 'default' | 'custom' }> {
    const user = (await db('users').where({ id: userId }).whereNull('deletedAt').first('pricingMode')) as { pricingMode: 'default' | 'custom' } | undefined;
    if (!user) throw NotFoundError(messages.admin.userNotFound, 'user_not_found');
    return user;
  }

  async forUser(userId: number, db: Knex = this.deps.db): Promise<UserPricing> {
    // Three independent reads at once: every send prices its messages here before it is accepted.
    const [user, defaults, row] = await Promise.all([this.requireUser(userId, db), this.defaults(db), db('user_prices').where({ userId }).first() as Promise<PriceRow | undefined>]);
    const custom = fromRow(row, null) as CustomUnitPrices;
    const effective = Object.fromEntries(
      PRICE_CATEGORIES.map((category) => [category, effectiveUnits(user.pricingMode, custom[category], defaults[category])]),
    ) as UnitPrices;
    return { mode: user.pricingMode, custom, effective, defaults: { marketing: defaults.marketing, utility: defaults.utility, authentication: defaults.authentication, service: defaults.service } };
  }

  /**
   * The price of one message of a category for a user, in credit units. Every send asks it before
   * it is accepted (a group commit of the public API once per round), so it is one read: the
   * user's mode, the default and the custom price joined, priced by the rule `forUser` uses.
   */
  async effectiveFor(userId: number, category: PriceCategory, db: Knex = this.deps.db): Promise<number> {
    return this.effectiveFromRow(userId, category, (await this.effectiveForQuery(userId, category, db).first()) as EffectivePriceRow | undefined, db);
  }

  /**
   * `effectiveFor`'s read as a query, for a statement that makes other reads beside it (a group
   * commit of the public API reads its price, duplicates, opt-outs and ids as one statement). Its
   * row goes to `effectiveFromRow`.
   */
  effectiveForQuery(userId: number, category: PriceCategory, db: Knex = this.deps.db): Knex.QueryBuilder {
    const column = COLUMNS[category];
    return db('users as u')
      .join('price_defaults as d', 'd.id', db.raw('?', [1]))
      .leftJoin('user_prices as p', 'p.userId', 'u.id')
      .where('u.id', userId)
      .whereNull('u.deletedAt')
      .select('u.pricingMode', `d.${column} as defaultUnits`, `p.${column} as customUnits`);
  }

  /** The price `effectiveForQuery`'s row gives. */
  async effectiveFromRow(userId: number, category: PriceCategory, row: EffectivePriceRow | undefined, db: Knex = this.deps.db): Promise<number> {
    // No such user (or no defaults row): the full read says which, with its own error.
    if (!row) return (await this.forUser(userId, db)).effective[category];
    return Number(effectiveUnits(row.pricingMode, row.customUnits, row.defaultUnits));
  }

  /** The user's price of one service reply (conversations/service.ts), in credit units. */
  async serviceUnits(userId: number): Promise<number> {
    return this.effectiveFor(userId, 'service');
  }

  /** The cost of `billable` messages of a category for a user, and whether their balance covers it. */
  async quote(userId: number, category: PriceCategory, billable: number): Promise<CostQuote> {
    const priceUnits = await this.effectiveFor(userId, category);
    const balanceUnits = await this.deps.wallet.balance(userId);
    const costUnits = billable * priceUnits;
    return { priceUnits, costUnits, balanceUnits, balanceAfterUnits: balanceUnits - costUnits, sufficient: balanceUnits >= costUnits };
  }

  /** Sets a user's mode; custom prices are replaced (default mode clears them). */
  async setForUser(
    userId: number,
    mode: 'default' | 'custom',
    custom: CustomUnitPrices | undefined,
    actor: { userId: number; ip?: string | null },
  ): Promise<UserPricing> {
    await this.deps.db.transaction(async (trx) => {
      await this.requireUser(userId, trx);
      await trx('users').where({ id: userId }).update({ pricingMode: mode, updatedAt: new Date().toISOString() });
      await trx('user_prices').where({ userId }).delete();
      if (mode === 'custom' && custom) {
        await trx('user_prices').insert({ userId, ...toRow(custom), updatedAt: new Date().toISOString(), updatedBy: actor.userId });
      }
      await this.deps.audit.record(
        {
          actorUserId: actor.userId,
          action: 'pricing.user.update',
          targetType: 'user',
          targetId: userId,
          details: { mode, custom: custom ? auditPrices(custom) : null },
          ip: actor.ip ?? null,
        },
        trx,
      );
    });
    return this.forUser(userId);
  }

  /** Real figures for Pricing Management: regular users, how many on custom prices, average effective prices. */
  async stats(): Promise<{ totalUsers: number; customPricingUsers: number; averages: UnitPrices }> {
    const defaults = await this.defaults();
    const db = this.deps.db;
    const row = (await db('users as u')
      .leftJoin('user_prices as p', 'p.user_id', 'u.id')
      .where('u.role', 'user')
      .whereNull('u.deleted_at')
      .first(
        db.raw('count(*) as total'),
        db.raw("sum(case when u.pricing_mode = 'custom' then 1 else 0 end) as custom"),
        ...PRICE_CATEGORIES.map((category) =>
          db.raw(`avg(case when u.pricing_mode = 'custom' and p.${category}_units is not null then p.${category}_units else ? end) as avg_${category}`, [defaults[category]]),
        ),
      )) as Record<string, number | string | null>;
    const total = Number(row.total ?? 0);
    const averages = Object.fromEntries(
      PRICE_CATEGORIES.map((category) => [category, total ? Math.round(Number(row[`avg${category[0]!.toUpperCase()}${category.slice(1)}`] ?? defaults[category])) : defaults[category]]),
    ) as UnitPrices;
    return { totalUsers: total, customPricingUsers: Number(row.custom ?? 0), averages };
  }
}
