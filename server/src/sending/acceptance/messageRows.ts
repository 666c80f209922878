/**
 * What acceptance writes for each recipient, whichever store writes it: the recipient as
 * acceptance sees it, the fate codes it gives each one, and the message row's stored status,
 * error and values that follow from a code. The materialiser writes the same from staged rows.
 */
import { messages as catalogue } from '@shared/messages';
import type { MessageRow } from '../../db/rows/messages';

export interface RecipientRow {
  /** Digits with country code, already normalised; a row repeating another in number and values was screened out. */
  to: string;
  variables: Record<string, string>;
}

/** The stored status of each of acceptance's status codes (0 queued, 1 Duplicate Blocked, 2 opted out). */
export const ACCEPTED_STATUS_BY_CODE: readonly MessageRow['status'][] = ['queued', 'duplicate', 'suppressed'];

/** ACCEPTED_STATUS_BY_CODE as SQL over a staged row's `status_code` (campaign_recipients). */
export const STAGED_STATUS_SQL = `case status_code ${ACCEPTED_STATUS_BY_CODE.map((status, code) => `when ${code} then '${status}'`).join(' ')} end`;

/**
 * Earlier messages in these states block an identical one (a failed or cancelled message may be
 * sent again). `unknown` blocks: the provider may have taken the send, so the recipient may have it.
 */
export const BLOCKING_STATUSES: readonly MessageRow['status'][] = ['queued', 'sending', 'unknown', 'sent', 'delivered', 'read'];

/** BLOCKING_STATUSES as an SQL list of literals. */
export const BLOCKING_STATUSES_SQL = BLOCKING_STATUSES.map((status) => `'${status}'`).join(', ');

/** The columns of a message row as acceptance and the materialiser insert it (the id aside). */
export const PG_MESSAGE_COLUMNS =
  'campaign_id, user_id, recipient, status, price_units, variables, dedupe_key, error_code, error_message, attempts, next_attempt_at, refunded, created_at, updated_at';

/** Meta's code for a recipient who opted out, stored on the message acceptance set aside for it. */
export const OPTED_OUT_ERROR_CODE = 131050;

/** A message row's stored status from acceptance's status code. */
export const statusOf = (code: number) => ACCEPTED_STATUS_BY_CODE[code] ?? 'suppressed';
/** A message row's stored error from acceptance's status code. */
export const errorOf = (code: number) => (code === 1 ? catalogue.sending.duplicateBlocked : code === 2 ? catalogue.sending.optedOut : null);
/** A recipient's values as stored (null where there are none). */
export const variablesOf = (r: RecipientRow) => (Object.keys(r.variables).length > 0 ? JSON.stringify(r.variables) : null);
