/**
 * The one definition of every message figure the product shows: the dashboard, the
 * reports summary, the campaign cards, the activity chart's totals and the admin usage all count
 * from raw message statuses through this function, so no two screens disagree.
 *
 * - sent: the provider took the message (sent, delivered or read);
 * - delivered: it reached the phone (delivered or read: a read message was delivered);
 * - read: it was read;
 * - failed: it will not arrive (the provider failed it, or the recipient had opted out: both are
 *   what the reports' Failed filter lists);
 * - cancelled: a cancel stopped it before it was sent (refunded; no failure of delivery);
 * - duplicate: Duplicate Blocked (never sent, never charged);
 * - pending: not settled yet (queued, sending, or unknown: handed to the provider without an
 *   answer, awaiting the status webhook that confirms it; never counted as sent or failed early);
 * - attempted: what delivery was tried for (sent + provider failures): the denominator of the
 *   rates. Cancelled, duplicate, opted-out and pending messages were never attempted.
 */

/** Message counts by raw status (any missing status counts 0). */
export type MessageStatusCounts = Partial<
  Record<
    | 'queued'
    | 'sending'
    | 'unknown'
    | 'sent'
    | 'delivered'
    | 'read'
    | 'failed'
    | 'cancelled'
    | 'duplicate'
    | 'suppressed',
    number
  >
>;

export interface MessageFigures {
  total: number;
  pending: number;
  /** Part of `pending`: sent without an answer, awaiting confirmation from WhatsApp. */
  awaitingConfirmation: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  cancelled: number;
  duplicate: number;
  /** Opted out (part of `failed`). */
  optedOut: number;
  attempted: number;
  /** delivered / attempted x 100, one decimal; 0 when nothing was attempted. */
  deliveryRate: number;
  /** read / attempted x 100, one decimal. */
  readRate: number;
  /** Provider failures / attempted x 100, one decimal (opt-outs and cancels are not failures of delivery). */
  failureRate: number;
}

/** Percent with one decimal; 0 of nothing is 0. */
export function percentOf(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;
}

export function messageFigures(counts: MessageStatusCounts): MessageFigures {
  const n = (status: keyof MessageStatusCounts) => Math.max(0, Number(counts[status] ?? 0));
  const read = n('read');
  const delivered = n('delivered') + read;
  const sent = n('sent') + delivered;
  const providerFailed = n('failed');
  const attempted = sent + providerFailed;
  const total = (Object.keys(counts) as (keyof MessageStatusCounts)[]).reduce((sum, status) => sum + n(status), 0);
  return {
    total,
    pending: n('queued') + n('sending') + n('unknown'),
    awaitingConfirmation: n('unknown'),
    sent,
    delivered,
    read,
    failed: providerFailed + n('suppressed'),
    cancelled: n('cancelled'),
    duplicate: n('duplicate'),
    optedOut: n('suppressed'),
    attempted,
    deliveryRate: percentOf(delivered, attempted),
    readRate: percentOf(read, attempted),
    failureRate: percentOf(providerFailed, attempted),
  };
}
