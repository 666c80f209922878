import { Download } from 'lucide-react';
import type { ReactNode } from 'react';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { TSkippedRow } from '@shared/schemas/sending';
import { cn } from '../../lib/cn';
import { skippedRowsCsv } from '../../lib/sending/campaign';
import { saveFile } from '../../platform/files';
import { Button } from '../ui/button';

/** Rows listed on screen; the CSV holds every row the server listed. */
const SKIPPED_SHOWN = 20;

/** One row that is not sent: its number in the list or file, the value as given, and why. */
export interface NotSentRow {
  line: number;
  value: string;
  reason: string;
}

/**
 * The list of rows a send leaves out, with the button that downloads all of them as a CSV: the
 * file check on this computer and the server's answer (preview and accepted send) show the same
 * table; only their texts and how many rows they hold differ.
 */
export function NotSentRowsTable({
  title,
  heading,
  columns,
  rows,
  downloadLabel,
  onDownload,
  footer,
  testId,
  tall = false,
}: {
  /** The section's accessible name. */
  title: string;
  heading: ReactNode;
  columns: readonly [line: string, value: string, reason: string];
  rows: readonly NotSentRow[];
  downloadLabel: string;
  onDownload: () => void;
  footer?: ReactNode;
  testId: string;
  /** A little more room: the file check lists more rows at once. */
  tall?: boolean;
}) {
  return (
    <section aria-label={title} className="flex flex-col gap-2" data-testid={testId}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-medium">{heading}</h3>
        <Button type="button" variant="outline" size="sm" onClick={onDownload}>
          <Download aria-hidden="true" />
          {downloadLabel}
        </Button>
      </div>
      <div className={cn(tall ? 'max-h-48' : 'max-h-40', 'overflow-y-auto rounded-lg border border-slate-200 dark:border-slate-800')}>
        <table className="w-full text-left text-xs">
          <thead className="sticky top-0 bg-slate-50 dark:bg-slate-900">
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col" className="px-2 py-1 font-medium">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {rows.map((row) => (
              <tr key={`${row.line}-${row.reason}`}>
                <td className="px-2 py-1 tabular-nums">{row.line}</td>
                <td className="px-2 py-1 font-mono break-all">{row.value || '—'}</td>
                <td className="px-2 py-1">{row.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {footer}
    </section>
  );
}

/**
 * Every row a send will not send (or did not), with its row number and why, and the list as a
 * CSV: the review step's preview and the accepted answer show the same list.
 */
export function SkippedRowsList({ rows, total = rows.length }: { rows: readonly TSkippedRow[]; total?: number | undefined }) {
  if (rows.length === 0) return null;
  const notListed = Math.max(0, total - rows.length);
  const handleDownload = () => saveFile(new Blob([skippedRowsCsv(rows)], { type: 'text/csv;charset=utf-8' }), messages.sending.skippedCsvName);
  return (
    <NotSentRowsTable
      title={messages.sending.skippedTitle}
      heading={`${messages.sending.skippedTitle} (${formatIndianNumber(total)})`}
      columns={['Row', 'Value', 'Why']}
      rows={rows.slice(0, SKIPPED_SHOWN).map((row) => ({ line: row.row, value: row.value, reason: row.message }))}
      downloadLabel={messages.sending.skippedDownload}
      onDownload={handleDownload}
      testId="skipped-rows"
      footer={
        <>
          {rows.length > SKIPPED_SHOWN ? <p className="text-xs text-slate-500 dark:text-slate-400">{formatIndianNumber(rows.length - SKIPPED_SHOWN)} more in the CSV</p> : null}
          {notListed > 0 ? <p className="text-xs text-slate-500 dark:text-slate-400">{fillMessage(messages.sending.skippedMore, { count: formatIndianNumber(notListed) })}</p> : null}
        </>
      }
    />
  );
}
