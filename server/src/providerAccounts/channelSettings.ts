/**
 * A user's third-party channel provider settings (spec 001 §3 "Provider settings"): the channel
 * id and its sealed, write-only API key; the user's channel sender number follows in the same
 * transaction.
 */
import type { Knex } from 'knex';
import { PROVIDERS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import type { TProviderSettingsInput } from '@shared/schemas/providers';
import type { AuditService } from '../audit/service';
import { forUpdateIfSupported } from '../db/dialect';
import type { BusinessInfoRow } from '../db/rows/businessInfos';
import type { ProviderSettingsRow } from '../db/rows/providerSettings';
import { ConflictError, ValidationError } from '../errors';
import { toDate } from '../models';
import type { SecretBox } from '../security/secretBox';
import type { ChannelWebhookRegistrar } from './channelWebhook';
import { syncSenderNumbers } from './numberSync';
import { secretContext, tryOpenSecret } from './secrets';
import { assertUser, lockUser, uniqueIdsOrConflict } from './userGuards';

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

/** What became of the webhook registration at 360dialog; null when there was no API key to register with. */
export type WebhookRegistrationOutcome = { registered: true; error: null } | { registered: false; error: string } | null;

export class ChannelSettingsService {
  constructor(
    private readonly deps: {
      db: Knex;
      secretBox: SecretBox;
      audit: AuditService;
      publicBaseUrl: string;
      /** Registers the webhook at the channel provider (360dialog); none in setups that never reach it. */
      registrar?: ChannelWebhookRegistrar;
    },
  ) {}

  /** Where providers post status webhooks; admins see it read-only. */
  get webhookUrl(): string {
    return `${this.deps.publicBaseUrl}${PROVIDERS.webhookPath}`;
  }

  async get(userId: number): Promise<ProviderSettingsRecord> {
    await assertUser(this.deps.db, userId);
    return this.read(this.deps.db, userId);
  }

  /**
   * Saves the channel provider settings; an absent API key keeps the stored one. With a key (given
   * or stored) the webhook is registered at 360dialog first: a key 360dialog refuses (401/403) is
   * not stored and the save fails on the API key field; any other failure (360dialog unreachable,
   * 5xx) still saves, and the outcome says the webhook is not registered and why.
   */
  async put(
    admin: { id: number },
    userId: number,
    input: TProviderSettingsInput,
    ip: string | null = null,
  ): Promise<SavedProviderSettingsRecord & { webhook: WebhookRegistrationOutcome }> {
    await assertUser(this.deps.db, userId);
    const webhook = await this.registerWebhook(userId, input);
    const saved = await uniqueIdsOrConflict(() => this.write(admin, userId, input, ip));
    return { ...saved, webhook };
  }

  private async registerWebhook(userId: number, input: TProviderSettingsInput): Promise<WebhookRegistrationOutcome> {
    const { registrar, db, secretBox } = this.deps;
    if (!registrar) return null;
    let apiKey: string | null = input.apiKey ?? null;
    if (!apiKey) {
      const stored = (await db('provider_settings').where({ userId }).first()) as ProviderSettingsRow | undefined;
      apiKey = tryOpenSecret(secretBox, stored?.apiKeyEncrypted ?? null, secretContext('apiKeyEncrypted', userId));
    }
    if (!apiKey) return null;
    // A channel id another account holds is refused by the save anyway: 360dialog is not called for it.
    const taken = await db('whatsapp_numbers').where({ provider: 'channel', phoneNumberId: input.channelId }).whereNot({ userId }).first('id');
    if (taken) throw ConflictError('channel_id_taken', messages.providers.channelIdTaken, 'channelId');
    const result = await registrar.register({ apiKey, channelId: input.channelId, url: this.webhookUrl });
    if (result.ok) return { registered: true, error: null };
    if (result.keyRefused) throw ValidationError('apiKey', fillMessage(messages.providers.d360KeyRefused, { reason: result.reason }));
    return { registered: false, error: fillMessage(messages.providers.d360WebhookFailed, { reason: result.reason }) };
  }

  private async write(admin: { id: number }, userId: number, input: TProviderSettingsInput, ip: string | null): Promise<SavedProviderSettingsRecord> {
    return this.deps.db.transaction(async (trx) => {
      await lockUser(trx, userId);
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
        return this.readSaved(trx, userId);
      }
      await syncSenderNumbers(trx, userId, now);
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
      return this.readSaved(trx, userId);
    });
  }

  private async read(db: Knex, userId: number): Promise<ProviderSettingsRecord> {
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

  private async readSaved(db: Knex, userId: number): Promise<SavedProviderSettingsRecord> {
    const settings = await this.read(db, userId);
    const { channelId, updatedAt } = settings;
    if (channelId === null || updatedAt === null) throw new Error(`provider settings of user ${userId} missing right after saving`);
    return { ...settings, channelId, updatedAt };
  }
}
