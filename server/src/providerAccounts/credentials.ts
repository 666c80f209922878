/**
 * Provider secrets as the engine and the webhook endpoint need them: what a sender number sends
 * with, who may sign a webhook about a number or a business account, and the verify tokens of
 * the `hub.challenge` handshake.
 */
import type { Knex } from 'knex';
import type { BusinessInfoRow } from '../db/rows/businessInfos';
import type { ProviderSettingsRow } from '../db/rows/providerSettings';
import type { WhatsappNumberRow } from '../db/rows/whatsappNumbers';
import type { SecretBox } from '../security/secretBox';
import { secretContext, tryOpenSecret } from './secrets';

export type ProviderCredentials =
  | { kind: 'cloud_api'; phoneNumberId: string; accessToken: string; appSecret: string | null }
  | { kind: 'channel'; channelId: string; apiKey: string };

export interface WebhookSigner {
  userId: number;
  secret: string;
}

export class ProviderCredentialStore {
  constructor(private readonly deps: { db: Knex; secretBox: SecretBox }) {}

  /**
   * What the engine needs to send from a sender number: null for simulator numbers, for numbers
   * no longer active (deactivated business, replaced id) and when the secret is missing. Reads
   * the database on every call; a caller sending a batch should ask once per batch. Throws
   * SecretBoxError when a stored secret no longer opens (SECRETS_KEY changed).
   */
  async credentialsForNumber(senderNumberId: number): Promise<ProviderCredentials | null> {
    const { db, secretBox } = this.deps;
    const number = (await db('whatsapp_numbers').where({ id: senderNumberId }).first()) as WhatsappNumberRow | undefined;
    if (!number || !number.isActive) return null;
    if (number.provider === 'cloud_api') {
      const info = (await db('business_infos').where({ userId: number.userId, whatsappNumberId: number.phoneNumberId }).first()) as
        | BusinessInfoRow
        | undefined;
      if (!info) return this.connectionCredentials(number);
      if (!info.accessTokenEncrypted || !info.isActive) return null;
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
   * A further number the customer connected through Embedded Signup: its own connection's token,
   * the business's app secret; nothing while the business is inactive.
   */
  private async connectionCredentials(number: WhatsappNumberRow): Promise<ProviderCredentials | null> {
    const { db, secretBox } = this.deps;
    const connection = (await db('whatsapp_connections').where({ userId: number.userId, phoneNumberId: number.phoneNumberId, status: 'connected' }).first()) as
      | { accessTokenEncrypted: string | null }
      | undefined;
    if (!connection?.accessTokenEncrypted) return null;
    const business = (await db('business_infos').where({ userId: number.userId }).first()) as BusinessInfoRow | undefined;
    if (business && !business.isActive) return null;
    return {
      kind: 'cloud_api',
      phoneNumberId: number.phoneNumberId,
      accessToken: secretBox.open(connection.accessTokenEncrypted, secretContext('accessTokenEncrypted', number.userId)),
      appSecret: business?.appSecretEncrypted ? secretBox.open(business.appSecretEncrypted, secretContext('appSecretEncrypted', number.userId)) : null,
    };
  }

  /**
   * Who may sign a webhook about this sender number: the owner's business app secret (Cloud API).
   * Only accounts of active, undeleted users with an active business count: a disabled or deleted
   * account's secret verifies nothing. A value that no longer opens is left out. Channel (360dialog)
   * webhooks are not signed; they are authenticated by channelWebhookKeys.
   */
  async webhookSignersForNumber(phoneNumberId: string): Promise<WebhookSigner[]> {
    return (await this.webhookPartiesForNumber(phoneNumberId)).signers;
  }

  /**
   * Everything the webhook endpoint needs about a sender number before it answers, read in one
   * query (every signed POST waits on it): the active owners of the number with its provider (the
   * platform-held secrets vouch for those), and the business app secrets that may sign for it, as
   * webhookSignersForNumber. Read fresh each time, so a changed or removed secret counts at once on
   * every instance.
   */
  async webhookPartiesForNumber(phoneNumberId: string): Promise<{ numbers: Pick<WhatsappNumberRow, 'userId' | 'provider'>[]; signers: WebhookSigner[] }> {
    const { db } = this.deps;
    const activeUser = (q: Knex.QueryBuilder, userColumn: string) => q.join('users', 'users.id', userColumn).where('users.isActive', true).whereNull('users.deletedAt');
    const owners = activeUser(db('whatsapp_numbers'), 'whatsapp_numbers.userId')
      .where('whatsapp_numbers.phoneNumberId', phoneNumberId)
      .select({ userId: 'whatsapp_numbers.userId', provider: 'whatsapp_numbers.provider' }, db.raw('null as ??', ['secret']));
    const ownBusiness = activeUser(db('business_infos'), 'business_infos.userId')
      .where({ 'business_infos.whatsappNumberId': phoneNumberId, 'business_infos.isActive': true })
      .whereNotNull('business_infos.appSecretEncrypted')
      .select({ userId: 'business_infos.userId' }, db.raw('null as ??', ['provider']), { secret: 'business_infos.appSecretEncrypted' });
    // A further number connected through Embedded Signup is signed for by its business's app.
    const connected = activeUser(db('whatsapp_connections').join('business_infos', 'business_infos.userId', 'whatsapp_connections.userId'), 'whatsapp_connections.userId')
      .where({ 'whatsapp_connections.phoneNumberId': phoneNumberId, 'whatsapp_connections.status': 'connected', 'business_infos.isActive': true })
      .whereNotNull('business_infos.appSecretEncrypted')
      .select({ userId: 'business_infos.userId' }, db.raw('null as ??', ['provider']), { secret: 'business_infos.appSecretEncrypted' });
    const rows = (await owners.unionAll([ownBusiness, connected])) as { userId: number; provider: WhatsappNumberRow['provider'] | null; secret: string | null }[];
    const numbers: Pick<WhatsappNumberRow, 'userId' | 'provider'>[] = [];
    const signers: WebhookSigner[] = [];
    const signed = new Set<number>();
    for (const row of rows) {
      if (row.provider !== null) numbers.push({ userId: row.userId, provider: row.provider });
      else if (row.secret !== null && !signed.has(row.userId)) {
        signed.add(row.userId);
        const secret = this.tryOpen(row.secret, secretContext('appSecretEncrypted', row.userId));
        if (secret !== null) signers.push({ userId: row.userId, secret });
      }
    }
    return { numbers, signers };
  }

  /**
   * The API key of the account that holds this channel, for the token its webhooks carry: only an
   * active, undeleted user whose business (when there is one) is active. `secret` is the key.
   */
  async channelWebhookKeys(channelId: string): Promise<WebhookSigner[]> {
    const rows = (await this.deps
      .db('provider_settings')
      .join('users', 'users.id', 'provider_settings.userId')
      .leftJoin('business_infos', 'business_infos.userId', 'provider_settings.userId')
      .where('users.isActive', true)
      .whereNull('users.deletedAt')
      .where({ 'provider_settings.channelId': channelId })
      .where((q) => q.whereNull('business_infos.id').orWhere('business_infos.isActive', true))
      .whereNotNull('provider_settings.apiKeyEncrypted')
      .select('provider_settings.userId', 'provider_settings.apiKeyEncrypted')) as Pick<ProviderSettingsRow, 'userId' | 'apiKeyEncrypted'>[];
    return rows
      .map((row) => ({ userId: row.userId, secret: this.tryOpen(row.apiKeyEncrypted, secretContext('apiKeyEncrypted', row.userId)) }))
      .filter((signer): signer is WebhookSigner => signer.secret !== null);
  }

  /**
   * The channel an API key is for, as 360dialog knows it: used only by the simulator, which plays
   * 360dialog and must find the account of the key a send carries. Opens every stored key.
   */
  async channelIdForApiKey(apiKey: string): Promise<string | null> {
    const rows = (await this.deps.db('provider_settings').whereNotNull('apiKeyEncrypted').select('userId', 'channelId', 'apiKeyEncrypted')) as Pick<
      ProviderSettingsRow,
      'userId' | 'channelId' | 'apiKeyEncrypted'
    >[];
    const row = rows.find((r) => this.tryOpen(r.apiKeyEncrypted, secretContext('apiKeyEncrypted', r.userId)) === apiKey);
    return row?.channelId ?? null;
  }

  /** Who may sign template review webhooks of a business account (WABA): its active owner's app secret. */
  async webhookSignersForBusiness(wabaId: string): Promise<WebhookSigner[]> {
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
      .filter((signer): signer is WebhookSigner => signer.secret !== null);
  }

  /** Every business's webhook verify token, for the `hub.challenge` handshake. */
  async verifyTokens(): Promise<string[]> {
    const rows = (await this.deps.db('business_infos').whereNotNull('webhookVerifyTokenEncrypted')) as BusinessInfoRow[];
    const tokens = rows.map((row) => this.tryOpen(row.webhookVerifyTokenEncrypted, secretContext('webhookVerifyTokenEncrypted', row.userId)));
    return [...new Set(tokens.filter((token): token is string => token !== null))];
  }

  private tryOpen(sealed: string | null, context: string): string | null {
    return tryOpenSecret(this.deps.secretBox, sealed, context);
  }
}
