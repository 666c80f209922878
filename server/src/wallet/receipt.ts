/**
 * The PDF receipt of one wallet top-up. The standard PDF fonts have no ₹ glyph, so
 * amounts read "INR 1,000.00" (Indian grouping). Written uncompressed: a one-page receipt is a
 * few kilobytes either way, and its text stays checkable by the tests.
 */
import PDFDocument from 'pdfkit';
import { formatIstTimeLabelled } from '@shared/istTime';
import { formatIndianNumber, unitsToRupees } from '@shared/money';
import type { TopUpReceiptSource } from './service';

export interface ReceiptIssuer {
  name: string;
  supportEmail: string;
  supportAddress: string;
}

/** "INR 1,00,000.00" */
export function formatInr(rupees: number): string {
  return `INR ${formatIndianNumber(rupees, 2)}`;
}

/** The receipt's number, printed and used in the file name: TOPUP-000123. */
export function receiptNumber(entryId: number | string): string {
  return `TOPUP-${String(entryId).padStart(6, '0')}`;
}

const PAYMENT_METHODS: Record<string, string> = {
  razorpay: 'Razorpay (card, UPI, net banking or wallet)',
  sandbox: 'Sandbox checkout (development only, no real money)',
};

/** Renders the receipt; resolves with the whole file (one page, a few kB). */
export function renderTopUpReceipt(source: TopUpReceiptSource, issuer: ReceiptIssuer): Promise<Buffer> {
  const { entry, payment, user } = source;
  const number = receiptNumber(entry.id);
  const credits = unitsToRupees(entry.amount);
  const paid = payment ? payment.amountPaise / 100 : credits;
  const doc = new PDFDocument({ size: 'A4', margin: 56, compress: false, info: { Title: `${issuer.name} receipt ${number}`, Author: issuer.name } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(20).text(issuer.name);
  doc.font('Helvetica').fontSize(9).fillColor('#555555').text(issuer.supportAddress).text(issuer.supportEmail);
  doc.moveDown(1.5);
  doc.fillColor('#000000').font('Helvetica-Bold').fontSize(16).text('Payment Receipt');
  doc.moveDown(0.5);

  const row = (label: string, value: string) => {
    doc.font('Helvetica-Bold').fontSize(10).text(`${label}: `, { continued: true }).font('Helvetica').text(value);
  };
  row('Receipt number', number);
  row('Date', formatIstTimeLabelled(payment?.paidAt ?? entry.createdAt));
  doc.moveDown();

  doc.font('Helvetica-Bold').fontSize(12).text('Billed to');
  doc.moveDown(0.3);
  row('Name', user.name);
  if (user.businessName) row('Business name', user.businessName);
  if (user.gstin) row('GSTIN', user.gstin);
  row('E-mail', user.email);
  doc.moveDown();

  doc.font('Helvetica-Bold').fontSize(12).text('Details');
  doc.moveDown(0.3);
  row('Description', `Prepaid WhatsApp messaging credits: ${formatIndianNumber(credits, 2)} credits (1 credit = INR 1)`);
  row('Amount paid', formatInr(paid));
  row('Payment method', PAYMENT_METHODS[payment?.provider ?? ''] ?? 'Wallet top-up');
  if (payment) {
    row('Order ID', payment.orderId);
    if (payment.paymentId) row('Payment ID', payment.paymentId);
  }
  row('Wallet balance after this top-up', formatInr(unitsToRupees(entry.balanceAfter)));
  doc.moveDown(2);
  doc.font('Helvetica').fontSize(8).fillColor('#555555').text(`This receipt confirms a prepaid wallet top-up with ${issuer.name}. Generated electronically; no signature is required.`);
  doc.end();
  return done;
}
