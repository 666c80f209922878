/**
 * A user's provider accounts: the Meta Cloud API business info and the third-party channel
 * settings (spec 001 §3), their secrets sealed at rest, and the sender numbers that follow from
 * them. Admin routes write through here; the sending engine reads credentials through here.
 */
import type { Knex } from 'knex';
import { PROVIDERS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import type { TBusinessInfoInput, TProviderSettingsInput } from '@shared/schemas/providers';
import { forUpdateIfSupported, isUniqueViolation, uniqueViolationTarget } from '../db/knex';
import { ConflictError, NotFoundError } from '../errors';
import { toDate } from '../models';
import type { SecretBox } from '../security/secretBox';
import type { AuditService } from '../audit/service';

export type ProviderCredentials =
  | { kind: 'cloud_api'; phoneNumberId: string; accessToken: string; appSecret: string | null }
  | { kind: 'channel'; channelId: string; apiKey: string };

/** Business info without its secrets: only whether each one is stored. */
export interface BusinessInfoRecord {
  id: number;
  userId: number;
  businessName: string | null;
  whatsappNumber: string | null;
  whatsappNumberId: string | null;
  wabaId: string | null;
  webhookUrl: string | null;
  isActive: boolean;
  accessTokenSet: boolean;
  webhookVerifyTokenSet: boolean;
  appSecretSet: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProviderSettingsRecord {
  userId: number;
  businessName: string | null;
  whatsappNumber: string | null;
  provider: 'channel';
  channelId: string | null;
  apiKeySet: boolean;
  webhookUrl: string;
  updatedAt: Date | null;
}

/** Settings just saved: the channel and its time are known. */
export interface SavedProviderSettingsRecord extends ProviderSettingsRecord {
  channelId: string;
  updatedAt: Date;
}

export interface BusinessInfoSummaryRecord {
  businessName: string | null;
  whatsappNumber: string | null;
  isActive: boolean;
}

interface BusinessInfoRow {
  id: number;
  userId: number;
  businessName: string | null;
  whatsappNumber: string | null;
  whatsappNumberId: string | null;
  wabaId: string | null;
  accessTokenEncrypted: string | null;
  webhookVerifyTokenEncrypted: string | null;
  appSecretEncrypted: string | null;
  webhookUrl: string | null;
  isActive: boolean | number;
  createdAt: Date | string;
  updatedAt: Date | string;
}

interface ProviderSettingsRow {
  id: number;
  userId: number;
  provider: 'channel';
  channelId: string;
  apiKeyEncrypted: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
}

interface NumberRow {
  id: number;
  userId: number;
  provider: 'simulator' | 'cloud_api' | 'channel';
  phoneNumberId: string;
  displayNumber: string;
  label: string;
  isActive: boolean | number;
}

interface WantedNumber {
  phoneNumberId: string;
  displayNumber: string;
  label: string;
}

type PlainField = 'businessName' | 'whatsappNumber' | 'whatsappNumberId' | 'wabaId' | 'webhookUrl';
const PLAIN_FIELDS: readonly PlainField[] = ['businessName', 'whatsappNumber', 'whatsappNumberId', 'wabaId', 'webhookUrl'];

type SecretField = 'accessToken' | 'webhookVerifyToken' | 'appSecret';
type SecretColumn = 'accessTokenEncrypted' | 'webhookVerifyTokenEncrypted' | 'appSecretEncrypted';
const SECRET_FIELDS: readonly (readonly [SecretField, SecretColumn])[] = [
  ['accessToken', 'accessTokenEncrypted'],
  ['webhookVerifyToken', 'webhookVerifyTokenEncrypted'],
  ['appSecret', 'appSecretEncrypted'],
];

/** Meta's default throughput for a business number. */
const DEFAULT_MESSAGES_PER_SECOND = 80;
const LABEL_MAX = 100;

/**
 * The context each secret is sealed with: its column and owner, so that a value copied into
 * another column or another user's row does not open.
 */
function secretContext(column: SecretColumn | 'apiKeyEncrypted', userId: number): string {
  return `${column}:${userId}`;
}

function presentRow(row: BusinessInfoRow): BusinessInfoRecord {
  return {
    id: row.id,
    userId: row.userId,
    businessName: row.businessName,
    whatsappNumber: row.whatsappNumber,
    whatsappNumberId: row.whatsappNumberId,
    wabaId: row.wabaId,
    webhookUrl: row.webhookUrl,
    isActive: Boolean(row.isActive),
    accessTokenSet: row.accessTokenEncrypted !== null,
    webhookVerifyTokenSet: row.webhookVerifyTokenEncrypted !== null,
    appSecretSet: row.appSecretEncrypted !== null,
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
  };
}

export class ProviderAccountService {
  constructor(
    private readonly deps: {
      db: Knex;
      secretBox: SecretBox;
      audit: AuditService;
      publicBaseUrl: string;
      /** Messages-per-second limit given to a newly registered business number. */
      sandboxMessagesPerSecond?: number;
    },
  ) {}

  /** Where providers post status webhooks; admins see it read-only. */
  get webhookUrl(): string {
    return `${this.deps.publicBaseUrl}${PROVIDERS.webhookPath}`;
  }

  async getBusinessInfo(userId: number): Promise<BusinessInfoRecord | null> {
    await this.assertUser(this.deps.db, userId);
    const row = (await this.deps.db('business_infos').where({ userId }).first()) as BusinessInfoRow | undefined;
    return row ? presentRow(row) : null;
  }

  /**
   * Creates or updates a user's business info. Plain fields: absent keeps, null clears. Secrets
   * are write-only: absent keeps the stored one. The user's sender numbers follow in the same
   * transaction; the audit row names what changed, never a secret's value.
   */
  async putBusinessInfo(admin: { id: number }, userId: number, input: TBusinessInfoInput, ip: string | null = null): Promise<BusinessInfoRecord> {
    return this.uniqueIdsOrConflict(() => this.writeBusinessInfo(admin, userId, input, ip));
  }

  /**
   * Number, business and channel ids belong to one account each (webhooks are verified with the
   * secret of the account an id names): a second account claiming one answers 409.
   */
  private async uniqueIdsOrConflict<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const target = uniqueViolationTarget(error);
      // The constraint name (PostgreSQL) or table.column (SQLite); the message also quotes the SQL.
      if (/business_infos(_|\.)waba_id/i.test(target)) throw ConflictError('waba_id_taken', messages.providers.wabaIdTaken, 'wabaId');
      if (/provider_settings(_|\.)channel/i.test(target)) throw ConflictError('channel_id_taken', messages.providers.channelIdTaken, 'channelId');
      if (/business_infos(_|\.)(whatsapp_)?number_id/i.test(target)) throw ConflictError('number_id_taken', messages.providers.numberIdTaken, 'whatsappNumberId');
      throw error;
    }
  }

  private async writeBusinessInfo(admin: { id: number }, userId: number, input: TBusinessInfoInput, ip: string | null): Promise<BusinessInfoRecord> {
    const row = await this.deps.db.transaction(async (trx) => {
      await this.lockUser(trx, userId);
      const existing = (await forUpdateIfSupported(trx('business_infos').where({ userId }), trx).first()) as BusinessInfoRow | undefined;
      const changes: Partial<Record<PlainField | SecretColumn | 'isActive', string | boolean | null>> = {};
      const fields: string[] = [];
      for (const field of PLAIN_FIELDS) {
        const value = input[field];
        if (value === undefined || (existing?.[field] ?? null) === value) continue;
        changes[field] = value;
        fields.push(field);
      }
      if (input.isActive !== undefined && (existing ? Boolean(existing.isActive) : true) !== input.isActive) {
        changes.isActive = input.isActive;
        fields.push('isActive');
      }
      const secrets: string[] = [];
      for (const [field, column] of SECRET_FIELDS) {
        const value = input[field];
        if (value === undefined) continue;
        changes[column] = this.deps.secretBox.seal(value, secretContext(column, userId));
        secrets.push(field);
      }

      const now = new Date().toISOString();
      if (!existing) {
        await trx('business_infos').insert({
          userId,
          businessName: null,
          whatsappNumber: null,
          whatsappNumberId: null,
          wabaId: null,
          accessTokenEncrypted: null,
          webhookVerifyTokenEncrypted: null,
          appSecretEncrypted: null,
          webhookUrl: null,
          isActive: true,
          ...changes,
          createdAt: now,
          updatedAt: now,
        });
      } else if (Object.keys(changes).length > 0) {
        await trx('business_infos').where({ userId }).update({ ...changes, updatedAt: now });
      }
      if (!existing || Object.keys(changes).length > 0) {
        await this.syncNumbers(trx, userId, now);
        await this.deps.audit.record(
          {
            actorUserId: admin.id,
            action: existing ? 'business_info.update' : 'business_info.create',
            targetType: 'user',
            targetId: userId,
            details: { fields, secretsReplaced: secrets },
            ip,
          },
          trx,
        );
      }
      return (await trx('business_infos').where({ userId }).first()) as BusinessInfoRow;
    });
    return presentRow(row);
  }

  async getSettings(userId: number): Promise<ProviderSettingsRecord> {
    await this.assertUser(this.deps.db, userId);
    return this.readSettings(this.deps.db, userId);
  }

  /** Saves the channel provider settings; an absent API key keeps the stored one. */
  async putSettings(admin: { id: number }, userId: number, input: TProviderSettingsInput, ip: string | null = null): Promise<SavedProviderSettingsRecord> {
    return this.uniqueIdsOrConflict(() => this.writeSettings(admin, userId, input, ip));
  }

  private async writeSettings(admin: { id: number }, userId: number, input: TProviderSettingsInput, ip: string | null): Promise<SavedProviderSettingsRecord> {
    return this.deps.db.transaction(async (trx) => {
      await this.lockUser(trx, userId);
      const existing = (await forUpdateIfSupported(trx('provider_settings').where({ userId }), trx).first()) as ProviderSettingsRow | undefined;
      const apiKeyEncrypted = input.apiKey ? this.deps.secretBox.seal(input.apiKey, secretContext('apiKeyEncrypted', userId)) : undefined;
      const now = new Date().toISOString();
      if (!existing) {
        await trx('provider_settings').insert({
          userId,
          provider: 'channel',
          channelId: input.channelId,
          apiKeyEncrypted: apiKeyEncrypted ?? null,
          createdAt: now,
          updatedAt: now,
        });
      } else if (existing.channelId !== input.channelId || apiKeyEncrypted) {
        await trx('provider_settings')
          .where({ userId })
          .update({ channelId: input.channelId, ...(apiKeyEncrypted ? { apiKeyEncrypted } : {}), updatedAt: now });
      } else {
        return this.readSavedSettings(trx, userId);
      }
      await this.syncNumbers(trx, userId, now);
      await this.deps.audit.record(
        {
          actorUserId: admin.id,
          action: existing ? 'provider_settings.update' : 'provider_settings.create',
          targetType: 'user',
          targetId: userId,
          details: { channelId: input.channelId, previousChannelId: existing?.channelId ?? null, apiKeyReplaced: Boolean(apiKeyEncrypted) },
          ip,
        },
        trx,
      );
      return this.readSavedSettings(trx, userId);
    });
  }

  /**
   * What the engine needs to send from a sender number: null for simulator numbers, for numbers
   * no longer active (deactivated business, replaced id) and when the secret is missing. Reads
   * the database on every call; a caller sending a batch should ask once per batch. Throws
   * SecretBoxError when a stored secret no longer opens (SECRETS_KEY changed).
   */
  async credentialsForNumber(senderNumberId: number): Promise<ProviderCredentials | null> {
    const { db, secretBox } = this.deps;
    const number = (await db('whatsapp_numbers').where({ id: senderNumberId }).first()) as NumberRow | undefined;
    if (!number || !number.isActive) return null;
    if (number.provider === 'cloud_api') {
      const info = (await db('business_infos').where({ userId: number.userId, whatsappNumberId: number.phoneNumberId }).first()) as
        | BusinessInfoRow
        | undefined;
      if (!info?.accessTokenEncrypted || !info.isActive) return null;
      return {
        kind: 'cloud_api',
        phoneNumberId: number.phoneNumberId,
        accessToken: secretBox.open(info.accessTokenEncrypted, secretContext('accessTokenEncrypted', info.userId)),
        appSecret: info.appSecretEncrypted ? secretBox.open(info.appSecretEncrypted, secretContext('appSecretEncrypted', info.userId)) : null,
      };
    }
    if (number.provider === 'channel') {
      const settings = (await db('provider_settings').where({ userId: number.userId, channelId: number.phoneNumberId }).first()) as
        | ProviderSettingsRow
        | undefined;
      if (!settings?.apiKeyEncrypted) return null;
      return {
        kind: 'channel',
        channelId: settings.channelId,
        apiKey: secretBox.open(settings.apiKeyEncrypted, secretContext('apiKeyEncrypted', settings.userId)),
      };
    }
    return null;
  }

  /**
   * Who may sign a webhook about this sender number: the owner's business app secret (Cloud API)
   * or channel API key (the channel provider signs with it). Only accounts of active, undeleted
   * users with an active business count: a disabled or deleted account's secret verifies nothing.
   * A value that no longer opens is left out.
   */
  async webhookSignersForNumber(phoneNumberId: string): Promise<{ userId: number; secret: string }[]> {
    const { db } = this.deps;
    const liveUsers = (query: Knex.QueryBuilder, table: string) =>
      query.join('users', 'users.id', `${table}.userId`).where('users.isActive', true).whereNull('users.deletedAt');
    const infos = (await liveUsers(db('business_infos'), 'business_infos')
      .where({ 'business_infos.whatsappNumberId': phoneNumberId, 'business_infos.isActive': true })
      .whereNotNull('business_infos.appSecretEncrypted')
      .select('business_infos.userId', 'business_infos.appSecretEncrypted')) as Pick<BusinessInfoRow, 'userId' | 'appSecretEncrypted'>[];
    const channels = (await liveUsers(db('provider_settings'), 'provider_settings')
      .leftJoin('business_infos', 'business_infos.userId', 'provider_settings.userId')
      .where({ 'provider_settings.channelId': phoneNumberId })
      .where((q) => q.whereNull('business_infos.id').orWhere('business_infos.isActive', true))
      .whereNotNull('provider_settings.apiKeyEncrypted')
      .select('provider_settings.userId', 'provider_settings.apiKeyEncrypted')) as Pick<ProviderSettingsRow, 'userId' | 'apiKeyEncrypted'>[];
    const signers = [
      ...infos.map((info) => ({ userId: info.userId, secret: this.tryOpen(info.appSecretEncrypted, secretContext('appSecretEncrypted', info.userId)) })),
      ...channels.map((row) => ({ userId: row.userId, secret: this.tryOpen(row.apiKeyEncrypted, secretContext('apiKeyEncrypted', row.userId)) })),
    ];
    return signers.filter((signer): signer is { userId: number; secret: string } => signer.secret !== null);
  }

  /** Who may sign template review webhooks of a business account (WABA): its active owner's app secret. */
  async webhookSignersForBusiness(wabaId: string): Promise<{ userId: number; secret: string }[]> {
    const rows = (await this.deps
      .db('business_infos')
      .join('users', 'users.id', 'business_infos.userId')
      .where('users.isActive', true)
      .whereNull('users.deletedAt')
      .where({ 'business_infos.wabaId': wabaId, 'business_infos.isActive': true })
      .whereNotNull('business_infos.appSecretEncrypted')
      .select('business_infos.userId', 'business_infos.appSecretEncrypted')) as Pick<BusinessInfoRow, 'userId' | 'appSecretEncrypted'>[];
    return rows
      .map((row) => ({ userId: row.userId, secret: this.tryOpen(row.appSecretEncrypted, secretContext('appSecretEncrypted', row.userId)) }))
      .filter((signer): signer is { userId: number; secret: string } => signer.secret !== null);
  }

  /** Every business's webhook verify token, for the `hub.challenge` handshake. */
  async verifyTokens(): Promise<string[]> {
    const rows = (await this.deps.db('business_infos').whereNotNull('webhookVerifyTokenEncrypted')) as BusinessInfoRow[];
    const tokens = rows.map((row) => this.tryOpen(row.webhookVerifyTokenEncrypted, secretContext('webhookVerifyTokenEncrypted', row.userId)));
    return [...new Set(tokens.filter((token): token is string => token !== null))];
  }

  /** Spec 001: a user is Configured when business info exists for them. */
  async isConfigured(userId: number): Promise<boolean> {
    const row = (await this.deps.db('business_infos').where({ userId }).first('id')) as { id: number } | undefined;
    return row !== undefined;
  }

  /** Users (not deleted) with business info: the dashboard's Configured Users. */
  async configuredUserIds(): Promise<Set<number>> {
    const rows = (await this.deps
      .db('business_infos')
      .join('users', 'users.id', 'business_infos.userId')
      .whereNull('users.deletedAt')
      .select('business_infos.userId as userId')) as { userId: number }[];
    return new Set(rows.map((row) => row.userId));
  }

  /** The list's Configured column for every user at once (one query rather than one per user). */
  async summaries(): Promise<Map<number, BusinessInfoSummaryRecord>> {
    const rows = (await this.deps.db('business_infos').select('userId', 'businessName', 'whatsappNumber', 'isActive')) as Pick<
      BusinessInfoRow,
      'userId' | 'businessName' | 'whatsappNumber' | 'isActive'
    >[];
    return new Map(rows.map((row) => [row.userId, { businessName: row.businessName, whatsappNumber: row.whatsappNumber, isActive: Boolean(row.isActive) }]));
  }

  async summaryFor(userId: number): Promise<BusinessInfoSummaryRecord | null> {
    const row = (await this.deps.db('business_infos').where({ userId }).first()) as BusinessInfoRow | undefined;
    return row ? { businessName: row.businessName, whatsappNumber: row.whatsappNumber, isActive: Boolean(row.isActive) } : null;
  }

  private tryOpen(sealed: string | null, context: string): string | null {
    if (!sealed) return null;
    try {
      return this.deps.secretBox.open(sealed, context);
    } catch {
      return null;
    }
  }

  private async readSettings(db: Knex, userId: number): Promise<ProviderSettingsRecord> {
    const info = (await db('business_infos').where({ userId }).first()) as BusinessInfoRow | undefined;
    const settings = (await db('provider_settings').where({ userId }).first()) as ProviderSettingsRow | undefined;
    return {
      userId,
      businessName: info?.businessName ?? null,
      whatsappNumber: info?.whatsappNumber ?? null,
      provider: 'channel',
      channelId: settings?.channelId ?? null,
      apiKeySet: Boolean(settings?.apiKeyEncrypted),
      webhookUrl: this.webhookUrl,
      updatedAt: settings ? toDate(settings.updatedAt) : null,
    };
  }

  private async readSavedSettings(db: Knex, userId: number): Promise<SavedProviderSettingsRecord> {
    const settings = await this.readSettings(db, userId);
    const { channelId, updatedAt } = settings;
    if (channelId === null || updatedAt === null) throw new Error(`provider settings of user ${userId} missing right after saving`);
    return { ...settings, channelId, updatedAt };
  }

  private async assertUser(db: Knex, userId: number): Promise<void> {
    const user = (await db('users').where({ id: userId }).whereNull('deletedAt').first('id')) as { id: number } | undefined;
    if (!user) throw NotFoundError(messages.admin.userNotFound, 'user_not_found');
  }

  /** Serialises concurrent saves for one user (PostgreSQL), so two first saves cannot both insert. */
  private async lockUser(trx: Knex.Transaction, userId: number): Promise<void> {
    const user = (await forUpdateIfSupported(trx('users').where({ id: userId }).whereNull('deletedAt'), trx).first('id')) as { id: number } | undefined;
    if (!user) throw NotFoundError(messages.admin.userNotFound, 'user_not_found');
  }

  /**
   * Keeps the user's Cloud API and channel sender numbers in step with their settings. A number
   * whose id changed or whose business is inactive is deactivated, never deleted: campaigns and
   * messages point at it.
   */
  private async syncNumbers(trx: Knex.Transaction, userId: number, now: string): Promise<void> {
    const info = (await trx('business_infos').where({ userId }).first()) as BusinessInfoRow | undefined;
    const settings = (await trx('provider_settings').where({ userId }).first()) as ProviderSettingsRow | undefined;
    const active = info ? Boolean(info.isActive) : true;
    const displayNumber = info?.whatsappNumber ?? '';
    const businessName = info?.businessName ?? null;
    const cloud: WantedNumber | null =
      info && active && info.whatsappNumberId && info.accessTokenEncrypted
        ? { phoneNumberId: info.whatsappNumberId, displayNumber, label: businessName ?? messages.providers.cloudNumberLabel }
        : null;
    const channel: WantedNumber | null =
      settings && active && settings.apiKeyEncrypted
        ? {
            phoneNumberId: settings.channelId,
            displayNumber,
            label: businessName ? fillMessage(messages.providers.channelNumberLabel, { name: businessName }) : messages.providers.channelNumberFallback,
          }
        : null;
    await this.reconcileNumber(trx, userId, 'cloud_api', cloud, now);
    await this.reconcileNumber(trx, userId, 'channel', channel, now);
  }

  private async reconcileNumber(
    trx: Knex.Transaction,
    userId: number,
    provider: 'cloud_api' | 'channel',
    wanted: WantedNumber | null,
    now: string,
  ): Promise<void> {
    const taken =
      provider === 'cloud_api'
        ? ConflictError('number_id_taken', messages.providers.numberIdTaken, 'whatsappNumberId')
        : ConflictError('channel_id_taken', messages.providers.channelIdTaken, 'channelId');
    const rows = (await trx('whatsapp_numbers').where({ userId, provider })) as NumberRow[];
    for (const row of rows) {
      if (row.isActive && row.phoneNumberId !== wanted?.phoneNumberId) {
        await trx('whatsapp_numbers').where({ id: row.id }).update({ isActive: false, updatedAt: now });
      }
    }
    if (!wanted) return;
    const values = { displayNumber: wanted.displayNumber, label: wanted.label.slice(0, LABEL_MAX), isActive: true };
    const current = (await trx('whatsapp_numbers').where({ provider, phoneNumberId: wanted.phoneNumberId }).first()) as NumberRow | undefined;
    if (current && current.userId !== userId) throw taken;
    if (current) {
      if (current.displayNumber !== values.displayNumber || current.label !== values.label || !current.isActive) {
        await trx('whatsapp_numbers').where({ id: current.id }).update({ ...values, updatedAt: now });
      }
      return;
    }
    try {
      await trx('whatsapp_numbers').insert({
        userId,
        provider,
        phoneNumberId: wanted.phoneNumberId,
        ...values,
        messagesPerSecond: this.deps.sandboxMessagesPerSecond ?? DEFAULT_MESSAGES_PER_SECOND,
        isSandbox: false,
        createdAt: now,
        updatedAt: now,
      });
    } catch (error) {
      // Another account registered the same id at the same moment.
      if (isUniqueViolation(error)) throw taken;
      throw error;
    }
  }
}
