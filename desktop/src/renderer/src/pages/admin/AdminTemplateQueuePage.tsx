import { ChevronLeft, ChevronRight, Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { TAdminTemplateQueueQuery } from '@shared/schemas/templates';
import type { TAdminQueuedTemplate } from '@shared/types';
import { errorText } from '../../api/client';
import { ErrorCard } from '../../components/admin/ErrorCard';
import { ReviewTemplateDialog, type PendingReview } from '../../components/admin/ReviewTemplateDialog';
import { TemplatePreviewDialog } from '../../components/admin/TemplatePreviewDialog';
import { ReviewActionsCell, ReviewTableHead, ReviewTableLoadingRows } from '../../components/admin/TemplateReviewTable';
import { TruncatedName } from '../../components/admin/TruncatedName';
import { Button, focusRing } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { NativeSelect } from '../../components/ui/native-select';
import { useTemplateQueue } from '../../hooks/useAdminTemplates';
import { formatDateTime } from '../../lib/dates';
import { templateCategoryName, templateLanguageName, type ReviewDecision } from '../../lib/templateReview';
import { MetaReviewNote, TemplateStatusBadge } from '../../components/templates/TemplateStatus';

const a = messages.admin;
const PAGE_SIZE = 20;
/** Typing in the search waits this long before the list is asked again. */
const SEARCH_DELAY_MS = 300;

type StatusFilter = NonNullable<TAdminTemplateQueueQuery['status']>;
type CategoryFilter = NonNullable<TAdminTemplateQueueQuery['category']> | '';

const statusOptions: { value: StatusFilter; label: string }[] = [
  { value: 'PENDING', label: 'Pending review' },
  { value: 'APPROVED', label: 'Approved' },
  { value: 'REJECTED', label: 'Rejected' },
  { value: 'DRAFT', label: 'Draft' },
  { value: 'ALL', label: 'All statuses' },
];

const categoryOptions: { value: CategoryFilter; label: string }[] = [
  { value: '', label: 'All categories' },
  { value: 'MARKETING', label: 'Marketing' },
  { value: 'UTILITY', label: 'Utility' },
  { value: 'AUTHENTICATION', label: 'Authentication' },
];

const columns = ['Template', 'Owner', 'Category', 'Language', 'Status', 'Submitted'] as const;

function QueueRow({
  template,
  onPreview,
  onReview,
}: {
  template: TAdminQueuedTemplate;
  onPreview: () => void;
  onReview: (decision: ReviewDecision) => void;
}) {
  return (
    <tr className="hover:bg-slate-50/60 dark:hover:bg-slate-800/30">
      <th scope="row" className="px-6 py-3 text-left font-normal">
        <TruncatedName name={template.name} className="font-mono font-medium text-slate-900 dark:text-white" />
      </th>
      <td className="px-4 py-3">
        <TruncatedName name={template.owner.name} className="max-w-48 text-slate-900 dark:text-white" />
        <Link
          to={`/admin/users/${template.owner.id}/templates`}
          className={`block max-w-48 truncate rounded text-xs text-emerald-700 hover:underline dark:text-emerald-400 ${focusRing}`}
          title={`@${template.owner.username}`}
        >
          @{template.owner.username}
        </Link>
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-600 dark:text-slate-300">{templateCategoryName(template.category)}</td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-600 dark:text-slate-300">{templateLanguageName(template.language)}</td>
      <td className="px-4 py-3">
        <TemplateStatusBadge template={template} />
        <MetaReviewNote template={template} className="mt-1 max-w-56 text-xs text-slate-500 dark:text-slate-400" />
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-600 dark:text-slate-300">
        {template.submittedAt ? formatDateTime(template.submittedAt) : '—'}
      </td>
      <ReviewActionsCell name={template.name} status={template.status} inMetaReview={template.inMetaReview} onPreview={onPreview} onReview={onReview} />
    </tr>
  );
}

/** /admin/templates: templates waiting for review across users, reviewed in place. */
export function AdminTemplateQueuePage() {
  const [status, setStatus] = useState<StatusFilter>('PENDING');
  const [category, setCategory] = useState<CategoryFilter>('');
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [previewId, setPreviewId] = useState<number | null>(null);
  const [review, setReview] = useState<(PendingReview & { ownerName: string }) | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(typed.trim());
      setPage(1);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const query = useTemplateQueue({ status, category: category || undefined, search: search || undefined, page, limit: PAGE_SIZE });
  const templates = query.data?.templates ?? [];
  const pagination = query.data?.pagination;
  const previewed = templates.find((template) => template.id === previewId) ?? null;
  const isFiltered = status !== 'PENDING' || category !== '' || search !== '';

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h2 className="text-2xl font-bold tracking-tight">Template Review</h2>
        <p className="text-sm text-slate-500 dark:text-slate-400">
          Templates of every user, oldest submission first. Approve or reject those pending review.
        </p>
      </div>
      <Card>
        <CardHeader className="gap-4">
          <div>
            <CardTitle>Review queue</CardTitle>
            <CardDescription aria-live="polite">
              {pagination ? fillMessage(messages.counts.templates, { count: formatIndianNumber(pagination.total) }) : messages.common.loading}
            </CardDescription>
          </div>
          <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_12rem_12rem]">
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="queue-search">Search</Label>
              <div className="relative">
                <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500" aria-hidden="true" />
                <Input
                  id="queue-search"
                  type="search"
                  placeholder="Template name, user name or username"
                  value={typed}
                  onChange={(e) => setTyped(e.target.value)}
                  className="pl-9"
                />
              </div>
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="queue-status">Status</Label>
              <NativeSelect
                id="queue-status"
                value={status}
                onChange={(e) => {
                  setStatus(e.target.value as StatusFilter);
                  setPage(1);
                }}
              >
                {statusOptions.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="queue-category">Category</Label>
              <NativeSelect
                id="queue-category"
                value={category}
                onChange={(e) => {
                  setCategory(e.target.value as CategoryFilter);
                  setPage(1);
                }}
              >
                {categoryOptions.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </NativeSelect>
            </div>
          </div>
        </CardHeader>
        <CardContent className="p-0 pb-2">
          {query.error ? (
            <div className="px-6 pb-4">
              <ErrorCard
                title={a.templateQueueLoadFailed}
                detail={errorText(query.error, a.templateQueueLoadFailed)}
                onRetry={() => void query.refetch()}
                isRetrying={query.isFetching}
              />
            </div>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full min-w-[60rem] text-left text-sm" aria-busy={query.isFetching}>
                <caption className="sr-only">Templates for review</caption>
                <ReviewTableHead columns={columns} />
                <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                  {query.isPending
                    ? <ReviewTableLoadingRows columnCount={columns.length} />
                    : templates.map((template) => (
                        <QueueRow
                          key={template.id}
                          template={template}
                          onPreview={() => setPreviewId(template.id)}
                          onReview={(decision) => setReview({ template, decision, ownerName: template.owner.name })}
                        />
                      ))}
                  {!query.isPending && templates.length === 0 ? (
                    <tr>
                      <td colSpan={columns.length + 1} className="px-6 py-10 text-center text-slate-500 dark:text-slate-400">
                        {isFiltered ? a.templateQueueEmpty : a.templateQueueNoPending}
                      </td>
                    </tr>
                  ) : null}
                </tbody>
              </table>
            </div>
          )}
          {pagination && pagination.totalPages > 1 ? (
            <nav aria-label="Pages" className="flex items-center justify-end gap-2 px-6 pt-3">
              <span className="text-sm text-slate-600 dark:text-slate-300">
                {fillMessage(a.templateQueuePage, { page: formatIndianNumber(pagination.page), pages: formatIndianNumber(pagination.totalPages) })}
              </span>
              <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage((current) => current - 1)}>
                <ChevronLeft aria-hidden="true" />
                Previous
              </Button>
              <Button variant="outline" size="sm" disabled={page >= pagination.totalPages} onClick={() => setPage((current) => current + 1)}>
                Next
                <ChevronRight aria-hidden="true" />
              </Button>
            </nav>
          ) : null}
        </CardContent>
      </Card>

      <TemplatePreviewDialog
        template={previewed}
        onClose={() => setPreviewId(null)}
        onReview={(template, decision) => {
          setPreviewId(null);
          const owner = templates.find((row) => row.id === template.id)?.owner.name ?? '';
          setReview({ template, decision, ownerName: owner });
        }}
      />
      <ReviewTemplateDialog review={review} ownerName={review?.ownerName ?? ''} onClose={() => setReview(null)} />
    </div>
  );
}
