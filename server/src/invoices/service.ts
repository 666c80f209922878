import type { Knex } from 'knex';
import { computeGst, financialYearOf, taxDocumentNumber, type TaxDocumentSeries, type TaxSplit } from '@shared/gst';
import { gstinStateCode } from '@shared/gstin';
import { istDate, istMonthRange } from '@shared/istTime';
import { messages } from '@shared/messages';
import { CREDIT_UNITS_PER_RUPEE } from '@shared/constants';
import type { GstSettings } from '../config';
import { NotFoundError } from '../errors';
import { toDate, type CreditTransaction, type Payment, type User } from '../models';

/** One tax invoice or credit note as issued. */
export interface TaxDocument {
  id: number;
  series: TaxDocumentSeries;
  number: string;
  financialYear: string;
  sequence: number;
  userId: number;
  paymentId: number | null;
  /** A credit note's invoice. */
  invoiceId: number | null;
  creditTransactionId: number | null;
  issuedAt: Date;
  supplierName: string;
  supplierAddress: string;
  supplierGstin: string;
  sac: string;
  rateBasisPoints: number;
  buyerName: string;
  buyerBusinessName: string | null;
  buyerEmail: string | null;
  buyerGstin: string | null;
  buyerAddress: string | null;
  /** GST state code of the buyer's billing state, when given. */
  buyerState: string | null;
  placeOfSupply: string;
  taxablePaise: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
  totalPaise: number;
  reason: string | null;
}

/** A credit note with the number of the invoice it reduces. */
export interface TaxDocumentWithInvoice extends TaxDocument {
  invoiceNumber: string | null;
}

/** What a top-up order costs and gives, priced before payment. */
export interface TopUpQuote {
  split: TaxSplit;
  /** Credit units the wallet gets: the taxable value. */
  creditUnits: number;
  /** Null without GST. */
  placeOfSupply: string | null;
}

type Row = Record<string, unknown>;

const NUMERIC_COLUMNS = ['id', 'sequence', 'userId', 'paymentId', 'invoiceId', 'creditTransactionId', 'rateBasisPoints', 'taxablePaise', 'cgstPaise', 'sgstPaise', 'igstPaise', 'totalPaise'] as const;

function toDocument(row: Row): TaxDocumentWithInvoice {
  const document = { ...row } as Row;
  for (const column of NUMERIC_COLUMNS) document[column] = row[column] === null || row[column] === undefined ? null : Number(row[column]);
  document.issuedAt = toDate(row.issuedAt);
  document.invoiceNumber = row.invoiceNumber ?? null;
  return document as unknown as TaxDocumentWithInvoice;
}

/** A deduction's reason that says it refunds a top-up: it starts with the word "refund". */
export function isRefundReason(reason: string): boolean {
  return /^\s*refund\b/i.test(reason);
}


/**
 * GST tax invoices for paid top-ups and credit notes for refunded ones. Numbers come from one
 * counter row per series and financial year, incremented in the caller's transaction (the one
 * that credits or debits the wallet): PostgreSQL's row lock orders concurrent instances, SQLite
 * has one writer, and a rollback gives the number back, so the series has no gap and no repeat.
 */
export class InvoiceService {
  constructor(private readonly deps: { db: Knex; gst: GstSettings | null }) {}

  get settings(): GstSettings | null {
    return this.deps.gst;
  }

  /**
   * The buyer's place of supply: their billing state when given, else the state of their GSTIN
   * (the profile keeps both in agreement), else (no state on record) the supplier's.
   */
  placeOfSupply(buyer: Pick<User, 'gstin' | 'billingState'>): string | null {
    const gst = this.deps.gst;
    if (!gst) return null;
    if (buyer.billingState) return buyer.billingState;
    return buyer.gstin ? gstinStateCode(buyer.gstin) : gst.supplierStateCode;
  }

  /** Prices a top-up of `amountRupees` (credits in exclusive mode, the amount paid in inclusive mode). */
  quote(user: Pick<User, 'gstin' | 'billingState'>, amountRupees: number): TopUpQuote {
    const gst = this.deps.gst;
    const amountPaise = amountRupees * 100;
    if (!gst) return { split: computeGst(amountPaise, { mode: 'off', rateBasisPoints: 0, intraState: true }), creditUnits: amountRupees * CREDIT_UNITS_PER_RUPEE, placeOfSupply: null };
    const placeOfSupply = this.placeOfSupply(user)!;
    const split = computeGst(amountPaise, { mode: gst.mode, rateBasisPoints: gst.rateBasisPoints, intraState: placeOfSupply === gst.supplierStateCode });
    return { split, creditUnits: split.taxablePaise * (CREDIT_UNITS_PER_RUPEE / 100), placeOfSupply };
  }

  private async nextSequence(trx: Knex, series: TaxDocumentSeries, financialYear: string): Promise<number> {
    await trx('tax_document_counters').insert({ series, financialYear, lastSequence: 0 }).onConflict(['series', 'financialYear']).ignore();
    const [row] = (await trx('tax_document_counters')
      .where({ series, financialYear })
      .update({ lastSequence: trx.raw('last_sequence + 1') }, ['lastSequence'])) as { lastSequence: number | string }[];
    if (!row) throw new Error(`no counter for ${series} ${financialYear}`);
    return Number(row.lastSequence);
  }

  private async insert(trx: Knex, series: TaxDocumentSeries, issuedAt: Date, fields: Omit<TaxDocument, 'id' | 'series' | 'number' | 'financialYear' | 'sequence' | 'issuedAt'>): Promise<TaxDocument> {
    const gst = this.deps.gst!;
    const fy = financialYearOf(istDate(issuedAt));
    const sequence = await this.nextSequence(trx, series, fy.label);
    const number = taxDocumentNumber(gst.invoicePrefix, series, fy.short, sequence);
    const [row] = (await trx('tax_documents')
      .insert({ ...fields, series, number, financialYear: fy.label, sequence, issuedAt: issuedAt.toISOString() })
      .returning('*')) as Row[];
    return toDocument(row!);
  }

  /**
   * The tax invoice of a paid top-up, in the crediting transaction. Orders priced without GST
   * (before it was configured, or with it off) get none: their receipt stays what they paid for.
   */
  async issueForPayment(trx: Knex, payment: Payment, entry: CreditTransaction, user: User, paidAt: Date): Promise<TaxDocument | null> {
    const gst = this.deps.gst;
    if (!gst || payment.taxablePaise === null || payment.placeOfSupply === null) return null;
    return this.insert(trx, 'invoice', paidAt, {
      userId: payment.userId,
      paymentId: payment.id,
      invoiceId: null,
      creditTransactionId: Number(entry.id),
      supplierName: gst.supplierName,
      supplierAddress: gst.supplierAddress,
      supplierGstin: gst.supplierGstin,
      sac: gst.sac,
      rateBasisPoints: gst.rateBasisPoints,
      buyerName: user.name,
      buyerBusinessName: user.businessName ?? null,
      buyerEmail: user.email,
      buyerGstin: user.gstin ?? null,
      buyerAddress: user.billingAddress ?? null,
      buyerState: user.billingState ?? null,
      placeOfSupply: payment.placeOfSupply,
      taxablePaise: payment.taxablePaise,
      cgstPaise: payment.cgstPaise ?? 0,
      sgstPaise: payment.sgstPaise ?? 0,
      igstPaise: payment.igstPaise ?? 0,
      totalPaise: payment.amountPaise,
      reason: null,
    });
  }

  /**
   * Credit notes for a refund of `units` credits taken back from the wallet, in the deducting
   * transaction: against the user's invoices newest first, each up to the taxable value it still
   * has uncredited, with that invoice's rate and tax heads. Credits are the taxable value, so the
   * taxable value refunded is the credits deducted; the tax refunded follows exclusive rounding.
   */
  async issueCreditNotes(
    trx: Knex,
    input: { userId: number; units: number; reason: string; creditTransactionId: number | null; at: Date; /** Only this payment's invoice (a gateway refund of it). */ paymentId?: number },
  ): Promise<TaxDocument[]> {
    if (!this.deps.gst) return [];
    let remaining = Math.floor(input.units / (CREDIT_UNITS_PER_RUPEE / 100));
    if (remaining <= 0) return [];
    let invoiceQuery = trx('tax_documents').where({ userId: input.userId, series: 'invoice' });
    if (input.paymentId !== undefined) invoiceQuery = invoiceQuery.where({ paymentId: input.paymentId });
    const invoices = (await invoiceQuery.orderBy('id', 'desc').select('*')).map(toDocument);
    if (invoices.length === 0) return [];
    const credited = (await trx('tax_documents')
      .where({ userId: input.userId, series: 'credit_note' })
      .groupBy('invoiceId')
      .select('invoiceId')
      .sum({ taxable: 'taxablePaise' })) as { invoiceId: number | string; taxable: number | string }[];
    const creditedByInvoice = new Map(credited.map((row) => [Number(row.invoiceId), Number(row.taxable)]));
    const notes: TaxDocument[] = [];
    for (const invoice of invoices) {
      if (remaining <= 0) break;
      const open = invoice.taxablePaise - (creditedByInvoice.get(invoice.id) ?? 0);
      if (open <= 0) continue;
      const taxable = Math.min(open, remaining);
      remaining -= taxable;
      const split = computeGst(taxable, { mode: 'exclusive', rateBasisPoints: invoice.rateBasisPoints, intraState: invoice.igstPaise === 0 && invoice.cgstPaise + invoice.sgstPaise > 0 });
      notes.push(
        await this.insert(trx, 'credit_note', input.at, {
          userId: invoice.userId,
          paymentId: null,
          invoiceId: invoice.id,
          creditTransactionId: input.creditTransactionId,
          supplierName: invoice.supplierName,
          supplierAddress: invoice.supplierAddress,
          supplierGstin: invoice.supplierGstin,
          sac: invoice.sac,
          rateBasisPoints: invoice.rateBasisPoints,
          buyerName: invoice.buyerName,
          buyerBusinessName: invoice.buyerBusinessName,
          buyerEmail: invoice.buyerEmail,
          buyerGstin: invoice.buyerGstin,
          buyerAddress: invoice.buyerAddress,
          buyerState: invoice.buyerState,
          placeOfSupply: invoice.placeOfSupply,
          taxablePaise: split.taxablePaise,
          cgstPaise: split.cgstPaise,
          sgstPaise: split.sgstPaise,
          igstPaise: split.igstPaise,
          totalPaise: split.totalPaise,
          reason: input.reason.slice(0, 255),
        }),
      );
    }
    return notes;
  }

  /**
   * An administrator's deduction whose reason is a refund ("refund", "Refund: duplicate payment")
   * gives the money of a top-up back: its credit notes, in the deduction's transaction.
   */
  async creditNotesForDeduction(trx: Knex, entry: CreditTransaction, reason: string): Promise<TaxDocument[]> {
    if (entry.amount >= 0 || !isRefundReason(reason)) return [];
    return this.issueCreditNotes(trx, { userId: entry.userId, units: -entry.amount, reason, creditTransactionId: Number(entry.id), at: toDate(entry.createdAt) });
  }

  private withInvoiceNumber(db: Knex) {
    return db('tax_documents as d').leftJoin('tax_documents as i', 'i.id', 'd.invoiceId').select('d.*', 'i.number as invoiceNumber');
  }

  /** A page of a user's invoices and credit notes, newest first, keyset-paged by id. */
  async page(userId: number, cursor: number | null, limit: number): Promise<{ documents: TaxDocumentWithInvoice[]; nextCursor: string | null }> {
    let query = this.withInvoiceNumber(this.deps.db).where('d.userId', userId);
    if (cursor) query = query.where('d.id', '<', cursor);
    const rows = ((await query.orderBy('d.id', 'desc').limit(limit + 1)) as Row[]).map(toDocument);
    const documents = rows.slice(0, limit);
    const last = documents.at(-1);
    return { documents, nextCursor: rows.length > limit && last ? String(last.id) : null };
  }

  /** One document; of this user only when `userId` is given (another's is not found). */
  async find(id: string, userId?: number): Promise<TaxDocumentWithInvoice> {
    if (!/^\d{1,9}$/.test(id)) throw NotFoundError(messages.invoices.notFound);
    let query = this.withInvoiceNumber(this.deps.db).where('d.id', Number(id));
    if (userId !== undefined) query = query.where('d.userId', userId);
    const row = (await query.first()) as Row | undefined;
    if (!row) throw NotFoundError(messages.invoices.notFound);
    return toDocument(row);
  }

  /** Every document issued in an IST month (YYYY-MM), in number order; one user's when given. */
  async month(month: string, userId?: number): Promise<TaxDocumentWithInvoice[]> {
    const { from, to } = istMonthRange(month);
    let query = this.withInvoiceNumber(this.deps.db).where('d.issuedAt', '>=', from.toISOString()).where('d.issuedAt', '<', to.toISOString());
    if (userId !== undefined) query = query.where('d.userId', userId);
    return ((await query.orderBy('d.series').orderBy('d.financialYear').orderBy('d.sequence')) as Row[]).map(toDocument);
  }

  /** Invoice document ids by the ledger entries they were issued for (the wallet history's links). */
  async byLedgerEntries(userId: number, entryIds: readonly (number | string)[]): Promise<Map<string, number>> {
    if (entryIds.length === 0) return new Map();
    const rows = (await this.deps.db('tax_documents')
      .where({ userId, series: 'invoice' })
      .whereIn('creditTransactionId', entryIds.map(Number))
      .select('id', 'creditTransactionId')) as { id: number | string; creditTransactionId: number | string }[];
    return new Map(rows.map((row) => [String(row.creditTransactionId), Number(row.id)]));
  }
}
