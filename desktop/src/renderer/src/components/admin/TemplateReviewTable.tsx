import { Ban, CheckCircle2, Eye, XCircle } from 'lucide-react';
import { cn } from '../../lib/cn';
import { canDisable, canReview, type ReviewDecision } from '../../lib/templateReview';
import { Button } from '../ui/button';

/**
 * The parts both review tables share (one user's templates, and the queue across users): the header row, the loading rows and the actions cell, so both look and behave alike.
 */
export function ReviewTableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead className="border-y border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-500 uppercase dark:border-slate-800 dark:bg-slate-800/40 dark:text-slate-400">
      <tr>
        {columns.map((column, index) => (
          <th key={column} scope="col" className={index === 0 ? 'px-6 py-3 font-medium' : 'px-4 py-3 font-medium'}>
            {column}
          </th>
        ))}
        <th scope="col" className={cn(stickyActions, 'bg-slate-50 px-4 py-3 dark:bg-slate-900')}>
          <span className="sr-only">Actions</span>
        </th>
      </tr>
    </thead>
  );
}

/** Placeholder rows while the first page loads (the actions column included). */
export function ReviewTableLoadingRows({ columnCount }: { columnCount: number }) {
  return Array.from({ length: 3 }, (_, index) => (
    <tr key={index} aria-hidden="true">
      <td colSpan={columnCount + 1} className="px-6 py-4">
        <div className="h-4 w-full animate-pulse rounded bg-slate-100 dark:bg-slate-800" />
      </td>
    </tr>
  ));
}

/**
 * The actions column stays at the right edge of the table's scroll area, so Approve and Reject
 * are in view on a laptop screen (1366 px) however wide the names make the other columns.
 */
const stickyActions = 'sticky right-0 z-10 border-l border-slate-100 dark:border-slate-800';

/** Preview (icon only, named for screen readers), then Approve and Reject while a review is due. */
export function ReviewActionsCell({
  name,
  status,
  inMetaReview = false,
  onPreview,
  onReview,
}: {
  name: string;
  status: string;
  inMetaReview?: boolean;
  onPreview: () => void;
  onReview: (decision: ReviewDecision) => void;
}) {
  return (
    <td className={cn(stickyActions, 'bg-white px-4 py-3 dark:bg-slate-900')}>
      <div className="flex justify-end gap-2 whitespace-nowrap">
        <Button variant="outline" size="sm" className="w-8 px-0" title="Preview" onClick={onPreview}>
          <Eye aria-hidden="true" />
          <span className="sr-only">Preview {name}</span>
        </Button>
        {canReview(status, inMetaReview) ? (
          <>
            <Button size="sm" onClick={() => onReview('APPROVED')}>
              <CheckCircle2 aria-hidden="true" />
              Approve<span className="sr-only"> {name}</span>
            </Button>
            <Button variant="destructive" size="sm" onClick={() => onReview('REJECTED')}>
              <XCircle aria-hidden="true" />
              Reject<span className="sr-only"> {name}</span>
            </Button>
          </>
        ) : null}
        {canDisable(status) ? (
          <Button variant="outline" size="sm" className="text-red-700 dark:text-red-300" onClick={() => onReview('DISABLED')}>
            <Ban aria-hidden="true" />
            Disable<span className="sr-only"> {name}</span>
          </Button>
        ) : null}
      </div>
    </td>
  );
}
