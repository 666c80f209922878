import { z } from 'zod';
import { messages } from '../messages';
import { WALLET_ENTRY_KINDS } from '../walletHistory';

const wh = messages.walletHistory;

export const WALLET_HISTORY_PAGE_SIZE = 50;
export const WALLET_HISTORY_MAX_PAGE_SIZE = 500;

const blankToUndefined = (value: unknown) => (value === '' || value === 'all' ? undefined : value);
const optionalDay = z.preprocess(blankToUndefined, z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Dates must look like 2025-01-31' }).optional());

/**
 * GET /api/wallet/history. `cursor` is the id of the last entry of the previous page (entries come
 * newest first); `from`/`to` are IST calendar days, both inclusive.
 */
export const ZWalletHistoryQuery = z
  .object({
    cursor: z.preprocess(blankToUndefined, z.string().regex(/^\d{1,18}$/, { error: wh.cursorInvalid }).optional()),
    limit: z.coerce.number().int().min(1).max(WALLET_HISTORY_MAX_PAGE_SIZE).default(WALLET_HISTORY_PAGE_SIZE),
    kind: z.preprocess(blankToUndefined, z.enum(WALLET_ENTRY_KINDS).optional()),
    from: optionalDay,
    to: optionalDay,
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, { error: wh.dateRangeInvalid, path: ['from'] });
export type TWalletHistoryQuery = z.infer<typeof ZWalletHistoryQuery>;

const inv = messages.invoices;

/** GET /api/wallet/invoices: newest first, keyset-paged by id. */
export const ZInvoicesQuery = z.object({
  cursor: z.preprocess(blankToUndefined, z.string().regex(/^\d{1,9}$/, { error: wh.cursorInvalid }).optional()),
  limit: z.coerce.number().int().min(1).max(WALLET_HISTORY_MAX_PAGE_SIZE).default(WALLET_HISTORY_PAGE_SIZE),
});
export type TInvoicesQuery = z.infer<typeof ZInvoicesQuery>;

/** An IST calendar month, YYYY-MM. */
export const ZInvoiceMonth = z.string({ error: inv.monthInvalid }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: inv.monthInvalid });

/** A monthly statement of one user: PDF or CSV. */
export const ZStatementQuery = z.object({
  month: ZInvoiceMonth,
  format: z.enum(['pdf', 'csv']).default('pdf'),
});

/** GET /api/admin/invoices: the register of a month, as JSON or one GSTR-1 section's CSV. */
export const ZInvoiceRegisterQuery = z.object({
  month: ZInvoiceMonth,
  format: z.enum(['json', 'csv']).default('json'),
  section: z.enum(['register', 'b2b', 'b2cl', 'b2cs', 'cdnr']).default('register'),
});
