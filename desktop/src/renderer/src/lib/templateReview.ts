import { formatIndianNumber } from '@shared/money';
import { TEMPLATE_CATEGORY_LABELS, TEMPLATE_LANGUAGES, TEMPLATE_STATUSES, type TemplateCategory, type TemplateStatus } from '@shared/templates';
import type { TTemplateStats } from '@shared/types';

/** Spec 001 §4: the admin's decisions, offered only while a template is PENDING; and disabling one in use. */
export type ReviewDecision = 'APPROVED' | 'REJECTED' | 'DISABLED';

/** An administrator may take a template out of use while it is usable or held by Meta. */
export function canDisable(status: string): boolean {
  return status === 'APPROVED' || status === 'ACTIVE' || status === 'PAUSED' || status === 'APPEAL_REQUESTED';
}

export function canReview(status: string, inMetaReview = false): boolean {
  // Approved by the administrator already and in review at Meta: our half of the review is done.
  return status === 'PENDING' && !inMetaReview;
}

export type StatusTone = 'default' | 'secondary' | 'outline' | 'warning' | 'destructive' | 'info';

const statusTones: Record<TemplateStatus, StatusTone> = {
  DRAFT: 'secondary',
  IN_REVIEW: 'warning',
  PENDING: 'warning',
  APPROVED: 'default',
  ACTIVE: 'default',
  REJECTED: 'destructive',
  PAUSED: 'info',
  DISABLED: 'destructive',
  APPEAL_REQUESTED: 'info',
};

/** The badge colour of a status: waiting amber, usable green, refused red, unknown plain. */
export function templateStatusTone(status: string): StatusTone {
  return (TEMPLATE_STATUSES as readonly string[]).includes(status) ? statusTones[status as TemplateStatus] : 'outline';
}

export type TemplateStatKey = keyof TTemplateStats;

const statLabels: ReadonlyArray<{ key: TemplateStatKey; label: string }> = [
  { key: 'total', label: 'Total' },
  { key: 'pending', label: 'Pending Approval' },
  { key: 'approved', label: 'Approved' },
  { key: 'rejected', label: 'Rejected' },
];

/** The four figures of spec 001 "Per-user templates"; a dash until the stats arrive. */
export function templateStatItems(stats: TTemplateStats | undefined): { key: TemplateStatKey; label: string; value: string }[] {
  return statLabels.map(({ key, label }) => ({ key, label, value: stats ? formatIndianNumber(stats[key]) : '—' }));
}

/** "English (US)" for en_US; a code the builder does not offer shows as it is. */
export function templateLanguageName(code: string): string {
  return TEMPLATE_LANGUAGES.find((language) => language.code === code)?.name ?? code;
}

/** "Marketing" for MARKETING: the catalogue label without its explanation, for narrow columns. */
export function templateCategoryName(category: string): string {
  const label = (TEMPLATE_CATEGORY_LABELS as Record<string, string | undefined>)[category as TemplateCategory];
  return label ? label.replace(/\s*\(.*\)$/, '') : category;
}
