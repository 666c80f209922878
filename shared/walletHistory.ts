/**
 * How a wallet ledger entry reads to its owner (plain words, ₹ amounts, Indian grouping,
 * the balance after each entry). Isomorphic: the server's history answer and the Wallet page's
 * CSV export say the same thing.
 */
import { formatIstDateTime, IST_LABEL } from './istTime';
import { formatRupees } from './money';

/** What a person filters by; each ledger type code belongs to one. */
export const WALLET_ENTRY_KINDS = ['topup', 'send', 'refund', 'adjustment'] as const;
export type TWalletEntryKind = (typeof WALLET_ENTRY_KINDS)[number];

/** Ledger type codes by kind (server/src/wallet/service.ts and the payment and pricing services write them). */
export const WALLET_TYPES_BY_KIND: Record<TWalletEntryKind, readonly string[]> = {
  topup: ['TOPUP_ADD', 'TOPUP_REFUND'],
  send: ['CAMPAIGN_DEBIT'],
  refund: ['REFUND_ADD'],
  adjustment: ['ADMIN_ADD', 'ADMIN_DEDUCT', 'OPENING_BALANCE_ADD'],
};

const TITLES: Record<string, string> = {
  TOPUP_ADD: 'Wallet top-up',
  TOPUP_REFUND: 'Top-up refunded',
  CAMPAIGN_DEBIT: 'Messages sent',
  REFUND_ADD: 'Refund for a message not delivered',
  ADMIN_ADD: 'Credits added by support',
  ADMIN_DEDUCT: 'Credits deducted by support',
  OPENING_BALANCE_ADD: 'Opening balance',
};

export function walletEntryKind(type: string): TWalletEntryKind {
  for (const kind of WALLET_ENTRY_KINDS) if (WALLET_TYPES_BY_KIND[kind].includes(type)) return kind;
  return 'adjustment';
}

/** "Wallet top-up"; an unknown code reads as words ("SOME_CODE" -> "Some code"). */
export function walletEntryTitle(type: string): string {
  const known = TITLES[type];
  if (known) return known;
  const words = type.replace(/_/g, ' ').toLowerCase().trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "+₹1,000.00" / "−₹0.80": the sign says which way the money moved. */
export function formatSignedRupees(amount: number): string {
  return `${amount < 0 ? '-' : '+'}${formatRupees(Math.abs(amount))}`;
}

/** One entry of GET /api/wallet/history. Amounts in rupees; `amount` is signed. */
export interface TWalletHistoryEntry {
  id: string;
  kind: TWalletEntryKind;
  type: string;
  /** Plain words: "Wallet top-up", "Messages sent"... */
  title: string;
  description: string;
  amount: number;
  /** "+₹1,000.00" */
  amountText: string;
  balanceAfter: number;
  /** "₹2,000.00" */
  balanceAfterText: string;
  createdAt: string;
  templateName: string | null;
  campaignId: number | null;
  /** Set on top-ups: the PDF receipt's address. */
  receiptUrl: string | null;
}

export interface TWalletHistoryResponse {
  success: true;
  entries: TWalletHistoryEntry[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

/**
 * Credits and debits in their own columns, both positive: a leading minus would be taken for a
 * formula and quoted by the CSV writer's guard, and accountants read ledgers this way.
 */
export const WALLET_CSV_COLUMNS = [`Date (${IST_LABEL})`, 'Entry', 'Details', 'Credit (INR)', 'Debit (INR)', 'Balance After (INR)', 'Reference'] as const;

/** One CSV line's cells; plain numbers (2 decimals) so spreadsheets can add them up. */
export function walletCsvCells(entry: TWalletHistoryEntry): string[] {
  return [
    formatIstDateTime(entry.createdAt) ?? '',
    entry.title,
    entry.description,
    entry.amount >= 0 ? entry.amount.toFixed(2) : '',
    entry.amount < 0 ? Math.abs(entry.amount).toFixed(2) : '',
    entry.balanceAfter.toFixed(2),
    entry.campaignId !== null ? `Campaign ${entry.campaignId}` : (entry.templateName ?? ''),
  ];
}
