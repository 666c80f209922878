/**
 * The campaigns table as knex answers it (camelCased by the snake-case mappers). Campaigns and
 * their messages stay on raw knex rather than Objection models: see
 * docs/decisions/2026-11-24-hot-tables-stay-on-knex.md. Timestamps are Date objects on PostgreSQL and ISO strings on SQLite.
 */

export type CampaignStatus = 'scheduled' | 'running' | 'paused' | 'cancelled' | 'completed' | 'failed';
export type CampaignSource = 'quick' | 'bulk' | 'custom' | 'api';
export type HeaderMediaType = 'image' | 'video' | 'document';

export interface CampaignRow {
  id: number;
  userId: number;
  /** Null once the template is deleted: the name, language and category below are kept copies. */
  templateId: number | null;
  senderNumberId: number;
  name: string;
  source: string;
  templateName: string;
  templateLanguage: string;
  category: string;
  priceUnits: number;
  status: string;
  totalRecipients: number;
  billableCount: number;
  duplicateCount: number;
  invalidCount: number;
  suppressedCount: number;
  cancelledCount: number | null;
  totalCostUnits: number;
  refundedUnits: number | null;
  /** The campaign that resent this one's failures; 0 while a resend is being accepted. */
  resentCampaignId: number | null;
  headerMediaType: string | null;
  headerMediaPath: string | null;
  /** The header file's original name (a document is sent with it). */
  headerMediaName: string | null;
  createdAt: string | Date;
  updatedAt: string | Date;
  completedAt: string | Date | null;
  /** When a scheduled campaign starts; null for one sent at once. */
  scheduledAt: string | Date | null;
  /** Why a scheduled campaign could not start (status `failed`). */
  failureReason: string | null;
  /** `template_paused` while the platform holds the campaign for its template (Meta paused it); null otherwise. */
  pauseReason?: string | null;
  /** The status a held campaign returns to when its template is back in use (`running` or `scheduled`). */
  heldFrom?: string | null;
  /** The API key whose single sends of a day this campaign collects (the public API's day campaign). */
  apiKeyId?: number | null;
  /** The Indian day (YYYY-MM-DD) the day campaign collects; cleared once it takes no more sends. */
  apiDay?: string | null;
  /** The member who sent it; null for API sends, the platform's and campaigns from before teams. */
  actorUserId?: number | null;
}

/** The columns a campaign's page and list read: everything but the counters acceptance alone uses. */
export const CAMPAIGN_COLUMNS = [
  'id',
  'name',
  'status',
  'source',
  'templateId',
  'senderNumberId',
  'templateName',
  'templateLanguage',
  'category',
  'totalRecipients',
  'billableCount',
  'invalidCount',
  'cancelledCount',
  'priceUnits',
  'totalCostUnits',
  'refundedUnits',
  'resentCampaignId',
  'headerMediaType',
  'headerMediaPath',
  'headerMediaName',
  'createdAt',
  'completedAt',
  'scheduledAt',
  'failureReason',
  'pauseReason',
  'actorUserId',
] as const satisfies readonly (keyof CampaignRow)[];

/** A campaign as its page and the list read it (CAMPAIGN_COLUMNS). */
export type StoredCampaign = Pick<CampaignRow, (typeof CAMPAIGN_COLUMNS)[number]>;
