import { ChevronLeft, ChevronRight, Eye, FileText, Pencil, Plus, RefreshCw, Send, Trash2, X } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { fillMessage, messages } from '@shared/messages';
import { TEMPLATE_CATEGORY_LABELS, templateStatusLabel, type TemplateCategory } from '@shared/templates';
import type { TTemplate } from '@shared/types';
import { errorText } from '../../api/client';
import { TEMPLATE_PAGE_SIZE, type TemplateListQuery } from '../../api/templates';
import { TemplateCardBoundary } from '../../components/templates/TemplateCardBoundary';
import { QualityBadge, TemplateStatusDetails } from '../../components/templates/TemplateQuality';
import { TemplateViewDialog } from '../../components/templates/TemplateViewDialog';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { FieldShell } from '../../components/ui/form-field';
import { NativeSelect } from '../../components/ui/native-select';
import { Spinner } from '../../components/ui/spinner';
import { SyncFromMetaButton } from '../../components/templates/SyncFromMetaButton';
import { useDeleteTemplate, useSubmitTemplate, useSyncTemplates, useTemplateList } from '../../hooks/useTemplates';
import { cn } from '../../lib/cn';
import {
  CATEGORY_FILTERS,
  formatTemplateDate,
  hasFilters,
  listQueryFromSearch,
  pageAfterDelete,
  pageRangeText,
  qualityLabel,
  searchFromListQuery,
  STATUS_FILTERS,
  templateActions,
  templateLabel,
  withFilter,
} from '../../lib/templateList';
import { templateLanguageName } from '../../lib/templateReview';
import { MetaReviewNote, TemplateStatusBadge } from '../../components/templates/TemplateStatus';

const t = messages.templates;

interface PendingDelete {
  id: number;
  label: string;
  /** Whether Meta may have it (anything but a draft): its delete goes to WhatsApp too. */
  atMeta: boolean;
}

function DismissibleError({ message, onDismiss }: { message: string; onDismiss: () => void }) {
  return (
    <Alert tone="error" className="items-center">
      <div className="flex items-center gap-3">
        <p className="flex-1">{message}</p>
        <Button variant="ghost" size="icon" className="size-7 shrink-0 text-current" onClick={onDismiss}>
          <X aria-hidden="true" />
          <span className="sr-only">{messages.app.dismiss}</span>
        </Button>
      </div>
    </Alert>
  );
}

function Filters({ query, onChange }: { query: TemplateListQuery; onChange: (next: TemplateListQuery) => void }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:w-[32rem]">
      <FieldShell id="template-status-filter" label="Status">
        <NativeSelect
          id="template-status-filter"
          value={query.status}
          onChange={(e) => onChange(withFilter(query, 'status', e.target.value))}
        >
          {STATUS_FILTERS.map((status) => (
            <option key={status} value={status}>
              {status === 'all' ? 'All statuses' : templateStatusLabel(status)}
            </option>
          ))}
        </NativeSelect>
      </FieldShell>
      <FieldShell id="template-category-filter" label="Category">
        <NativeSelect
          id="template-category-filter"
          value={query.category}
          onChange={(e) => onChange(withFilter(query, 'category', e.target.value))}
        >
          {CATEGORY_FILTERS.map((category) => (
            <option key={category} value={category}>
              {category === 'all' ? 'All categories' : TEMPLATE_CATEGORY_LABELS[category]}
            </option>
          ))}
        </NativeSelect>
      </FieldShell>
    </div>
  );
}

function Meta({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="text-sm text-slate-800 dark:text-slate-200">{children}</dd>
    </div>
  );
}

function TemplateCard({
  template,
  isSubmitting,
  onView,
  onEdit,
  onSubmit,
  onDelete,
}: {
  template: TTemplate;
  isSubmitting: boolean;
  onView: () => void;
  onEdit: () => void;
  onSubmit: () => void;
  onDelete: () => void;
}) {
  const actions = templateActions(template.status, template.category);
  const category = TEMPLATE_CATEGORY_LABELS[template.category as TemplateCategory] ?? template.category;
  return (
    <Card data-testid="template-card">
      <CardContent className="flex flex-col gap-4 p-5">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="flex min-w-0 flex-col gap-1.5">
            <h3 className="font-mono text-base font-semibold break-all text-slate-900 dark:text-white">{template.name}</h3>
            <div className="flex flex-wrap items-center gap-2">
              <TemplateStatusBadge template={template} />
              <Badge variant="outline">{category}</Badge>
              {template.importedAt ? <Badge variant="outline">{messages.templateSync.importedBadge}</Badge> : null}
              {template.qualityRating ? <QualityBadge value={template.qualityRating} /> : null}
            </div>
            <MetaReviewNote template={template} />
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={onView}>
              <Eye aria-hidden="true" />
              View<span className="sr-only"> {template.name}</span>
            </Button>
            {actions.edit ? (
              <Button variant="outline" size="sm" onClick={onEdit}>
                <Pencil aria-hidden="true" />
                Edit<span className="sr-only"> {template.name}</span>
              </Button>
            ) : null}
            {actions.submit ? (
              <Button size="sm" onClick={onSubmit} disabled={isSubmitting}>
                {isSubmitting ? <Spinner className="text-current" /> : <Send aria-hidden="true" />}
                Submit<span className="sr-only"> {template.name}</span>
              </Button>
            ) : null}
            <Button
              variant="ghost"
              size="sm"
              onClick={onDelete}
              className="text-red-600 hover:bg-red-50 hover:text-red-700 dark:text-red-400 dark:hover:bg-red-500/10"
            >
              <Trash2 aria-hidden="true" />
              Delete<span className="sr-only"> {template.name}</span>
            </Button>
          </div>
        </div>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <Meta label="Category">{category}</Meta>
          <Meta label="Language">{templateLanguageName(template.language)}</Meta>
          <Meta label="Quality">{qualityLabel(template.qualityRating)}</Meta>
          <Meta label="Created">{formatTemplateDate(template.createdAt)}</Meta>
        </dl>
        <TemplateStatusDetails template={template} />
        {template.status === 'REJECTED' && template.rejectionReason ? (
          <Alert tone="error">
            <span className="font-medium">Rejection reason: </span>
            <span className="break-words">{template.rejectionReason}</span>
          </Alert>
        ) : null}
      </CardContent>
    </Card>
  );
}

function EmptyState({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300">
          <FileText className="size-6" aria-hidden="true" />
        </span>
        {filtered ? (
          <>
            <h2 className="text-lg font-semibold">No templates match these filters</h2>
            <Button variant="outline" onClick={onClear}>
              Clear filters
            </Button>
          </>
        ) : (
          <>
            <h2 className="text-lg font-semibold">No templates yet</h2>
            <p className="max-w-sm text-sm text-slate-500 dark:text-slate-400">
              Create a template, submit it for review, and send it once it is approved.
            </p>
            <Button asChild>
              <Link to="/user/templates/create">
                <Plus aria-hidden="true" />
                Create Template
              </Link>
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function LoadingList() {
  return (
    <div className="flex flex-col gap-3" aria-busy="true">
      <Spinner label="Loading templates" />
      {[0, 1, 2].map((row) => (
        <div key={row} className="h-32 animate-pulse rounded-xl bg-slate-200/70 dark:bg-slate-800/70" />
      ))}
    </div>
  );
}

/** /user/templates (spec 002 "Template list"). */
export function TemplatesPage() {
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const query = listQueryFromSearch(searchParams);
  const list = useTemplateList(query);
  const submitTemplate = useSubmitTemplate();
  const deleteTemplate = useDeleteTemplate();
  const syncTemplates = useSyncTemplates();

  const [actionError, setActionError] = useState('');
  /** The failed load the user dismissed, by when it failed: a later failure shows again. */
  const [dismissedLoadError, setDismissedLoadError] = useState(0);
  const [viewing, setViewing] = useState<TTemplate | null>(null);
  const [pendingDelete, setPendingDelete] = useState<PendingDelete | null>(null);

  const templates = list.data?.data ?? [];
  const pagination = list.data?.pagination;
  const loadError = list.isError && list.errorUpdatedAt !== dismissedLoadError ? errorText(list.error, t.fetchFailed) : '';

  const setQuery = (next: TemplateListQuery) => setSearchParams(searchFromListQuery(next));

  const handleEdit = (template: TTemplate) => navigate(`/user/templates/${template.id}/edit`);

  const handleSubmit = async (template: TTemplate) => {
    setActionError('');
    try {
      const response = await submitTemplate.mutateAsync(template.id);
      toast.success(response.message || t.submitted);
    } catch (caught) {
      setActionError(errorText(caught, t.submitFailed));
    }
  };

  const handleConfirmDelete = async () => {
    if (!pendingDelete) return;
    setActionError('');
    try {
      const response = await deleteTemplate.mutateAsync(pendingDelete.id);
      toast.success(response.message || t.deleted);
      const page = pageAfterDelete(query.page, templates.length);
      if (page !== query.page) setQuery({ ...query, page });
    } catch (caught) {
      setActionError(errorText(caught, t.deleteFailed));
    } finally {
      setPendingDelete(null);
    }
  };

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <Filters query={query} onChange={setQuery} />
        <div className="flex gap-2">
          <Button variant="outline" onClick={() => void list.refetch()} disabled={list.isFetching}>
            <RefreshCw className={cn(list.isFetching && 'animate-spin')} aria-hidden="true" />
            Refresh
          </Button>
          <SyncFromMetaButton sync={() => syncTemplates.mutateAsync()} isPending={syncTemplates.isPending} />
          <Button asChild>
            <Link to="/user/templates/create">
              <Plus aria-hidden="true" />
              Create Template
            </Link>
          </Button>
        </div>
      </div>

      {loadError ? <DismissibleError message={loadError} onDismiss={() => setDismissedLoadError(list.errorUpdatedAt)} /> : null}
      {actionError ? <DismissibleError message={actionError} onDismiss={() => setActionError('')} /> : null}

      {list.isPending ? (
        <LoadingList />
      ) : templates.length === 0 ? (
        list.isError ? (
          <Card>
            <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
              <p className="text-sm text-slate-500 dark:text-slate-400">The templates could not be loaded.</p>
              <Button variant="outline" onClick={() => void list.refetch()} disabled={list.isFetching}>
                <RefreshCw aria-hidden="true" />
                Try again
              </Button>
            </CardContent>
          </Card>
        ) : (
          <EmptyState filtered={hasFilters(query)} onClear={() => setQuery({ page: 1, status: 'all', category: 'all' })} />
        )
      ) : (
        <ul className={cn('flex flex-col gap-3', list.isPlaceholderData && 'opacity-60')} aria-label="Templates" aria-busy={list.isFetching}>
          {templates.map((template, index) => {
            const label = templateLabel(template);
            return (
              <li key={typeof template.id === 'number' ? template.id : `row-${index}`}>
                <TemplateCardBoundary label={label} onDelete={() => setPendingDelete({ id: template.id, label, atMeta: template.status !== 'DRAFT' })}>
                  <TemplateCard
                    template={template}
                    isSubmitting={submitTemplate.isPending && submitTemplate.variables === template.id}
                    onView={() => setViewing(template)}
                    onEdit={() => handleEdit(template)}
                    onSubmit={() => void handleSubmit(template)}
                    onDelete={() => setPendingDelete({ id: template.id, label, atMeta: template.status !== 'DRAFT' })}
                  />
                </TemplateCardBoundary>
              </li>
            );
          })}
        </ul>
      )}

      {pagination && templates.length > 0 ? (
        <nav aria-label="Template pages" className="flex flex-col items-center justify-between gap-3 sm:flex-row">
          <p className="text-sm text-slate-500 dark:text-slate-400">
            {pageRangeText(pagination.currentPage, templates.length, pagination.totalTemplates, TEMPLATE_PAGE_SIZE)}
          </p>
          <div className="flex items-center gap-3">
            <Button
              variant="outline"
              size="sm"
              disabled={!pagination.hasPrev || list.isFetching}
              onClick={() => setQuery({ ...query, page: Math.max(1, pagination.currentPage - 1) })}
            >
              <ChevronLeft aria-hidden="true" />
              Previous
            </Button>
            <span className="text-sm font-medium tabular-nums" aria-live="polite">
              Page {pagination.currentPage} of {pagination.totalPages}
            </span>
            <Button
              variant="outline"
              size="sm"
              disabled={!pagination.hasNext || list.isFetching}
              onClick={() => setQuery({ ...query, page: pagination.currentPage + 1 })}
            >
              Next
              <ChevronRight aria-hidden="true" />
            </Button>
          </div>
        </nav>
      ) : null}

      <TemplateViewDialog template={viewing} onClose={() => setViewing(null)} onEdit={handleEdit} />

      <ConfirmDialog
        open={pendingDelete !== null}
        title={fillMessage(messages.templateSync.deleteConfirmTitle, { name: pendingDelete?.label ?? '' })}
        description={
          <>
            Are you sure you want to delete{' '}
            <strong className="font-mono break-all text-slate-900 dark:text-white">{pendingDelete?.label}</strong>?{' '}
            {pendingDelete?.atMeta ? messages.templateSync.deleteConfirmAtMeta : messages.templateSync.deleteConfirmLocal}
          </>
        }
        confirmLabel="Delete"
        busy={deleteTemplate.isPending}
        onConfirm={() => void handleConfirmDelete()}
        onClose={() => setPendingDelete(null)}
      />
    </div>
  );
}
