import type { ReactNode } from 'react';
import { messages } from '@shared/messages';
import { TEMPLATE_CATEGORY_LABELS, variableKeyLabel } from '@shared/templates';
import type { TTemplate } from '@shared/types';
import { useProtectedMediaUrl } from '../../hooks/useProtectedMediaUrl';
import { formatDateTime } from '../../lib/dates';
import { templatePreview } from '../../lib/templatePreview';
import { canReview, templateLanguageName, type ReviewDecision } from '../../lib/templateReview';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { MessagePreview } from '../templates/MessagePreview';
import { TemplateStatusBadge } from '../templates/TemplateStatus';

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-1.5 text-sm">
      <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="min-w-0 text-right break-words">{children}</dd>
    </div>
  );
}

/** The message as it will arrive, with the stored header file fetched for the admin. */
function Bubble({ template }: { template: TTemplate }) {
  const preview = templatePreview(template);
  const mediaUrl = preview.header?.kind === 'media' && preview.header.format !== 'DOCUMENT' ? preview.header.url : null;
  const media = useProtectedMediaUrl(mediaUrl);
  return <MessagePreview preview={preview} media={{ src: media.src, isLoading: media.isLoading }} />;
}

/**
 * What a reviewer needs besides the bubble: where the buttons lead and which example stands in
 * for each variable, since neither shows in the message itself.
 */
function ReviewDetails({ template }: { template: TTemplate }) {
  const targets = templatePreview(template).buttons.filter((button) => button.target);
  return (
    <dl className="divide-y divide-slate-100 dark:divide-slate-800">
      <Detail label="Category">{TEMPLATE_CATEGORY_LABELS[template.category]}</Detail>
      <Detail label="Language">
        {templateLanguageName(template.language)} <span className="text-slate-500 dark:text-slate-400">({template.language})</span>
      </Detail>
      <Detail label="Created">{formatDateTime(template.createdAt)}</Detail>
      {template.submittedAt ? <Detail label="Submitted">{formatDateTime(template.submittedAt)}</Detail> : null}
      {template.metaSubmittedAt ? <Detail label={messages.templates.submittedToMetaLabel}>{formatDateTime(template.metaSubmittedAt)}</Detail> : null}
      {template.inMetaReview && template.metaSubmitError ? <Detail label={messages.templates.notYetAtMetaLabel}>{template.metaSubmitError}</Detail> : null}
      {template.variables.map((variable) => (
        <Detail key={variable} label={`Example for ${variableKeyLabel(variable)}`}>
          {template.variableExamples[variable] || <span className="text-slate-500 dark:text-slate-400">none</span>}
        </Detail>
      ))}
      {targets.map((button, index) => (
        <Detail key={index} label={`${button.text} leads to`}>
          <span className="font-mono text-xs">{button.target}</span>
        </Detail>
      ))}
      {template.rejectionReason ? <Detail label="Rejection reason">{template.rejectionReason}</Detail> : null}
    </dl>
  );
}

/** Preview of one template; `template` null keeps it closed. */
export function TemplatePreviewDialog({
  template,
  onClose,
  onReview,
}: {
  template: TTemplate | null;
  onClose: () => void;
  /** Approve or reject from the preview, for a PENDING template. */
  onReview: (template: TTemplate, decision: ReviewDecision) => void;
}) {
  return (
    <Dialog open={template !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-xl">
        {template ? (
          <>
            <DialogHeader>
              <DialogTitle>Template Preview</DialogTitle>
              <DialogDescription className="flex flex-wrap items-center gap-2">
                <span className="font-mono text-slate-900 dark:text-white">{template.name}</span>
                <TemplateStatusBadge template={template} />
              </DialogDescription>
            </DialogHeader>
            <Bubble template={template} />
            <ReviewDetails template={template} />
            {canReview(template.status, template.inMetaReview) ? (
              <DialogFooter>
                <Button variant="destructive" onClick={() => onReview(template, 'REJECTED')}>
                  Reject
                </Button>
                <Button onClick={() => onReview(template, 'APPROVED')}>Approve</Button>
              </DialogFooter>
            ) : null}
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
