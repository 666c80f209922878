import { Download } from 'lucide-react';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { TSkippedRow } from '@shared/schemas/sending';
import { skippedRowsCsv } from '../../lib/sending/campaign';
import { saveFile } from '../../platform/files';
import { Button } from '../ui/button';

/** Rows listed on screen; the CSV holds every row the server listed. */
const SKIPPED_SHOWN = 20;

/**
 * Every row a send will not send (or did not), with its row number and why, and the list as a
 * CSV: the review step's preview and the accepted answer show the same list.
 */
export function SkippedRowsList({ rows, total = rows.length }: { rows: readonly TSkippedRow[]; total?: number | undefined }) {
  if (rows.length === 0) return null;
  const notListed = Math.max(0, total - rows.length);
  const handleDownload = () => saveFile(new Blob([skippedRowsCsv(rows)], { type: 'text/csv;charset=utf-8' }), messages.sending.skippedCsvName);
  return (
    <section aria-label={messages.sending.skippedTitle} className="flex flex-col gap-2" data-testid="skipped-rows">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-medium">
          {messages.sending.skippedTitle} ({formatIndianNumber(total)})
        </h3>
        <Button variant="outline" size="sm" onClick={handleDownload}>
          <Download aria-hidden="true" />
          {messages.sending.skippedDownload}
        </Button>
      </div>
      <div className="max-h-40 overflow-y-auto rounded-lg border border-slate-200 dark:border-slate-800">
        <table className="w-full text-left text-xs">
          <thead className="sticky top-0 bg-slate-50 dark:bg-slate-900">
            <tr>
              <th scope="col" className="px-2 py-1 font-medium">
                Row
              </th>
              <th scope="col" className="px-2 py-1 font-medium">
                Value
              </th>
              <th scope="col" className="px-2 py-1 font-medium">
                Why
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {rows.slice(0, SKIPPED_SHOWN).map((row) => (
              <tr key={`${row.row}-${row.reason}`}>
                <td className="px-2 py-1 tabular-nums">{row.row}</td>
                <td className="px-2 py-1 font-mono break-all">{row.value || '—'}</td>
                <td className="px-2 py-1">{row.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length > SKIPPED_SHOWN ? <p className="text-xs text-slate-500 dark:text-slate-400">{formatIndianNumber(rows.length - SKIPPED_SHOWN)} more in the CSV</p> : null}
      {notListed > 0 ? <p className="text-xs text-slate-500 dark:text-slate-400">{fillMessage(messages.sending.skippedMore, { count: formatIndianNumber(notListed) })}</p> : null}
    </section>
  );
}
