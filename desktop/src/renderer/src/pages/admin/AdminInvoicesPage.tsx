import { useQuery } from '@tanstack/react-query';
import { Download, FileText } from 'lucide-react';
import { useState } from 'react';
import { formatIstTimeLabelled, istDate } from '@shared/istTime';
import { messages } from '@shared/messages';
import { errorText } from '../../api/client';
import { invoiceKeys, invoicesApi } from '../../api/invoices';
import { useFileDownload } from '../../hooks/useFileDownload';
import { rupeeText, TaxDocumentNumberCell } from '../../components/wallet/TaxDocumentsCard';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { FieldShell } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { Spinner } from '../../components/ui/spinner';
import { TOAST_IDS } from '../../lib/toasts';

const inv = messages.invoices;

const EXPORTS = [
  { section: 'register', label: inv.exportRegister },
  { section: 'b2b', label: inv.exportB2b },
  { section: 'b2cs', label: inv.exportB2cs },
  { section: 'cdnr', label: inv.exportCdnr },
] as const;

/** /admin/invoices: the tax invoices and credit notes of a month, and its GSTR-1 exports. */
export function AdminInvoicesPage() {
  const [month, setMonth] = useState(() => istDate().slice(0, 7));
  const { busy, download } = useFileDownload(TOAST_IDS.taxDocument, inv.downloadFailed);
  const monthValid = /^\d{4}-(0[1-9]|1[0-2])$/.test(month);
  const register = useQuery({ queryKey: invoiceKeys.register(month), queryFn: () => invoicesApi.register(month), enabled: monthValid });
  const documents = register.data?.documents ?? [];

  const handleDownload = (key: string, url: string, params: Record<string, string>) => download(key, () => invoicesApi.download(url, params));

  let body: React.ReactNode;
  if (!monthValid) body = <Alert tone="error">{inv.monthInvalid}</Alert>;
  else if (register.isPending) body = <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">{messages.common.loading}</p>;
  else if (register.isError) body = <Alert tone="error">{errorText(register.error, inv.loadFailed)}</Alert>;
  else if (documents.length === 0) body = <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">{inv.registerEmpty}</p>;
  else
    body = (
      <div className="relative overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
        <table className="w-full text-left text-sm" aria-label={inv.registerTitle}>
          <thead className="bg-slate-50 text-slate-600 dark:bg-slate-800/60 dark:text-slate-300">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">{inv.columnNumber}</th>
              <th scope="col" className="px-3 py-2 font-semibold">{inv.columnDate}</th>
              <th scope="col" className="px-3 py-2 font-semibold">{inv.columnBuyer}</th>
              <th scope="col" className="px-3 py-2 font-semibold">{inv.columnPlace}</th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">{inv.columnTaxable}</th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">CGST</th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">SGST</th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">IGST</th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">{inv.columnTotal}</th>
              <th scope="col" className="px-3 py-2 font-semibold"><span className="sr-only">{inv.download}</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {documents.map((document) => (
              <tr key={document.id} data-testid="register-row">
                <TaxDocumentNumberCell document={document} />
                <td className="px-3 py-2 whitespace-nowrap">{formatIstTimeLabelled(document.date)}</td>
                <td className="px-3 py-2">
                  {document.buyer_name}
                  <span className="block text-xs text-slate-500 dark:text-slate-400">{document.buyer_gstin ?? 'B2C'}</span>
                </td>
                <td className="px-3 py-2">{document.place_of_supply}</td>
                <td className="px-3 py-2 text-right tabular-nums">{rupeeText(document.taxable)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{rupeeText(document.cgst)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{rupeeText(document.sgst)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{rupeeText(document.igst)}</td>
                <td className="px-3 py-2 text-right font-semibold tabular-nums">{rupeeText(document.total)}</td>
                <td className="px-3 py-2 text-right">
                  <Button variant="outline" size="sm" disabled={busy === document.id} onClick={() => void handleDownload(document.id, document.pdf_url, {})} aria-label={`${inv.download}: ${document.number}`}>
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
    <div className="flex flex-col gap-6">
      <h2 className="text-2xl font-bold tracking-tight">{inv.registerTitle}</h2>
      <Card>
        <CardHeader>
          <CardTitle>{inv.registerTitle}</CardTitle>
          <CardDescription>{inv.registerDescription}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
            <FieldShell id="register-month" label={inv.statementMonth}>
              <Input id="register-month" type="month" value={month} invalid={!monthValid} onChange={(event) => setMonth(event.target.value)} />
            </FieldShell>
            {EXPORTS.map(({ section, label }) => (
              <Button key={section} variant="outline" disabled={!monthValid || busy === section} onClick={() => void handleDownload(section, '/api/admin/invoices', { month, format: 'csv', section })}>
                {busy === section ? <Spinner className="text-current" /> : <Download aria-hidden="true" />}
                {label}
              </Button>
            ))}
          </div>
          {body}
        </CardContent>
      </Card>
    </div>
  );
}
