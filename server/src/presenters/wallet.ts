import { formatRupees, unitsToRupees } from '@shared/money';
import { formatSignedRupees, walletEntryKind, walletEntryTitle, type TWalletHistoryEntry } from '@shared/walletHistory';
import type { CreditTransaction } from '../models';

export function walletReceiptPath(entryId: number | string): string {
  return `/api/wallet/topups/${entryId}/receipt.pdf`;
}

export function presentWalletEntry(entry: CreditTransaction): TWalletHistoryEntry {
  const amount = unitsToRupees(entry.amount);
  const balanceAfter = unitsToRupees(entry.balanceAfter);
  const campaignId = entry.referenceType === 'campaign' && entry.referenceId && /^\d+$/.test(entry.referenceId) ? Number(entry.referenceId) : null;
  return {
    id: String(entry.id),
    kind: walletEntryKind(entry.type),
    type: entry.type,
    title: walletEntryTitle(entry.type),
    description: entry.description,
    amount,
    amountText: formatSignedRupees(amount),
    balanceAfter,
    balanceAfterText: formatRupees(balanceAfter),
    createdAt: entry.createdAt.toISOString(),
    templateName: entry.templateName,
    campaignId,
    receiptUrl: entry.type === 'TOPUP_ADD' ? walletReceiptPath(entry.id) : null,
  };
}
