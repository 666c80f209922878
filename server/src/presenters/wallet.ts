import { formatIstTime } from '@shared/istTime';
import { fillMessage, messages } from '@shared/messages';
import { formatRupees, unitsToRupees } from '@shared/money';
import { formatSignedRupees, walletEntryKind, walletEntryTitle, type TWalletHistoryEntry } from '@shared/walletHistory';
import type { CreditTransaction } from '../models';
import { walletInvoicePdfPath } from './invoices';

export function walletReceiptPath(entryId: number | string): string {
  return `/api/wallet/topups/${entryId}/receipt.pdf`;
}

/** `scheduledAt`: when the entry's campaign is due, while it still waits (its messages are not sent yet). */
/** `invoiceId`: the top-up's tax invoice, which replaces its receipt. */
export function presentWalletEntry(entry: CreditTransaction, scheduledAt?: Date, invoiceId?: number): TWalletHistoryEntry {
  const amount = unitsToRupees(entry.amount);
  const balanceAfter = unitsToRupees(entry.balanceAfter);
  const campaignId = entry.referenceType === 'campaign' && entry.referenceId && /^\d+$/.test(entry.referenceId) ? Number(entry.referenceId) : null;
  return {
    id: String(entry.id),
    kind: walletEntryKind(entry.type),
    type: entry.type,
    title: scheduledAt ? fillMessage(messages.walletHistory.scheduledTitle, { time: formatIstTime(scheduledAt) }) : walletEntryTitle(entry.type),
    description: entry.description,
    amount,
    amountText: formatSignedRupees(amount),
    balanceAfter,
    balanceAfterText: formatRupees(balanceAfter),
    createdAt: entry.createdAt.toISOString(),
    templateName: entry.templateName,
    campaignId,
    receiptUrl: entry.type === 'TOPUP_ADD' ? (invoiceId !== undefined ? walletInvoicePdfPath(invoiceId) : walletReceiptPath(entry.id)) : null,
  };
}
