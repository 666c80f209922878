/**
 * Tax invoices, credit notes and monthly statements as PDF. The standard PDF fonts have no ₹
 * glyph, so amounts read "INR 1,180.00" (Indian grouping). Written uncompressed, as the receipt
 * is: a page or two either way, and the text stays readable by the tests.
 */
import PDFDocument from 'pdfkit';
import { GST_STATES, paiseToRupeeString, placeOfSupplyLabel, rupeesInWords } from '@shared/gst';
import { formatIstDateTime, formatIstTimeLabelled } from '@shared/istTime';
import { formatIndianNumber, unitsToRupees } from '@shared/money';
import type { CreditTransaction } from '../models';
import type { TaxDocumentWithInvoice } from './service';

/** "INR 1,180.00", exact to the paisa. */
export function formatPaise(paise: number): string {
  return `INR ${formatIndianNumber(paise / 100, 2)}`;
}

function collect(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

function rowWriter(doc: PDFKit.PDFDocument) {
  return (label: string, value: string) => {
    doc.font('Helvetica-Bold').fontSize(10).text(`${label}: `, { continued: true }).font('Helvetica').text(value);
  };
}

/** The file name a document downloads as: its number with the slash made safe. */
export function taxDocumentFilename(document: Pick<TaxDocumentWithInvoice, 'number'>): string {
  return `${document.number.replace(/\//g, '-')}.pdf`;
}

/** A tax invoice (or credit note) as CGST Rules 46 and 53 ask: supplier, buyer, place of supply, SAC, heads, words. */
export function renderTaxDocument(document: TaxDocumentWithInvoice): Promise<Buffer> {
  const isNote = document.series === 'credit_note';
  const title = isNote ? 'Credit Note' : 'Tax Invoice';
  const doc = new PDFDocument({ size: 'A4', margin: 56, compress: false, info: { Title: `${title} ${document.number}`, Author: document.supplierName } });
  const done = collect(doc);
  const row = rowWriter(doc);

  doc.font('Helvetica-Bold').fontSize(18).text(document.supplierName);
  doc.font('Helvetica').fontSize(9).fillColor('#555555').text(document.supplierAddress).text(`GSTIN: ${document.supplierGstin}`);
  doc.moveDown(1.2);
  doc.fillColor('#000000').font('Helvetica-Bold').fontSize(16).text(title);
  doc.moveDown(0.4);
  row(isNote ? 'Credit note number' : 'Invoice number', document.number);
  row('Date', formatIstTimeLabelled(document.issuedAt));
  if (isNote && document.invoiceNumber) row('Against invoice', document.invoiceNumber);
  if (isNote && document.reason) row('Reason', document.reason);
  row('Place of supply', placeOfSupplyLabel(document.placeOfSupply));
  row('Supply type', document.buyerGstin ? 'B2B' : 'B2C');
  row('Reverse charge', 'No');
  doc.moveDown();

  doc.font('Helvetica-Bold').fontSize(12).text('Billed to');
  doc.moveDown(0.3);
  row('Name', document.buyerName);
  if (document.buyerBusinessName) row('Business name', document.buyerBusinessName);
  if (document.buyerGstin) row('GSTIN', document.buyerGstin);
  if (document.buyerAddress) row('Address', document.buyerAddress);
  const buyerState = document.buyerState ?? document.placeOfSupply;
  row('State', `${GST_STATES[buyerState] ?? ''} (code ${buyerState})`);
  if (document.buyerEmail) row('E-mail', document.buyerEmail);
  doc.moveDown();

  const rate = document.rateBasisPoints / 100;
  doc.font('Helvetica-Bold').fontSize(12).text('Details');
  doc.moveDown(0.3);
  row('Description', 'Prepaid WhatsApp messaging credits (1 credit = INR 1)');
  row('SAC', document.sac);
  row('Taxable value', formatPaise(document.taxablePaise));
  if (document.igstPaise > 0 || document.cgstPaise + document.sgstPaise === 0) {
    row(`IGST @ ${rate}%`, formatPaise(document.igstPaise));
  } else {
    row(`CGST @ ${rate / 2}%`, formatPaise(document.cgstPaise));
    row(`SGST @ ${rate / 2}%`, formatPaise(document.sgstPaise));
  }
  row(isNote ? 'Total credited' : 'Total', formatPaise(document.totalPaise));
  row('Amount in words', rupeesInWords(document.totalPaise));
  doc.moveDown(2);
  doc.font('Helvetica').fontSize(8).fillColor('#555555').text(`Generated electronically by ${document.supplierName}; no signature is required.`);
  doc.end();
  return done;
}

export interface StatementSource {
  month: string;
  user: { name: string; businessName: string | null; gstin: string | null; email: string };
  issuer: string;
  documents: readonly TaxDocumentWithInvoice[];
  entries: readonly CreditTransaction[];
}

/** The CSV lines of a monthly statement: the tax documents, then the ledger. */
export function statementCsvRows(source: StatementSource): string[][] {
  const rows: string[][] = [['Section', 'Date (IST)', 'Number or entry', 'Details', 'Taxable (INR)', 'CGST (INR)', 'SGST (INR)', 'IGST (INR)', 'Total (INR)', 'Balance after (INR)']];
  for (const document of source.documents) {
    rows.push([
      document.series === 'credit_note' ? 'Credit note' : 'Tax invoice',
      formatIstDateTime(document.issuedAt) ?? '',
      document.number,
      document.invoiceNumber ? `Against ${document.invoiceNumber}` : placeOfSupplyLabel(document.placeOfSupply),
      paiseToRupeeString(document.taxablePaise),
      paiseToRupeeString(document.cgstPaise),
      paiseToRupeeString(document.sgstPaise),
      paiseToRupeeString(document.igstPaise),
      paiseToRupeeString(document.totalPaise),
      '',
    ]);
  }
  for (const entry of source.entries) {
    rows.push(['Ledger', formatIstDateTime(entry.createdAt) ?? '', entry.type, entry.description, '', '', '', '', unitsToRupees(entry.amount).toFixed(2), unitsToRupees(entry.balanceAfter).toFixed(2)]);
  }
  return rows;
}

/** A user's month: the tax documents issued and every ledger entry. */
export function renderStatement(source: StatementSource): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 48, compress: false, info: { Title: `${source.issuer} statement ${source.month}`, Author: source.issuer } });
  const done = collect(doc);
  const row = rowWriter(doc);
  doc.font('Helvetica-Bold').fontSize(18).text(source.issuer);
  doc.moveDown(0.5);
  doc.font('Helvetica-Bold').fontSize(15).text(`Statement for ${source.month}`);
  doc.moveDown(0.3);
  row('Name', source.user.name);
  if (source.user.businessName) row('Business name', source.user.businessName);
  if (source.user.gstin) row('GSTIN', source.user.gstin);
  row('E-mail', source.user.email);
  doc.moveDown();
  doc.font('Helvetica-Bold').fontSize(12).text('Tax invoices and credit notes');
  doc.moveDown(0.3);
  if (source.documents.length === 0) doc.font('Helvetica').fontSize(9).text('None in this month.');
  for (const document of source.documents) {
    doc
      .font('Helvetica')
      .fontSize(9)
      .text(`${formatIstDateTime(document.issuedAt) ?? ''}  ${document.number}  taxable ${formatPaise(document.taxablePaise)}  tax ${formatPaise(document.cgstPaise + document.sgstPaise + document.igstPaise)}  total ${formatPaise(document.totalPaise)}`);
  }
  doc.moveDown();
  doc.font('Helvetica-Bold').fontSize(12).text('Wallet ledger');
  doc.moveDown(0.3);
  if (source.entries.length === 0) doc.font('Helvetica').fontSize(9).text('No entries in this month.');
  for (const entry of source.entries) {
    const amount = unitsToRupees(entry.amount);
    doc
      .font('Helvetica')
      .fontSize(9)
      .text(`${formatIstDateTime(entry.createdAt) ?? ''}  ${entry.description}  ${amount >= 0 ? '+' : '-'}INR ${formatIndianNumber(Math.abs(amount), 2)}  balance INR ${formatIndianNumber(unitsToRupees(entry.balanceAfter), 2)}`);
  }
  doc.end();
  return done;
}
