import { CheckCircle2, Clock, FileText, XCircle, type LucideIcon } from 'lucide-react';
import { useState } from 'react';
import { messages } from '@shared/messages';
import { TEMPLATE_CATEGORY_LABELS } from '@shared/templates';
import type { TTemplate } from '@shared/types';
import { errorText } from '../../api/client';
import { AdminUserPage, type AdminUserView } from '../../components/admin/AdminUserPage';
import { ErrorCard } from '../../components/admin/ErrorCard';
import { ReviewTemplateDialog, type PendingReview } from '../../components/admin/ReviewTemplateDialog';
import { StatGrid, statTints, type Stat } from '../../components/admin/StatCards';
import { TemplatePreviewDialog } from '../../components/admin/TemplatePreviewDialog';
import { ReviewActionsCell, ReviewTableHead, ReviewTableLoadingRows } from '../../components/admin/TemplateReviewTable';
import { TruncatedName } from '../../components/admin/TruncatedName';
import { SyncFromMetaButton } from '../../components/templates/SyncFromMetaButton';
import { QualityBadge } from '../../components/templates/TemplateQuality';
import { useSyncUserTemplates, useUserTemplates } from '../../hooks/useAdminTemplates';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { formatDay } from '../../lib/dates';
import {
  templateCategoryName,
  templateLanguageName,
  templateStatItems,
  type ReviewDecision,
  type TemplateStatKey,
} from '../../lib/templateReview';
import { MetaReviewNote, TemplateStatusBadge } from '../../components/templates/TemplateStatus';

const t = messages.templates;

const statLooks: Record<TemplateStatKey, { icon: LucideIcon; tint: string }> = {
  total: { icon: FileText, tint: statTints.sky },
  pending: { icon: Clock, tint: statTints.amber },
  approved: { icon: CheckCircle2, tint: statTints.emerald },
  rejected: { icon: XCircle, tint: 'bg-red-100 text-red-700 dark:bg-red-500/15 dark:text-red-300' },
};

const columns = ['Name', 'Category', 'Language', 'Status', 'Quality', 'Created', 'Rejection Reason'] as const;

function TemplateRow({
  template,
  onPreview,
  onReview,
}: {
  template: TTemplate;
  onPreview: () => void;
  onReview: (decision: ReviewDecision) => void;
}) {
  // When it took its status: Meta's event, else the admin's review, else the submission.
  const statusSince = template.metaStatusAt ?? template.reviewedAt ?? template.submittedAt ?? null;
  return (
    <tr className="hover:bg-slate-50/60 dark:hover:bg-slate-800/30">
      <th scope="row" className="px-6 py-3 text-left font-normal">
        <TruncatedName name={template.name} className="font-mono font-medium text-slate-900 dark:text-white" />
      </th>
      <td className="px-4 py-3 text-slate-600 dark:text-slate-300" title={TEMPLATE_CATEGORY_LABELS[template.category]}>
        {templateCategoryName(template.category)}
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-600 dark:text-slate-300">
        {templateLanguageName(template.language)}
        <span className="block text-xs text-slate-500 dark:text-slate-400">{template.language}</span>
      </td>
      <td className="px-4 py-3">
        <TemplateStatusBadge template={template} />
        <MetaReviewNote template={template} className="mt-1 max-w-56 text-xs text-slate-500 dark:text-slate-400" />
        {template.importedAt ? <span className="block pt-1 text-xs text-slate-500 dark:text-slate-400">{messages.templateSync.importedBadge}</span> : null}
        {statusSince ? <span className="mt-1 block text-xs whitespace-nowrap text-slate-500 dark:text-slate-400">{formatDay(statusSince)}</span> : null}
        {template.status === 'PAUSED' && template.pauseTitle ? (
          <span className="mt-1 block text-xs text-amber-700 dark:text-amber-300" title={template.pauseDescription ?? undefined}>
            {template.pauseTitle}
          </span>
        ) : null}
      </td>
      <td className="px-4 py-3">
        <QualityBadge value={template.qualityRating} />
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-600 dark:text-slate-300">{formatDay(template.createdAt)}</td>
      <td className="max-w-72 min-w-40 px-4 py-3 text-slate-600 dark:text-slate-300">
        {/* Clamped to keep rows even; the whole reason is in the title and the preview. */}
        {template.rejectionReason ? (
          <p className="line-clamp-2 break-words" title={template.rejectionReason}>
            {template.rejectionReason}
          </p>
        ) : (
          '—'
        )}
      </td>
      <ReviewActionsCell name={template.name} status={template.status} inMetaReview={template.inMetaReview} onPreview={onPreview} onReview={onReview} />
    </tr>
  );
}

function UserTemplates({ user }: { user: AdminUserView }) {
  const query = useUserTemplates(user.id);
  const syncTemplates = useSyncUserTemplates(user.id);
  const [previewId, setPreviewId] = useState<number | null>(null);
  const [review, setReview] = useState<PendingReview | null>(null);
  const templates = query.data?.templates ?? [];
  // By id, so that the open preview shows the row as re-read after a decision.
  const previewed = templates.find((template) => template.id === previewId) ?? null;

  const stats: Stat[] = templateStatItems(query.data?.stats).map(({ key, label, value }) => ({ label, value, ...statLooks[key] }));

  if (query.error) {
    return (
      <ErrorCard
        title={t.loadUserTemplatesFailed}
        detail={errorText(query.error, t.loadUserTemplatesFailed)}
        onRetry={() => void query.refetch()}
        isRetrying={query.isFetching}
      />
    );
  }

  return (
    <>
      <StatGrid stats={stats} isLoading={query.isLoading} />
      <Card>
        <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="flex flex-col gap-1.5">
            <CardTitle>Templates of {user.name}</CardTitle>
            <CardDescription>
              @{user.username}. Approve or reject templates that are pending approval; an approved template can be used for
              sending at once.
            </CardDescription>
          </div>
          <SyncFromMetaButton sync={() => syncTemplates.mutateAsync()} isPending={syncTemplates.isPending} />
        </CardHeader>
        <CardContent className="p-0 pb-2">
          <div className="overflow-x-auto">
            <table className="w-full min-w-[60rem] text-left text-sm">
              <caption className="sr-only">Templates of {user.name}</caption>
              <ReviewTableHead columns={columns} />
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {query.isLoading
                  ? <ReviewTableLoadingRows columnCount={columns.length} />
                  : templates.map((template) => (
                      <TemplateRow
                        key={template.id}
                        template={template}
                        onPreview={() => setPreviewId(template.id)}
                        onReview={(decision) => setReview({ template, decision })}
                      />
                    ))}
                {!query.isLoading && templates.length === 0 ? (
                  <tr>
                    <td colSpan={columns.length + 1} className="px-6 py-10 text-center text-slate-500 dark:text-slate-400">
                      {user.name} has no templates yet.
                    </td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          </div>
        </CardContent>
      </Card>

      <TemplatePreviewDialog
        template={previewed}
        onClose={() => setPreviewId(null)}
        onReview={(template, decision) => {
          setPreviewId(null);
          setReview({ template, decision });
        }}
      />
      <ReviewTemplateDialog review={review} ownerName={user.name} onClose={() => setReview(null)} />
    </>
  );
}

/** /admin/users/:id/templates (spec 001 "Per-user templates"). */
export function AdminUserTemplatesPage() {
  return (
    <AdminUserPage title="Template Approval" description="Preview a user's templates and approve or reject those pending.">
      {(user) => <UserTemplates user={user} />}
    </AdminUserPage>
  );
}
