/** The business_infos table as knex answers it (camelCased): a user's Meta Cloud API account. */

export interface BusinessInfoRow {
  id: number;
  userId: number;
  businessName: string | null;
  whatsappNumber: string | null;
  whatsappNumberId: string | null;
  wabaId: string | null;
  /** Secrets are sealed with SecretBox (security/secretBox.ts); never sent to a client. */
  accessTokenEncrypted: string | null;
  webhookVerifyTokenEncrypted: string | null;
  appSecretEncrypted: string | null;
  webhookUrl: string | null;
  isActive: boolean | number;
  createdAt: Date | string;
  updatedAt: Date | string;
}
