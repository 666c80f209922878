/** The provider_settings table as knex answers it (camelCased): a user's channel provider account. */

export interface ProviderSettingsRow {
  id: number;
  userId: number;
  provider: 'channel';
  channelId: string;
  /** Sealed with SecretBox (security/secretBox.ts); never sent to a client. */
  apiKeyEncrypted: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
}
