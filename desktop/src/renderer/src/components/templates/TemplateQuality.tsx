/**
 * Meta's view of a template: its quality rating (GREEN, YELLOW, RED, UNKNOWN) as a badge, and its
 * status with the date it took it, Meta's last event and a pause's title and description.
 */
import { fillMessage, messages } from '@shared/messages';
import { templateStatusLabel } from '@shared/templates';
import type { TTemplate } from '@shared/types';
import { formatTemplateDate } from '../../lib/templateList';
import { Alert } from '../ui/alert';
import { Badge, type BadgeProps } from '../ui/badge';

const m = messages.templateQuality;

type QualityRating = 'GREEN' | 'YELLOW' | 'RED' | 'UNKNOWN';
const RATINGS: ReadonlySet<string> = new Set(['GREEN', 'YELLOW', 'RED', 'UNKNOWN']);
const TONES: Record<QualityRating, BadgeProps['variant']> = { GREEN: 'default', YELLOW: 'warning', RED: 'destructive', UNKNOWN: 'secondary' };

function rating(value: string | null | undefined): QualityRating | null {
  const upper = value?.trim().toUpperCase() ?? '';
  return RATINGS.has(upper) ? (upper as QualityRating) : null;
}

/** "High", "Medium", "Low", "Unknown", or "Not rated yet" before Meta rated it. */
export function qualityText(value: string | null | undefined): string {
  const known = rating(value);
  return known ? m[known] : m.none;
}

/** The rating as a coloured badge that also reads as text ("Quality High"). */
export function QualityBadge({ value, className }: { value: string | null | undefined; className?: string }) {
  const known = rating(value);
  return (
    <Badge variant={known ? TONES[known] : 'outline'} className={className} data-testid="template-quality">
      {known ? fillMessage(m.rated, { quality: m[known] }) : m.none}
    </Badge>
  );
}

/**
 * When the template took its status: Meta's event time for a status Meta set, else the review's
 * or the submission's; and a pause's own words from Meta.
 */
export function TemplateStatusDetails({ template }: { template: TTemplate }) {
  const since = template.metaStatusAt ?? template.reviewedAt ?? template.submittedAt ?? null;
  const metaShown = template.metaStatus && template.metaStatusAt && template.metaStatus !== template.status;
  return (
    <div className="flex flex-col gap-2 text-xs text-slate-600 dark:text-slate-400">
      {since ? <p>{fillMessage(m.statusSince, { status: templateStatusLabel(template.status), date: formatTemplateDate(since) })}</p> : null}
      {metaShown ? <p>{fillMessage(m.metaStatus, { status: template.metaStatus ?? '', date: formatTemplateDate(template.metaStatusAt) })}</p> : null}
      {template.status === 'PAUSED' && (template.pauseTitle || template.pauseDescription) ? (
        <Alert tone="warning">
          <span>
            {template.pauseTitle ? <span className="font-medium">{fillMessage(m.pausedByMeta, { title: template.pauseTitle })}. </span> : null}
            {template.pauseDescription ? <span className="break-words">{template.pauseDescription}</span> : null}
          </span>
        </Alert>
      ) : null}
    </div>
  );
}
