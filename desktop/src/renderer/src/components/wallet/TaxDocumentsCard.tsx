import { useInfiniteQuery } from '@tanstack/react-query';
import { Download, FileText } from 'lucide-react';
import { useState } from 'react';
import { formatIstTimeLabelled, istDate } from '@shared/istTime';
import { messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { TTaxDocument } from '@shared/types';
import { errorText } from '../../api/client';
import { invoicesApi, type TaxDocumentsSource } from '../../api/invoices';
import { useFileDownload } from '../../hooks/useFileDownload';
import { TOAST_IDS } from '../../lib/toasts';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { FieldShell } from '../ui/form-field';
import { Input } from '../ui/input';
import { Spinner } from '../ui/spinner';

const inv = messages.invoices;

/** "1180.00" -> "₹1,180.00" */
export function rupeeText(amount: string): string {
  return `₹${formatIndianNumber(Number(amount), 2)}`;
}

function taxText(document: TTaxDocument): string {
  return Number(document.igst) > 0 ? `IGST ${rupeeText(document.igst)}` : `${rupeeText(document.cgst)} + ${rupeeText(document.sgst)}`;
}

/** A user's tax invoices and credit notes with their PDFs, and the monthly statement (PDF, CSV). */
export function TaxDocumentsCard({ source }: { source: TaxDocumentsSource }) {
  const [month, setMonth] = useState(() => istDate().slice(0, 7));
  const { busy, download } = useFileDownload(TOAST_IDS.taxDocument, inv.downloadFailed);
  const documents = useInfiniteQuery({
    queryKey: source.key,
    queryFn: ({ pageParam }) => invoicesApi.list(source, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
  const rows = documents.data?.pages.flatMap((page) => page.invoices) ?? [];
  const monthValid = /^\d{4}-(0[1-9]|1[0-2])$/.test(month);

  const handleDownload = (key: string, url: string, params: Record<string, string> = {}) => download(key, () => invoicesApi.download(url, params));

  let body: React.ReactNode;
  if (documents.isPending) body = <p className="py-4 text-center text-sm text-slate-500 dark:text-slate-400">{messages.common.loading}</p>;
  else if (documents.isError) body = <Alert tone="error">{errorText(documents.error, inv.loadFailed)}</Alert>;
  else if (rows.length === 0) body = <p className="py-4 text-center text-sm text-slate-500 dark:text-slate-400">{inv.empty}</p>;
  else
    body = (
      <div className="relative overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
        <table className="w-full text-left text-sm" aria-label={inv.title}>
          <thead className="bg-slate-50 text-slate-600 dark:bg-slate-800/60 dark:text-slate-300">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">{inv.columnNumber}</th>
              <th scope="col" className="px-3 py-2 font-semibold">{inv.columnDate}</th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">{inv.columnTaxable}</th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">{inv.columnTax}</th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">{inv.columnTotal}</th>
              <th scope="col" className="px-3 py-2 font-semibold">{inv.columnPlace}</th>
              <th scope="col" className="px-3 py-2 font-semibold"><span className="sr-only">{inv.download}</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {rows.map((document) => (
              <tr key={document.id} data-testid="tax-document-row">
                <TaxDocumentNumberCell document={document} />
                <td className="px-3 py-2 whitespace-nowrap">{formatIstTimeLabelled(document.date)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{rupeeText(document.taxable)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{taxText(document)}</td>
                <td className="px-3 py-2 text-right font-semibold tabular-nums">{rupeeText(document.total)}</td>
                <td className="px-3 py-2">{document.place_of_supply}</td>
                <td className="px-3 py-2 text-right">
                  <Button variant="outline" size="sm" disabled={busy === document.id} onClick={() => void handleDownload(document.id, document.pdf_url)} aria-label={`${inv.download}: ${document.kind === 'credit_note' ? inv.creditNote : inv.taxInvoice} ${document.number}`}>
                    {busy === document.id ? <Spinner className="text-current" /> : <FileText aria-hidden="true" />}
                    {inv.download}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );

  return (
    <Card>
      <CardHeader>
        <CardTitle>{inv.title}</CardTitle>
        <CardDescription>{inv.description}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {body}
        {documents.hasNextPage ? (
          <Button variant="outline" size="sm" className="self-center" onClick={() => void documents.fetchNextPage()} disabled={documents.isFetchingNextPage}>
            {documents.isFetchingNextPage ? messages.common.loading : messages.walletHistory.loadMore}
          </Button>
        ) : null}
        <div className="flex flex-col gap-3 border-t border-slate-100 pt-4 sm:flex-row sm:items-end dark:border-slate-800">
          <FieldShell id="statement-month" label={`${inv.statementTitle}: ${inv.statementMonth}`}>
            <Input id="statement-month" type="month" value={month} invalid={!monthValid} onChange={(event) => setMonth(event.target.value)} />
          </FieldShell>
          <Button variant="outline" disabled={!monthValid || busy === 'statement-pdf'} onClick={() => void handleDownload('statement-pdf', source.statementUrl, { month, format: 'pdf' })}>
            <Download aria-hidden="true" />
            {inv.statementPdf}
          </Button>
          <Button variant="outline" disabled={!monthValid || busy === 'statement-csv'} onClick={() => void handleDownload('statement-csv', source.statementUrl, { month, format: 'csv' })}>
            <Download aria-hidden="true" />
            {inv.statementCsv}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

/** A document's number; a credit note also names the invoice it is against. */
export function TaxDocumentNumberCell({ document }: { document: { number: string; kind: string; against?: string | null } }) {
  return (
    <td className="px-3 py-2 font-medium tabular-nums">
      {document.number}
      {document.kind === 'credit_note' ? <span className="block text-xs text-slate-500 dark:text-slate-400">{inv.creditNote} · {document.against}</span> : null}
    </td>
  );
}
