import { fillMessage, messages } from '@shared/messages';
import { templateStatusLabel } from '@shared/templates';
import type { TTemplate } from '@shared/types';
import { Badge } from '../ui/badge';
import { formatDateTime } from '../../lib/dates';
import { templateStatusTone } from '../../lib/templateReview';

type StatusFields = Pick<TTemplate, 'status' | 'inMetaReview' | 'metaSubmittedAt' | 'metaSubmitError'>;

/**
 * A template's status badge. After the administrator's approval a template stays PENDING while
 * Meta reviews it: it shows as "In review at Meta" instead of the spec's "Pending".
 */
export function TemplateStatusBadge({ template }: { template: StatusFields }) {
  if (template.inMetaReview) return <Badge variant="info">{messages.templates.inReviewAtMeta}</Badge>;
  return <Badge variant={templateStatusTone(template.status)}>{templateStatusLabel(template.status)}</Badge>;
}

/**
 * Where Meta's review stands, in a line: since when Meta has it, or why it has not reached Meta
 * yet (it is sent again). Nothing for a template not in review at Meta.
 */
export function MetaReviewNote({ template, className }: { template: StatusFields; className?: string }) {
  if (!template.inMetaReview) return null;
  const text = template.metaSubmittedAt
    ? fillMessage(messages.templates.inReviewAtMetaSince, { time: formatDateTime(template.metaSubmittedAt) })
    : template.metaSubmitError
      ? fillMessage(messages.templates.awaitingMetaSubmission, { reason: template.metaSubmitError })
      : messages.templates.inReviewAtMeta;
  return (
    <p className={className ?? 'text-xs text-slate-600 dark:text-slate-300'} data-testid="meta-review-note">
      {text}
    </p>
  );
}
