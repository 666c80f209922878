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

const rupeeString = z.string().regex(/^-?\d+\.\d{2}$/).describe('Rupees exact to the paisa, e.g. "1180.00"');

/** One tax invoice or credit note, as GET /api/wallet/invoices answers it. */
export const ZTaxDocument = z
  .object({
    id: z.string(),
    kind: z.enum(['invoice', 'credit_note']),
    number: z.string().max(16).describe('Sequential per financial year (April-March); credit notes have their own series'),
    date: z.string().describe('When it was issued (ISO 8601)'),
    taxable: rupeeString,
    cgst: rupeeString,
    sgst: rupeeString,
    igst: rupeeString,
    total: rupeeString,
    buyer_gstin: z.string().nullable().describe('Null for a B2C supply'),
    place_of_supply: z.string().describe('State code and name, e.g. "36-Telangana"'),
    against: z.string().nullable().describe("A credit note's invoice number"),
    pdf_url: z.string(),
  })
  .meta({
    id: 'TaxDocument',
    examples: [
      { id: '42', kind: 'invoice', number: 'SND2627/00042', date: '2026-12-07T09:30:00.000Z', taxable: '1000.00', cgst: '90.00', sgst: '90.00', igst: '0.00', total: '1180.00', buyer_gstin: '36AABCT1332L1ZF', place_of_supply: '36-Telangana', against: null, pdf_url: '/api/wallet/invoices/42/pdf' },
    ],
  });

export const ZTaxDocumentsPage = z
  .object({
    success: z.literal(true),
    invoices: z.array(ZTaxDocument),
    nextCursor: z.string().nullable().describe('Pass as cursor for the next (older) page; null on the last page'),
  })
  .meta({
    id: 'TaxDocumentsPage',
    examples: [
      {
        success: true,
        invoices: [
          { id: '43', kind: 'credit_note', number: 'SNDCN2627/00003', date: '2026-12-08T10:00:00.000Z', taxable: '250.50', cgst: '0.00', sgst: '0.00', igst: '45.09', total: '295.59', buyer_gstin: '27AAPFU0939F1ZV', place_of_supply: '27-Maharashtra', against: 'SND2627/00041', pdf_url: '/api/wallet/invoices/43/pdf' },
        ],
        nextCursor: null,
      },
    ],
  });
