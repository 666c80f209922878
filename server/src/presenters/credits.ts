import { unitsToRupees } from '@shared/money';
import type { CreditTransaction } from '../models';

export interface TCreditHistoryEntry {
  id: number;
  type: string;
  description: string;
  timestamp: string;
  /** Signed rupees, 2 decimals. */
  amount: number;
  balanceAfter: number;
  templateName?: string;
  templateCategory?: string;
}

export function presentCreditHistoryEntry(entry: CreditTransaction): TCreditHistoryEntry {
  return {
    id: entry.id,
    type: entry.type,
    description: entry.description,
    timestamp: entry.createdAt.toISOString(),
    amount: unitsToRupees(entry.amount),
    balanceAfter: unitsToRupees(entry.balanceAfter),
    ...(entry.templateName ? { templateName: entry.templateName } : {}),
    ...(entry.templateCategory ? { templateCategory: entry.templateCategory } : {}),
  };
}
