import { unitsToRupees } from '@shared/money';
import type { TCreditHistoryEntry } from '@shared/types';
import type { CreditTransaction } from '../models';


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
