/** The whatsapp_numbers table as knex answers it (camelCased): a user's sender numbers. */

export type NumberProvider = 'simulator' | 'cloud_api' | 'channel';

export interface WhatsappNumberRow {
  id: number;
  userId: number;
  provider: NumberProvider;
  phoneNumberId: string;
  displayNumber: string;
  label: string;
  messagesPerSecond: number;
  /** Booleans are 0/1 on SQLite. */
  isSandbox: boolean | number;
  isActive: boolean | number;
  /** Set while the number is stopped (senderHealth.ts): since when, Meta's code and reason. */
  sendingStoppedAt?: string | Date | null;
  sendingStoppedCode?: number | null;
  sendingStoppedReason?: string | null;
  createdAt: string | Date;
  updatedAt: string | Date;
  /** Meta's health of a Cloud API number (sending/numberHealth.ts); null until read. */
  qualityRating?: string | null;
  messagingLimitTier?: string | null;
  throughputLevel?: string | null;
  nameStatus?: string | null;
  healthUpdatedAt?: string | Date | null;
  healthError?: string | null;
}
