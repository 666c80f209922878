import { z } from 'zod';
import type { TNumberHealth } from './numberHealth';
import { fillMessage, messages } from '../messages';

/**
 * The sending calls' payloads (spec 002 §7) and the answers docs/decisions/2026-11-21-sending-rules.md fixes where the spec is
 * silent. Multipart bodies (quick send with a header image) carry objects as JSON strings.
 */

const s = messages.sending;

export function jsonField<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    if (value.trim() === '') return undefined;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }, schema);
}

const ZRequiredText = z.string({ error: s.missingFields }).trim().min(1, { error: s.missingFields });

/** Variable values keyed by the variable's index inside the braces ("1", "name"); an array means 1, 2, 3... */
export const ZVariableValues = jsonField(
  z
    .union([z.record(z.string(), z.union([z.string(), z.number()])), z.array(z.union([z.string(), z.number()]))])
    .optional()
    .transform((value): Record<string, string> => {
      if (!value) return {};
      if (Array.isArray(value)) return Object.fromEntries(value.map((v, i) => [String(i + 1), String(v)]));
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/^\{\{\s*|\s*\}\}$/g, ''), String(v)]));
    }),
);

/** A flag that may come as a JSON boolean or a multipart string. */
export const ZDryRun = z.preprocess((value) => value === true || value === 'true' || value === '1', z.boolean()).optional();

/** How far ahead a send may be scheduled: its cost is reserved from the wallet until then. */
export const SCHEDULE_MAX_DAYS = 60;
/** Sends scheduled from the app must be at least this far ahead (the API takes any future time). */
export const SCHEDULE_MIN_LEAD_MS = 60_000;

/**
 * The one rule for a scheduled time, for the server's answer and the app's own check: the app asks
 * for at least a minute ahead (a person picks a time on a form; sooner is a send now with extra
 * steps), the API for any future time (an integrator's clock decides), and neither may reserve the
 * balance for longer than SCHEDULE_MAX_DAYS. Null when the time is acceptable.
 */
export function scheduleTimeProblem(atMs: number, asker: 'app' | 'api', nowMs: number): { code: string; message: string } | null {
  const ahead = atMs - nowMs;
  if (asker === 'app' && ahead < SCHEDULE_MIN_LEAD_MS) return { code: 'schedule_too_soon', message: messages.schedule.tooSoon };
  if (asker === 'api' && ahead <= 0) return { code: 'schedule_in_past', message: messages.schedule.notInFuture };
  if (ahead > SCHEDULE_MAX_DAYS * 86_400_000) return { code: 'schedule_too_far', message: fillMessage(messages.schedule.tooFar, { days: SCHEDULE_MAX_DAYS }) };
  return null;
}

/**
 * `scheduledAt` (app) / `scheduled_at` (API): an ISO 8601 time with its offset. Only the form is
 * checked here; how far ahead it must be depends on who asks (server `sending/schedule.ts`).
 */
export const ZScheduleInstant = z
  .string({ error: messages.schedule.invalidTime })
  .trim()
  .refine((value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) && Number.isFinite(Date.parse(value)), { error: messages.schedule.invalidTime })
  .transform((value) => new Date(value));

/** The optional field of the send calls: absent or empty means "send now". */
export const ZScheduleTime = z
  .preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), ZScheduleInstant.optional())
  .meta({ type: 'string', format: 'date-time', description: 'Send later: an ISO 8601 time with its offset, e.g. 2026-12-01T10:30:00+05:30. Accepted and charged now, sent then.' });

/** Why a row of a send was not sent: every skipped row is listed with one of these. */
export const SKIP_REASONS = [
  'invalid_number',
  'missing_value',
  'invalid_value',
  'duplicate_in_list',
  'duplicate_blocked',
  'opted_out',
] as const;
export type TSkipReason = (typeof SKIP_REASONS)[number];

/** One skipped row: its row number (1-based, in the list or the file's data rows), the value as given, and why. */
export interface TSkippedRow {
  row: number;
  value: string;
  reason: TSkipReason;
  message: string;
}

/**
 * A completed resumable upload to send from instead of rows in the body. Any text is
 * taken here: an id that cannot be an upload's is answered 404 like an unknown one.
 */
const ZSendUploadId = z.string().trim().min(1).max(100).optional();

/**
 * POST /api/whatsapp/quick-send and /api/whatsapp/bulk-quick-send (JSON or multipart with headerImage).
 * The recipients are `recipients_text`, or the first column (or `recipientColumn`) of the upload
 * `uploadId`: exactly one of the two.
 */
export const ZQuickSendRequest = z
  .object({
    phone_number_id: ZRequiredText,
    template_name: ZRequiredText,
    language: ZRequiredText,
    recipients_text: z.string({ error: s.missingFields }).max(40_000_000).optional(),
    uploadId: ZSendUploadId,
    /** With `uploadId`: the header of the column holding the numbers (default: the first column). */
    recipientColumn: z.string().trim().min(1).max(200).optional(),
    variables: ZVariableValues,
    campaign_name: z.string().trim().max(200).optional(),
    /** Send later: accepted, priced and debited now, queued at this time. */
    scheduledAt: ZScheduleTime,
    /** Price and screen this exact send as acceptance would, without accepting it (the cost preview). */
    dry_run: ZDryRun,
  })
  .refine((body) => (body.recipients_text === undefined) !== (body.uploadId === undefined), { error: s.recipientsOrUpload, path: ['uploadId'] });
export type TQuickSendRequest = z.infer<typeof ZQuickSendRequest>;

/**
 * POST /api/whatsapp/send-custom-messages and /api/whatsapp/bulk-customize-send. The rows are
 * `data`, or the data rows of the upload `uploadId` keyed by its header row: exactly one of the two.
 */
export const ZCustomSendRequest = z
  .object({
    templateName: ZRequiredText,
    language: ZRequiredText,
    phoneNumberId: z.union([z.string(), z.number()]).transform(String).pipe(ZRequiredText),
    recipientColumn: ZRequiredText,
    variableMappings: z.record(z.string(), z.string()).optional().default({}),
    data: z.array(z.record(z.string(), z.unknown()), { error: s.noRecipientsInFile }).min(1, { error: s.noRecipientsInFile }).optional(),
    uploadId: ZSendUploadId,
    campaignName: z.string().trim().max(200).optional(),
    scheduledAt: ZScheduleTime,
    /**
     * Keep each row's mapped columns as its contact's attributes (named by attributeNameOfColumn),
     * written after acceptance by the contacts worker.
     */
    rememberColumns: ZDryRun,
    dry_run: ZDryRun,
  })
  .refine((body) => (body.data === undefined) !== (body.uploadId === undefined), { error: s.dataOrUpload, path: ['uploadId'] });
export type TCustomSendRequest = z.infer<typeof ZCustomSendRequest>;

/** POST /api/send/cost-preview. The client sends at most the first 100 recipients; `recipientCount` gives the full size. */
export const ZCostPreviewRequest = z.object({
  username: z.string().trim().optional(),
  templatename: ZRequiredText,
  language: z.string().trim().optional(),
  recipients: z.union([z.array(z.union([z.string(), z.number()])).transform((list) => list.map(String)), z.string()]),
  recipientCount: z.coerce.number().int().min(0).optional(),
  /** The number the send would go from (its health at Meta is warned of); the default number when absent. */
  phone_number_id: z.string().trim().max(100).optional(),
});
export type TCostPreviewRequest = z.infer<typeof ZCostPreviewRequest>;

/** The answer of quick-send / bulk-quick-send (docs/decisions/2026-11-21-sending-rules.md); also carried by the custom sends. */
export interface TCampaignAccepted {
  campaignId: number;
  accepted: number;
  /** Not sent, not charged: Duplicate Blocked (sent in the duplicate window) and `repeats` together. */
  duplicates: number;
  /** Rows repeating an earlier row of this send in number and every value: listed among `skippedRows`, not sent, not charged. */
  repeats?: number;
  invalid: number;
  /** Opted-out recipients: stored, not sent, not charged. */
  suppressed: number;
  /** Rupees. */
  totalCost: number;
  /** Every row not sent, up to SENDING.skippedRowsListed of them, in row order (batch and send answers). */
  skippedRows?: TSkippedRow[];
  /** How many rows were not sent in all. */
  skippedCount?: number;
  /** When the messages go out, for a scheduled send (ISO); absent for a send now. */
  scheduledAt?: string;
}

export interface TCostPreview {
  recipients: number;
  billable: number;
  /** Duplicate Blocked and `repeats` together. */
  duplicates: number;
  /** Rows repeating an earlier row of this send in number and every value (where the whole send is screened). */
  repeats?: number;
  invalid: number;
  category: string;
  pricePerMessage: number;
  totalCost: number;
  currency: 'INR';
  balance: number;
  balanceAfter: number;
  sufficient: boolean;
  /** Opted-out recipients: not sent, not charged (given where the recipients are known exactly). */
  suppressed?: number;
  /** True when every recipient was screened as acceptance will screen them; false: the figures are "at most". */
  exact?: boolean;
  /** Rows that will not be sent, with why (see TCampaignAccepted.skippedRows). */
  skippedRows?: TSkippedRow[];
  skippedCount?: number;
  /** What the sender number's health at Meta warns of (messaging limit, RED quality); absent when nothing. */
  warnings?: { code: 'messaging_limit_exceeded' | 'quality_red'; message: string }[];
}

/** GET /api/whatsapp/numbers: `data` is a list of these. */
export interface TSenderNumber {
  id: number;
  phone_number_id: string;
  label: string;
  display_number: string;
  provider: 'simulator' | 'cloud_api' | 'channel';
  is_sandbox: boolean;
  messages_per_second: number;
  /** Meta's health of a Cloud API number; null for sandbox and channel numbers. */
  health?: TNumberHealth | null;
  /** Set while Meta refuses to send for the number (its campaigns wait): since when, Meta's code and reason. */
  sending_stopped?: { since: string; code: number | null; reason: string } | null;
}

/** `scheduled` waits for its time; `failed` is a scheduled send that could not start (its reason is `failureReason`). */
export const CAMPAIGN_STATUSES = ['scheduled', 'running', 'paused', 'cancelled', 'completed', 'failed'] as const;
export type TCampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export interface TCampaignCounts {
  queued: number;
  sending: number;
  /** Sent without an answer: awaiting the provider's confirmation (a status carrying our reference). */
  unknown: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  cancelled: number;
  duplicate: number;
  suppressed: number;
}

/** GET /api/campaigns/{id}: `data` (live counts; polled by the send screens). */
export interface TCampaign {
  id: number;
  name: string;
  status: TCampaignStatus;
  source: 'quick' | 'bulk' | 'custom' | 'api';
  templateName: string;
  language: string;
  category: string;
  totalRecipients: number;
  billable: number;
  invalid: number;
  counts: TCampaignCounts;
  /** Contacts who replied to the campaign (a text, a tap, a photo...; reactions aside). */
  replies?: number;
  /** `replies` as a percentage of the messages that reached the contact (delivered or read), one decimal. */
  reply_rate?: number;
  /** Messages a cancel stopped before sending (`counts.cancelled`, refunded; never among the failed). */
  cancelled?: number;
  /** The campaign this one's failed messages were sent again as; null until they are. */
  resentCampaignId?: number | null;
  /** Messages that reached a final state (sent counts as final for progress: the provider took it). */
  processed: number;
  pricePerMessage: number;
  totalCost: number;
  refunded: number;
  createdAt: string;
  completedAt: string | null;
  /** When a scheduled campaign starts (ISO); null for one sent at once. */
  scheduledAt: string | null;
  /** Why a scheduled campaign failed to start (status `failed`); null otherwise. */
  failureReason: string | null;
  /** Why a paused campaign is paused when its owner did not pause it: `template_paused` (Meta paused its template); null otherwise. */
  pauseReason?: TCampaignPauseReason | null;
  /** The account's member who sent it; null for an API send or one from before teams. */
  sentBy?: { userId: number; name: string } | null;
}

/** Why the platform paused a campaign: Meta paused (or is reviewing an appeal of) its template. */
export const CAMPAIGN_PAUSE_REASONS = ['template_paused', 'sender_stopped', 'number_disconnected'] as const;
export type TCampaignPauseReason = (typeof CAMPAIGN_PAUSE_REASONS)[number];

/** PATCH /api/campaigns/{id}/schedule: a new time for a campaign still `scheduled`. */
export const ZRescheduleRequest = z.object({
  scheduledAt: ZScheduleInstant,
});
export type TRescheduleRequest = z.infer<typeof ZRescheduleRequest>;

/** POST /api/send (public API): payload keys from spec 002 §3. */
export const ZApiSendRequest = z.looseObject({
  username: z.string({ error: messages.publicApi.missingFields }).trim().min(1, { error: messages.publicApi.missingFields }),
  templatename: z.string({ error: messages.publicApi.missingFields }).trim().min(1, { error: messages.publicApi.missingFields }),
  recipient_number: z
    .union([z.string(), z.number()], { error: messages.publicApi.missingFields })
    .transform(String)
    .pipe(z.string().trim().min(1, { error: messages.publicApi.missingFields })),
  language: z.string().trim().optional(),
  /** Any future time (ISO 8601): the message is accepted and charged now, sent then. */
  scheduled_at: ZScheduleTime,
});
export type TApiSendRequest = z.infer<typeof ZApiSendRequest>;

/** POST /api/send/batch: the same fields per message, with the key's username once. */
export const ZApiSendBatchRequest = z.object({
  username: z.string({ error: messages.publicApi.missingFields }).trim().min(1, { error: messages.publicApi.missingFields }),
  templatename: z.string({ error: messages.publicApi.missingFields }).trim().min(1, { error: messages.publicApi.missingFields }),
  language: z.string().trim().optional(),
  messages: z
    .array(z.looseObject({ recipient_number: z.union([z.string(), z.number()]).transform(String) }), { error: messages.publicApi.missingFields })
    .min(1, { error: messages.publicApi.missingFields })
    .max(10_000, { error: messages.publicApi.batchTooLarge })
    .optional(),
  scheduled_at: ZScheduleTime,
  /** Instead of `messages`: every contact of this segment who has not opted out. */
  segment_id: z.number().int().min(1).max(2 ** 31 - 1).optional(),
  /** With `segment_id`: each template field (`1`, `2`, `button_0_url`) as `attr:<attribute>`, `attr:name`, or a fixed text. */
  variables: z.record(z.string().max(40), z.string().max(1000)).optional(),
  /** With `segment_id`: the value a field takes where the contact has no value for its attribute. */
  fallbacks: z.record(z.string().max(40), z.string().max(1000)).optional(),
}).refine((input) => (input.messages === undefined) !== (input.segment_id === undefined), { error: messages.publicApi.missingFields, path: ['messages'] });
export type TApiSendBatchRequest = z.infer<typeof ZApiSendBatchRequest>;
