import { paiseToRupeeString, placeOfSupplyLabel, type TaxSplit } from '@shared/gst';
import type { TOrderTax, TTaxDocument } from '@shared/types';
import type { TaxDocumentWithInvoice } from '../invoices/service';

export function presentTaxDocument(document: TaxDocumentWithInvoice, pdfUrl: string): TTaxDocument {
  return {
    id: String(document.id),
    kind: document.series,
    number: document.number,
    date: document.issuedAt.toISOString(),
    taxable: paiseToRupeeString(document.taxablePaise),
    cgst: paiseToRupeeString(document.cgstPaise),
    sgst: paiseToRupeeString(document.sgstPaise),
    igst: paiseToRupeeString(document.igstPaise),
    total: paiseToRupeeString(document.totalPaise),
    buyer_gstin: document.buyerGstin,
    place_of_supply: placeOfSupplyLabel(document.placeOfSupply),
    against: document.invoiceNumber,
    pdf_url: pdfUrl,
  };
}

export function walletInvoicePdfPath(id: number | string): string {
  return `/api/wallet/invoices/${id}/pdf`;
}

export function adminInvoicePdfPath(id: number | string): string {
  return `/api/admin/invoices/${id}/pdf`;
}

export function presentOrderTax(split: TaxSplit, placeOfSupply: string): TOrderTax {
  return {
    taxable: paiseToRupeeString(split.taxablePaise),
    cgst: paiseToRupeeString(split.cgstPaise),
    sgst: paiseToRupeeString(split.sgstPaise),
    igst: paiseToRupeeString(split.igstPaise),
    total: paiseToRupeeString(split.totalPaise),
    place_of_supply: placeOfSupplyLabel(placeOfSupply),
  };
}
