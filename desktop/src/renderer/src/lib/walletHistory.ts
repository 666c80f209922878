import { csvLine } from '@shared/csv';
import { istDate } from '@shared/istTime';
import { WALLET_CSV_COLUMNS, walletCsvCells, type TWalletHistoryEntry } from '@shared/walletHistory';

/** The Wallet page's CSV export: a labelled IST column, plain words, numbers spreadsheets can add. */
export function walletHistoryCsv(entries: readonly TWalletHistoryEntry[]): string {
  // A byte-order mark so that Excel reads the file as UTF-8 (₹ in descriptions).
  return `\uFEFF${csvLine(WALLET_CSV_COLUMNS)}${entries.map((entry) => csvLine(walletCsvCells(entry))).join('')}`;
}

/** wallet_history_2026-11-24.csv (the IST day of the export). */
export function walletHistoryFilename(now: Date = new Date()): string {
  return `wallet_history_${istDate(now)}.csv`;
}
