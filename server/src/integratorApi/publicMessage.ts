/**
 * One message as an integrator sees it: the answer of GET /api/messages/{messageId}
 * and the `data` of a message webhook event, so both say the same thing. A plain mapping from
 * the row; the webhook service and the messages presenter both use it.
 */
import { unitsToRupees } from '@shared/money';
import { MESSAGE_ID_PATTERN, type TMessageApiStatus, type TPublicMessage } from '@shared/schemas/messages';

/** The columns the mapping reads (messages joined to their campaign's template name), as knex's snake-case mappers name them. */
export interface PublicMessageRow {
  id: number | string;
  campaignId: number | string;
  recipient: string;
  status: string;
  priceUnits: number | string;
  refunded: boolean | number;
  errorCode: number | string | null;
  errorMessage: string | null;
  /** Meta's error fields (absent on rows read without them). */
  errorSubcode?: number | string | null;
  errorTitle?: string | null;
  errorDetails?: string | null;
  errorTransient?: boolean | number | null;
  errorFbtraceId?: string | null;
  templateName: string;
  sentAt: string | Date | null;
  deliveredAt: string | Date | null;
  readAt: string | Date | null;
  updatedAt: string | Date;
  /** The campaign's status: its queued messages are `scheduled` while it waits for its time. */
  campaignStatus: string;
  scheduledAt: string | Date | null;
}

/** The columns to select for a PublicMessageRow, messages as `m` joined to campaigns as `c`. */
export const PUBLIC_MESSAGE_COLUMNS = [
  'm.id',
  'm.campaign_id',
  'm.recipient',
  'm.status',
  'm.price_units',
  'm.refunded',
  'm.error_code',
  'm.error_message',
  'm.error_subcode',
  'm.error_title',
  'm.error_details',
  'm.error_transient',
  'm.error_fbtrace_id',
  'c.template_name',
  'm.sent_at',
  'm.delivered_at',
  'm.read_at',
  'm.updated_at',
  'c.status as campaign_status',
  'c.scheduled_at',
] as const;

export function publicMessageId(id: number | string): string {
  return `msg_${id}`;
}

/** The row id of `msg_<id>`, or null for anything else. */
export function parsePublicMessageId(value: string): number | null {
  const match = MESSAGE_ID_PATTERN.exec(value);
  if (!match) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) ? id : null;
}

/**
 * Stored status to the integrator's word: an opted-out recipient is stored as `suppressed`, and a
 * message of a campaign waiting for its time is stored `queued` but is `scheduled`.
 */
export function apiStatusOf(stored: string, campaignStatus?: string): TMessageApiStatus {
  if (stored === 'queued' && campaignStatus === 'scheduled') return 'scheduled';
  return stored === 'suppressed' ? 'opted_out' : (stored as TMessageApiStatus);
}

/** The integrator's word to the stored status (the list filter). */
export function storedStatusOf(status: TMessageApiStatus): string {
  return status === 'opted_out' ? 'suppressed' : status;
}

function iso(value: string | Date | null): string | undefined {
  if (value === null) return undefined;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

const NOT_CHARGED = new Set(['duplicate', 'suppressed']);

export function toPublicMessage(row: PublicMessageRow): TPublicMessage {
  const charged = !NOT_CHARGED.has(row.status) && !row.refunded;
  const message: TPublicMessage = {
    message_id: publicMessageId(row.id),
    status: apiStatusOf(row.status, row.campaignStatus),
    recipient: row.recipient,
    template: row.templateName,
    campaign_id: Number(row.campaignId),
    cost: charged ? unitsToRupees(Number(row.priceUnits), 4) : 0,
    updated_at: iso(row.updatedAt) ?? new Date(0).toISOString(),
  };
  const failed = row.status === 'failed' || row.status === 'duplicate' || row.status === 'suppressed' || row.status === 'cancelled';
  if (row.errorCode !== null && row.status === 'failed') message.error_code = Number(row.errorCode);
  if (row.errorMessage && failed) message.error_title = row.errorMessage;
  if (row.errorCode !== null && row.status === 'failed') {
    message.error = {
      code: Number(row.errorCode),
      subcode: row.errorSubcode === null || row.errorSubcode === undefined ? null : Number(row.errorSubcode),
      title: row.errorTitle ?? null,
      details: row.errorDetails ?? null,
      is_transient: row.errorTransient === null || row.errorTransient === undefined ? null : Boolean(row.errorTransient),
      fbtrace_id: row.errorFbtraceId ?? null,
    };
  }
  const sentAt = iso(row.sentAt);
  const deliveredAt = iso(row.deliveredAt);
  const readAt = iso(row.readAt);
  if (sentAt) message.sent_at = sentAt;
  if (deliveredAt) message.delivered_at = deliveredAt;
  if (readAt) message.read_at = readAt;
  const scheduledAt = iso(row.scheduledAt);
  if (scheduledAt) message.scheduled_at = scheduledAt;
  return message;
}
