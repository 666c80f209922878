import { ChevronLeft, ChevronRight, Inbox, Send } from 'lucide-react';
import { Link } from 'react-router-dom';
import { messages } from '@shared/messages';
import type { TReportRow, TReportsPage } from '@shared/schemas/reports';
import { cn } from '../../lib/cn';
import {
  deliveredAtText,
  errorCellText,
  formatCount,
  formatRecipient,
  pageLabel,
  readAtText,
  REPORT_TABLE_COLUMNS,
  reportStatusLabel,
  reportStatusTone,
} from '../../lib/reports';
import { Alert } from '../ui/alert';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Spinner } from '../ui/spinner';

const r = messages.reportsScreen;


function ReportRow({ row }: { row: TReportRow }) {
  const hasError = Boolean(row.error_message?.trim());
  const muted = 'text-slate-500 dark:text-slate-400';
  return (
    <tr className="border-b border-slate-100 last:border-0 dark:border-slate-800" data-testid="report-row">
      <td className="min-w-44 px-4 py-3 font-mono text-xs break-all text-slate-800 dark:text-slate-200">{row.template_used}</td>
      <td className="px-4 py-3 font-mono text-xs whitespace-nowrap">{formatRecipient(row.recipient_number)}</td>
      <td className="px-4 py-3">
        <Badge variant={reportStatusTone(row.status)} data-testid="report-status">
          {reportStatusLabel(row.status)}
        </Badge>
      </td>
      <td className={cn('px-4 py-3 text-xs whitespace-nowrap', !row.delivered_at && muted)}>{deliveredAtText(row.delivered_at)}</td>
      <td className={cn('px-4 py-3 text-xs whitespace-nowrap', !row.read_at && muted)}>{readAtText(row.read_at)}</td>
      <td className={cn('max-w-xs px-4 py-3 text-xs break-words', hasError ? 'text-red-700 dark:text-red-400' : 'text-emerald-700 dark:text-emerald-400')}>
        {errorCellText(row.error_message)}
      </td>
    </tr>
  );
}

function LoadingRows() {
  return (
    <>
      {[0, 1, 2, 3, 4].map((row) => (
        <tr key={row} className="border-b border-slate-100 dark:border-slate-800">
          {REPORT_TABLE_COLUMNS.map((column) => (
            <td key={column} className="px-4 py-3">
              <div className="h-4 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}

function EmptyState({ filtered, onClearFilters }: { filtered: boolean; onClearFilters: () => void }) {
  return (
    <div className="flex flex-col items-center gap-3 px-6 py-12 text-center" data-testid="reports-empty">
      <span className="flex size-12 items-center justify-center rounded-full bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300">
        <Inbox className="size-6" aria-hidden="true" />
      </span>
      {filtered ? (
        <>
          <h3 className="text-lg font-semibold">{r.noMatches}</h3>
          <Button variant="outline" onClick={onClearFilters}>
            {r.clearAll}
          </Button>
        </>
      ) : (
        <>
          <h3 className="text-lg font-semibold">{r.noMessages}</h3>
          <p className="max-w-sm text-sm text-slate-500 dark:text-slate-400">{r.noMessagesBody}</p>
          <Button asChild>
            <Link to="/user/whatsapp-bulk">
              <Send aria-hidden="true" />
              New Campaign
            </Link>
          </Button>
        </>
      )}
    </div>
  );
}

/**
 * The message report (spec 002 "Manage Reports"): Template, Recipient, Status, Delivered At, Read
 * At, Error; loading and empty states; Previous/Next with 'Page x of y'. The page on screen stays
 * while the next loads.
 */
export function ReportsTable({
  data,
  page,
  isPending,
  isFetching,
  loadError,
  onRetry,
  onPageChange,
  filtered,
  onClearFilters,
}: {
  data: TReportsPage | undefined;
  page: number;
  isPending: boolean;
  isFetching: boolean;
  /** The text of a failed load, shown in place of the rows when there are none to keep. */
  loadError: string | null;
  onRetry: () => void;
  onPageChange: (page: number) => void;
  filtered: boolean;
  onClearFilters: () => void;
}) {
  const rows = data?.reports ?? [];
  const totalPages = Math.max(1, data?.totalPages ?? 1);
  const showEmpty = !isPending && !loadError && rows.length === 0;

  return (
    <div className="flex flex-col">
      {loadError && !data ? (
        <div className="p-4">
          <Alert tone="error">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <span>{loadError}</span>
              <Button size="sm" variant="outline" onClick={onRetry} disabled={isFetching}>
                {isFetching ? <Spinner className="text-current" /> : null}
                Retry
              </Button>
            </div>
          </Alert>
        </div>
      ) : null}

      {showEmpty ? (
        <EmptyState filtered={filtered} onClearFilters={onClearFilters} />
      ) : loadError && !data ? null : (
        <div className="overflow-x-auto">
          <table className={cn('w-full min-w-[48rem] text-left text-sm', isFetching && !isPending && 'opacity-70 transition-opacity')} aria-busy={isPending || isFetching}>
            <caption className="sr-only">Messages and their delivery status</caption>
            <thead className="border-b border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-500 uppercase dark:border-slate-800 dark:bg-slate-800/40 dark:text-slate-400">
              <tr>
                {REPORT_TABLE_COLUMNS.map((column) => (
                  <th key={column} scope="col" className="px-4 py-3 font-medium">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>{isPending ? <LoadingRows /> : rows.map((row) => <ReportRow key={row.id} row={row} />)}</tbody>
          </table>
        </div>
      )}

      <nav
        aria-label="Report pages"
        className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 px-4 py-3 text-sm dark:border-slate-800"
      >
        <p className="text-slate-500 tabular-nums dark:text-slate-400" data-testid="reports-total">
          {data ? `${formatCount(data.total)} ${data.total === 1 ? 'message' : 'messages'}` : '\u00a0'}
        </p>
        <div className="flex items-center gap-2">
          <Button variant="outline" size="sm" onClick={() => onPageChange(page - 1)} disabled={page <= 1 || isPending}>
            <ChevronLeft aria-hidden="true" />
            Previous
          </Button>
          <span className="min-w-24 text-center tabular-nums" aria-live="polite" data-testid="reports-page">
            {pageLabel(page, totalPages)}
          </span>
          <Button variant="outline" size="sm" onClick={() => onPageChange(page + 1)} disabled={page >= totalPages || isPending}>
            Next
            <ChevronRight aria-hidden="true" />
          </Button>
        </div>
      </nav>
    </div>
  );
}
