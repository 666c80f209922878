/**
 * A month's tax documents in the sections of a GSTR-1 return, with the column headings of the
 * GST portal's offline tool CSV templates: B2B invoices (buyer with a GSTIN), B2C large
 * (inter-state, above the limit), B2C small summarised by place of supply and rate, net of their
 * credit notes, and credit notes to registered buyers (CDNR).
 */
import { paiseToRupeeString, placeOfSupplyLabel } from '@shared/gst';
import { istDate } from '@shared/istTime';
import type { TaxDocumentWithInvoice } from './service';

/** An inter-state invoice to an unregistered buyer above this value is reported one by one (B2CL). */
export const B2CL_LIMIT_PAISE = 100_000_00;

export type Gstr1Section = 'b2b' | 'b2cl' | 'b2cs' | 'cdnr';

export const GSTR1_COLUMNS: Record<Gstr1Section, readonly string[]> = {
  b2b: ['GSTIN/UIN of Recipient', 'Receiver Name', 'Invoice Number', 'Invoice date', 'Invoice Value', 'Place Of Supply', 'Reverse Charge', 'Applicable % of Tax Rate', 'Invoice Type', 'E-Commerce GSTIN', 'Rate', 'Taxable Value', 'Cess Amount'],
  b2cl: ['Invoice Number', 'Invoice date', 'Invoice Value', 'Place Of Supply', 'Applicable % of Tax Rate', 'Rate', 'Taxable Value', 'Cess Amount', 'E-Commerce GSTIN'],
  b2cs: ['Type', 'Place Of Supply', 'Applicable % of Tax Rate', 'Rate', 'Taxable Value', 'Cess Amount', 'E-Commerce GSTIN'],
  cdnr: ['GSTIN/UIN of Recipient', 'Receiver Name', 'Note Number', 'Note Date', 'Note Type', 'Place Of Supply', 'Reverse Charge', 'Note Supply Type', 'Note Value', 'Applicable % of Tax Rate', 'Rate', 'Taxable Value', 'Cess Amount'],
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "07-Dec-2026", the offline tool's date format, by the IST calendar day. */
export function gstr1Date(at: Date): string {
  const day = istDate(at);
  return `${day.slice(8, 10)}-${MONTHS[Number(day.slice(5, 7)) - 1]}-${day.slice(0, 4)}`;
}

function rate(document: TaxDocumentWithInvoice): string {
  return String(document.rateBasisPoints / 100);
}

function isInterState(document: TaxDocumentWithInvoice): boolean {
  return document.igstPaise > 0;
}

function receiver(document: TaxDocumentWithInvoice): string {
  return document.buyerBusinessName ?? document.buyerName;
}

/** Each section's rows, as strings ready for a CSV. */
export function gstr1Sections(documents: readonly TaxDocumentWithInvoice[]): Record<Gstr1Section, string[][]> {
  const invoices = documents.filter((d) => d.series === 'invoice');
  const notes = documents.filter((d) => d.series === 'credit_note');
  const isB2cl = (d: TaxDocumentWithInvoice) => !d.buyerGstin && isInterState(d) && d.totalPaise > B2CL_LIMIT_PAISE;
  const b2b = invoices
    .filter((d) => d.buyerGstin)
    .map((d) => [d.buyerGstin!, receiver(d), d.number, gstr1Date(d.issuedAt), paiseToRupeeString(d.totalPaise), placeOfSupplyLabel(d.placeOfSupply), 'N', '', 'Regular B2B', '', rate(d), paiseToRupeeString(d.taxablePaise), '0.00']);
  const b2cl = invoices
    .filter(isB2cl)
    .map((d) => [d.number, gstr1Date(d.issuedAt), paiseToRupeeString(d.totalPaise), placeOfSupplyLabel(d.placeOfSupply), '', rate(d), paiseToRupeeString(d.taxablePaise), '0.00', '']);
  // B2C small: invoices and credit notes of unregistered buyers, netted per place of supply and rate.
  const small = new Map<string, { place: string; rate: string; taxable: number }>();
  for (const d of [...invoices.filter((i) => !i.buyerGstin && !isB2cl(i)), ...notes.filter((n) => !n.buyerGstin)]) {
    const key = `${d.placeOfSupply}|${d.rateBasisPoints}`;
    const bucket = small.get(key) ?? { place: d.placeOfSupply, rate: rate(d), taxable: 0 };
    bucket.taxable += d.series === 'credit_note' ? -d.taxablePaise : d.taxablePaise;
    small.set(key, bucket);
  }
  const b2cs = [...small.values()]
    .sort((a, b) => a.place.localeCompare(b.place) || Number(a.rate) - Number(b.rate))
    .map((bucket) => ['OE', placeOfSupplyLabel(bucket.place), '', bucket.rate, paiseToRupeeString(bucket.taxable), '0.00', '']);
  const cdnr = notes
    .filter((d) => d.buyerGstin)
    .map((d) => [d.buyerGstin!, receiver(d), d.number, gstr1Date(d.issuedAt), 'C', placeOfSupplyLabel(d.placeOfSupply), 'N', 'Regular B2B', paiseToRupeeString(d.totalPaise), '', rate(d), paiseToRupeeString(d.taxablePaise), '0.00']);
  return { b2b, b2cl, b2cs, cdnr };
}
