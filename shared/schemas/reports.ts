import { z } from 'zod';
import { CAMPAIGN_STATUSES, type TCampaign } from './sending';

/**
 * Reports and campaigns (spec 002 Manage Reports, §7 reports calls; docs/decisions/2026-11-21-sending-rules.md for the summary shape).
 * Unset values and 'all' are omitted by the client; the server treats them the same way.
 */

/** The reports' statuses (one a line, so branches that add one merge cleanly). */
export const REPORT_STATUSES = [
  'sent',
  'delivered',
  'read',
  'failed',
  'cancelled',
  'duplicate',
  'pending',
] as const;
export type TReportStatus = (typeof REPORT_STATUSES)[number];

const optionalText = z.preprocess((value) => (value === '' || value === 'all' ? undefined : value), z.string().trim().max(200).optional());
const optionalDate = z.preprocess(
  (value) => (value === '' || value === 'all' ? undefined : value),
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Dates must look like 2025-01-31' })
    .optional(),
);

export const REPORTS_PAGE_SIZE = 50;
export const REPORTS_MAX_PAGE_SIZE = 500;

export const ZReportsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(REPORTS_MAX_PAGE_SIZE).default(REPORTS_PAGE_SIZE),
  dateFrom: optionalDate,
  dateTo: optionalDate,
  recipientNumber: optionalText,
  template: optionalText,
  status: z.preprocess((value) => (value === '' || value === 'all' ? undefined : value), z.enum(REPORT_STATUSES).optional()),
  export: z.enum(['csv', 'excel']).optional(),
  /** The member (user id) who sent the campaigns; unset for everyone's. */
  sentBy: z.preprocess((value) => (value === '' || value === 'all' ? undefined : value), z.coerce.number().int().positive().optional()),
});
export type TReportsQuery = z.infer<typeof ZReportsQuery>;

/** One row of GET /api/whatsapp/reports (spec 002 §3 "Report row", plus what the table can use). */
export interface TReportRow {
  id: number;
  template_used: string;
  recipient_number: string;
  status: string;
  delivered_at: string | null;
  read_at: string | null;
  error_message: string | null;
  /** A failed message's error as Meta reported it (null otherwise). */
  error?: { code: number; subcode: number | null; title: string | null; details: string | null; is_transient: boolean | null; fbtrace_id: string | null };
  sent_at: string | null;
  created_at: string;
  campaign_id: number;
  campaign_name: string;
  /** The category we charged for the message (MARKETING, UTILITY, AUTHENTICATION). */
  category?: string;
  /** The category Meta reported billing in its status `pricing` (upper case); null until reported. */
  meta_category?: string | null;
  /** Meta's `pricing.billable`; null until reported. */
  meta_billable?: boolean | null;
}

/** GET /api/whatsapp/reports/senders: one choice of the sender filter. */
export interface TReportSender {
  userId: number;
  name: string;
}

export interface TReportsPage {
  reports: TReportRow[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

/**
 * GET /api/whatsapp/reports/summary `data` (docs/decisions/2026-11-21-sending-rules.md). Each figure as `messageFigures` in
 * shared/figures.ts defines it: sent includes delivered and read, delivered includes read.
 */
export interface TReportsSummary {
  total: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  /** Stopped by a cancel before sending (refunded; not a failure). */
  cancelled: number;
  duplicate: number;
  pending: number;
  deliveryRate: number;
  readRate: number;
}

export const ZCampaignListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  status: z.preprocess((value) => (value === '' || value === 'all' ? undefined : value), z.enum(CAMPAIGN_STATUSES).optional()),
});

export interface TCampaignList {
  campaigns: TCampaign[];
  total: number;
  page: number;
  totalPages: number;
}

/** GET /api/campaigns/timeline?days=30: per day, messages by outcome (the reports chart). */
export interface TTimelinePoint {
  date: string;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
}

/** GET /api/dashboard/overview: the user dashboard's Account Overview. */
export interface TAccountOverview {
  messagesThisMonth: number;
  deliveryRate: number;
  readRate: number;
  spendThisMonth: number;
  refundsThisMonth: number;
  activeCampaigns: number;
}
