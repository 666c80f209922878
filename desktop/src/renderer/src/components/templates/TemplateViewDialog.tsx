import { Pencil } from 'lucide-react';
import type { ReactNode } from 'react';
import { messages } from '@shared/messages';
import { TEMPLATE_CATEGORY_LABELS } from '@shared/templates';
import type { TTemplate } from '@shared/types';
import { useProtectedMediaUrl } from '../../hooks/useProtectedMediaUrl';
import { formatDateTime } from '../../lib/dates';
import { formatTemplateDate, qualityLabel, templateActions } from '../../lib/templateList';
import { templatePreview } from '../../lib/templatePreview';
import { templateLanguageName } from '../../lib/templateReview';
import { Button } from '../ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { MessagePreview } from './MessagePreview';
import { TemplateStatusBadge } from './TemplateStatus';
import { QualityBadge, TemplateStatusDetails } from './TemplateQuality';

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-1.5 text-sm">
      <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="min-w-0 text-right break-words">{children}</dd>
    </div>
  );
}

function ViewBody({ template, onEdit }: { template: TTemplate; onEdit: (template: TTemplate) => void }) {
  const preview = templatePreview(template);
  const mediaUrl = preview.header?.kind === 'media' && preview.header.format !== 'DOCUMENT' ? preview.header.url : null;
  const media = useProtectedMediaUrl(mediaUrl);
  const variables = Array.isArray(template.variables) ? template.variables : [];
  return (
    <>
      <DialogHeader>
        <DialogTitle className="font-mono break-all">{template.name}</DialogTitle>
        <DialogDescription className="flex flex-wrap items-center gap-2">
          <TemplateStatusBadge template={template} />
          <span>{TEMPLATE_CATEGORY_LABELS[template.category] ?? template.category}</span>
          <QualityBadge value={template.qualityRating} />
        </DialogDescription>
      </DialogHeader>
      <TemplateStatusDetails template={template} />
      <MessagePreview preview={preview} media={{ src: media.src, isLoading: media.isLoading }} />
      <dl className="divide-y divide-slate-100 dark:divide-slate-800">
        <Detail label="Language">
          {templateLanguageName(template.language)} <span className="text-slate-500 dark:text-slate-400">({template.language})</span>
        </Detail>
        <Detail label="Quality rating">{qualityLabel(template.qualityRating)}</Detail>
        <Detail label="Created">{formatTemplateDate(template.createdAt)}</Detail>
        {template.submittedAt ? <Detail label="Submitted">{formatTemplateDate(template.submittedAt)}</Detail> : null}
        {template.metaSubmittedAt ? <Detail label={messages.templates.submittedToMetaLabel}>{formatDateTime(template.metaSubmittedAt)}</Detail> : null}
        {template.inMetaReview && template.metaSubmitError ? <Detail label={messages.templates.notYetAtMetaLabel}>{template.metaSubmitError}</Detail> : null}
        {template.reviewedAt ? <Detail label="Reviewed">{formatTemplateDate(template.reviewedAt)}</Detail> : null}
        {template.qualityUpdatedAt ? <Detail label="Quality rated">{formatTemplateDate(template.qualityUpdatedAt)}</Detail> : null}
        {variables.map((variable) => (
          <Detail key={variable} label={`Example for {{${variable}}}`}>
            {template.variableExamples?.[variable] || <span className="text-slate-500 dark:text-slate-400">none</span>}
          </Detail>
        ))}
        {template.rejectionReason ? <Detail label="Rejection reason">{template.rejectionReason}</Detail> : null}
      </dl>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Close</Button>
        </DialogClose>
        {templateActions(template.status, template.category).edit ? (
          <Button onClick={() => onEdit(template)}>
            <Pencil aria-hidden="true" />
            Edit Template
          </Button>
        ) : null}
      </DialogFooter>
    </>
  );
}

/** View of one of the owner's templates; `template` null keeps it closed. */
export function TemplateViewDialog({
  template,
  onClose,
  onEdit,
}: {
  template: TTemplate | null;
  onClose: () => void;
  onEdit: (template: TTemplate) => void;
}) {
  return (
    <Dialog open={template !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-xl">{template ? <ViewBody template={template} onEdit={onEdit} /> : null}</DialogContent>
    </Dialog>
  );
}
