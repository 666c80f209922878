/**
 * A Cloud API number's health as Meta reports it: quality rating, messaging limit tier, throughput
 * level and display name status, read from `GET /{version}/{phone-number-id}` and stored on the
 * number. Read again when Meta's `phone_number_quality_update` or `account_update` webhook names
 * the number, and once a day for every number (DailyNumberHealth). The number's rate follows its
 * throughput level (80 messages a second standard, 1,000 high): the dispatcher reads
 * `messages_per_second` with every batch. Sandbox (simulator) and channel numbers keep their
 * configured rate and no health. See docs/decisions/2026-12-07-number-health-and-meta-billing.md.
 */
import type { Knex } from 'knex';
import { request } from 'undici';
import { fillMessage, messages } from '@shared/messages';
import { claimDay, DailyJob } from '../dailyJob';
import type { Logger } from '../logger';
import type { WhatsappNumberRow } from '../db/rows/whatsappNumbers';
import type { ProviderCredentials } from '../providerAccounts/credentials';
import type { NumberHealthEvent } from './providers/webhooks';

/** Meta's throughput levels and the rate each allows (Meta's throughput page). */
export const THROUGHPUT_RATES: Readonly<Record<string, number>> = { STANDARD: 80, HIGH: 1_000 };

/** Unique recipients a messaging limit tier allows in a moving 24 hours; null: no limit. */
export const TIER_RECIPIENTS: Readonly<Record<string, number | null>> = {
  TIER_50: 50,
  TIER_250: 250,
  TIER_1K: 1_000,
  TIER_2K: 2_000,
  TIER_10K: 10_000,
  TIER_100K: 100_000,
  TIER_UNLIMITED: null,
  UNLIMITED: null,
};

/** The fields asked of Meta (WhatsAppBusinessPhoneNumber in Meta's OpenAPI file, and `throughput`). */
const HEALTH_FIELDS = 'quality_rating,messaging_limit_tier,throughput,name_status';
const READ_TIMEOUT_MS = 15_000;

export interface NumberHealth {
  qualityRating: string | null;
  messagingLimitTier: string | null;
  throughputLevel: string | null;
  nameStatus: string | null;
}

export interface NumberHealthRow extends NumberHealth {
  id: number;
  userId: number;
  provider: string;
  phoneNumberId: string;
  displayNumber: string;
  label: string;
  messagesPerSecond: number;
  healthUpdatedAt: string | Date | null;
  healthError: string | null;
}

/** A warning the cost preview shows before a send from this number. */
export interface PreviewWarning {
  code: 'messaging_limit_exceeded' | 'quality_red';
  message: string;
}

export class NumberHealthError extends Error {}

const word = (value: unknown, max: number): string | null => (typeof value === 'string' && value ? value.toUpperCase().slice(0, max) : null);

export class NumberHealthService {
  constructor(
    private readonly deps: {
      db: Knex;
      credentials: { credentialsForNumber(senderNumberId: number): Promise<ProviderCredentials | null> };
      whatsappApiBase: string;
      whatsappApiVersion: string;
      log: Logger;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** Asks Meta for the number's health; throws NumberHealthError with Meta's reason when it cannot. */
  async read(number: Pick<WhatsappNumberRow, 'id' | 'phoneNumberId'>): Promise<NumberHealth> {
    const credentials = await this.deps.credentials.credentialsForNumber(number.id);
    if (credentials?.kind !== 'cloud_api') throw new NumberHealthError('No Cloud API credentials for this number');
    const url = `${this.deps.whatsappApiBase.replace(/\/+$/, '')}/${encodeURIComponent(this.deps.whatsappApiVersion)}/${encodeURIComponent(number.phoneNumberId)}?fields=${HEALTH_FIELDS}`;
    let status: number;
    let body: unknown;
    try {
      const response = await request(url, { method: 'GET', headers: { authorization: `Bearer ${credentials.accessToken}` }, signal: AbortSignal.timeout(READ_TIMEOUT_MS) });
      status = response.statusCode;
      body = await response.body.json().catch(() => null);
    } catch (error) {
      throw new NumberHealthError(error instanceof Error ? error.message : String(error));
    }
    const answer = (body ?? {}) as { error?: { message?: unknown }; quality_rating?: unknown; messaging_limit_tier?: unknown; throughput?: { level?: unknown }; name_status?: unknown };
    if (status !== 200) throw new NumberHealthError(typeof answer.error?.message === 'string' ? answer.error.message : `HTTP ${status}`);
    return {
      qualityRating: word(answer.quality_rating, 20),
      messagingLimitTier: word(answer.messaging_limit_tier, 30),
      throughputLevel: word(answer.throughput?.level, 30),
      nameStatus: word(answer.name_status, 40),
    };
  }

  /** Reads one number's health from Meta and stores it; a failed read keeps the last health and records why. */
  async refresh(numberId: number): Promise<NumberHealthRow | null> {
    const number = (await this.deps.db('whatsapp_numbers').where({ id: numberId }).first()) as WhatsappNumberRow | undefined;
    if (!number || number.provider !== 'cloud_api') return null;
    try {
      await this.store(number.id, await this.read(number));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await this.deps.db('whatsapp_numbers').where({ id: number.id }).update({ healthError: reason.slice(0, 300), updatedAt: this.now().toISOString() });
      this.deps.log.warn({ numberId: number.id, reason }, 'could not read a number\'s health from Meta');
    }
    return this.one(number.id);
  }

  /** Every active Cloud API number, read one after another (a few per business: no need to hurry Meta). */
  async refreshAll(): Promise<{ numbers: number; failed: number }> {
    const ids = (await this.deps.db('whatsapp_numbers').where({ provider: 'cloud_api', isActive: true }).orderBy('id').pluck('id')) as number[];
    let failed = 0;
    for (const id of ids) {
      const row = await this.refresh(Number(id));
      if (row?.healthError) failed += 1;
    }
    return { numbers: ids.length, failed };
  }

  /** Stores a health and sets the number's rate by its throughput level (an unknown level keeps the rate). */
  private async store(numberId: number, health: Partial<NumberHealth>): Promise<void> {
    const update: Record<string, unknown> = { healthUpdatedAt: this.now().toISOString(), healthError: null, updatedAt: this.now().toISOString() };
    for (const [key, value] of Object.entries(health)) if (value !== null && value !== undefined) update[key] = value;
    const rate = health.throughputLevel ? THROUGHPUT_RATES[health.throughputLevel] : undefined;
    if (rate) update.messagesPerSecond = rate;
    await this.deps.db('whatsapp_numbers').where({ id: numberId }).update(update);
  }

  /**
   * Applies one of Meta's number-health webhooks for these owners' numbers: what the event says
   * (a throughput upgrade, a messaging limit) at once, then the whole health read again from Meta,
   * since `account_update` and older `phone_number_quality_update` bodies carry only part of it.
   */
  async applyEvent(ownerIds: readonly number[], event: NumberHealthEvent): Promise<number> {
    if (ownerIds.length === 0) return 0;
    const rows = (await this.deps.db('whatsapp_numbers').whereIn('userId', ownerIds).where({ provider: 'cloud_api', isActive: true })) as WhatsappNumberRow[];
    const digits = (s: string) => s.replace(/\D+/g, '');
    const targets = event.displayNumber ? rows.filter((row) => digits(row.displayNumber) === event.displayNumber || row.phoneNumberId === event.displayNumber) : rows;
    for (const row of targets) {
      const said: Partial<NumberHealth> = {};
      if (event.field === 'phone_number_quality_update') {
        if (event.event === 'THROUGHPUT_UPGRADE') said.throughputLevel = 'HIGH';
        if (event.messagingLimitTier && event.messagingLimitTier in TIER_RECIPIENTS) said.messagingLimitTier = event.messagingLimitTier;
      }
      if (Object.keys(said).length > 0) await this.store(row.id, said);
      await this.refresh(row.id);
    }
    this.deps.log.info({ field: event.field, event: event.event, numbers: targets.length }, 'number health webhook applied');
    return targets.length;
  }

  async one(numberId: number): Promise<NumberHealthRow | null> {
    const row = (await this.deps.db('whatsapp_numbers').where({ id: numberId }).first()) as NumberHealthRow | undefined;
    return row ?? null;
  }

  /** A user's active numbers with their health (the numbers page). */
  async forUser(userId: number): Promise<NumberHealthRow[]> {
    return (await this.deps.db('whatsapp_numbers').where({ userId, isActive: true }).orderBy('id')) as NumberHealthRow[];
  }

  /** Every active Cloud API number with its health (the admin's provider page). */
  async allCloudNumbers(): Promise<(NumberHealthRow & { email: string })[]> {
    return (await this.deps
      .db('whatsapp_numbers')
      .join('users', 'users.id', 'whatsapp_numbers.userId')
      .where('whatsapp_numbers.provider', 'cloud_api')
      .where('whatsapp_numbers.isActive', true)
      .orderBy('whatsapp_numbers.id')
      .select('whatsapp_numbers.*', 'users.email')) as (NumberHealthRow & { email: string })[];
  }

  /**
   * What the cost preview warns of before `newRecipients` unique recipients are sent from this
   * number: more unique recipients in a moving 24 hours (those it already messaged, and these)
   * than its messaging limit tier allows, and a RED quality rating.
   */
  async previewWarnings(numberId: number, newRecipients: number): Promise<PreviewWarning[]> {
    const number = await this.one(numberId);
    if (!number) return [];
    const warnings: PreviewWarning[] = [];
    const limit = number.messagingLimitTier ? TIER_RECIPIENTS[number.messagingLimitTier] : undefined;
    if (typeof limit === 'number' && newRecipients > 0) {
      const since = new Date(this.now().getTime() - 24 * 3_600_000).toISOString();
      const [row] = (await this.deps
        .db('messages')
        .where('messages.userId', number.userId)
        .where('messages.createdAt', '>=', since)
        .whereIn('messages.campaignId', this.deps.db('campaigns').where({ senderNumberId: number.id, userId: number.userId }).select('id'))
        .whereNotIn('messages.status', ['duplicate', 'suppressed', 'cancelled', 'failed'])
        .countDistinct({ n: 'messages.recipient' })) as { n: number | string }[];
      const already = Number(row?.n ?? 0);
      if (already + newRecipients > limit) {
        warnings.push({
          code: 'messaging_limit_exceeded',
          message: fillMessage(messages.numberHealth.limitWarning, { tier: number.messagingLimitTier ?? '', limit: limit.toLocaleString('en-IN'), count: (already + newRecipients).toLocaleString('en-IN') }),
        });
      }
    }
    if (number.qualityRating === 'RED') warnings.push({ code: 'quality_red', message: messages.numberHealth.qualityRedWarning });
    return warnings;
  }
}

/**
 * Reads every Cloud API number's health once a day at `hourIst`, India's time, claimed once across
 * instances (dailyJob.ts) by `numbers:<YYYY-MM-DD>` in template_sync_runs, the run keys it shares
 * with the daily template sync: `accounts` counts the numbers read, `accounts_failed` those Meta
 * did not answer.
 */
export class DailyNumberHealth extends DailyJob<{ runKey: string; numbers: number; failed: number }> {
  constructor(
    private readonly deps: {
      db: Knex;
      health: Pick<NumberHealthService, 'refreshAll'>;
      hourIst: number;
      log: Logger;
      now?: () => Date;
    },
  ) {
    super({ what: 'the daily number health read', hour: deps.hourIst, clock: 'IST', keyPrefix: 'numbers', log: deps.log, ...(deps.now ? { now: deps.now } : {}) });
  }

  protected async run(runKey: string): Promise<{ runKey: string; numbers: number; failed: number } | null> {
    const { db } = this.deps;
    const id = await claimDay(db, 'template_sync_runs', runKey, this.now());
    if (id === null) return null;
    const result = await this.deps.health.refreshAll();
    await db('template_sync_runs').where({ id }).update({ finishedAt: this.now().toISOString(), accounts: result.numbers, accountsFailed: result.failed });
    this.deps.log.info({ runKey, ...result }, 'daily number health read finished');
    return { runKey, ...result };
  }
}
