/**
 * The messages table as knex answers it (camelCased). One row per recipient: the million-row
 * table that acceptance, the dispatcher, status ingestion and reports write and scan in bulk, so
 * it stays on raw knex (docs/decisions/2026-11-24-hot-tables-stay-on-knex.md).
 */

export interface MessageRow {
  id: number;
  campaignId: number;
  userId: number;
  recipient: string;
  /** queued, sending, unknown, sent, delivered, read, failed, cancelled, duplicate, suppressed. */
  status: string;
  priceUnits: number;
  /** JSON of the variable values (text on SQLite; parsed already when a driver does). */
  variables: string | Record<string, string> | null;
  dedupeKey: string;
  providerMessageId: string | null;
  errorCode: number | null;
  errorMessage: string | null;
  attempts: number;
  nextAttemptAt: string | Date | null;
  leaseUntil: string | Date | null;
  /** The fencing token of the claim that owns the row (dispatcher.ts). */
  claimToken: string | null;
  /** When the worker handed the message to the provider; null until then. */
  handedAt: string | Date | null;
  refunded: boolean | number;
  createdAt: string | Date;
  updatedAt: string | Date;
  sentAt: string | Date | null;
  deliveredAt: string | Date | null;
  readAt: string | Date | null;
  failedAt: string | Date | null;
}

/** Statuses of a message that is not finished yet: a campaign with any is not completed. */
export const UNFINISHED_STATUSES = ['queued', 'sending', 'unknown'] as const;

/** A row's values whichever way the driver answered the JSON column. */
export function messageVariables(variables: MessageRow['variables']): Record<string, string> {
  if (variables === null) return {};
  return typeof variables === 'string' ? (JSON.parse(variables) as Record<string, string>) : variables;
}
