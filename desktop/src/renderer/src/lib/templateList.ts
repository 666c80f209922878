/** The owner's template list (spec 002 "Template list"): filters in the URL, per-status actions. */
import { EDITABLE_TEMPLATE_STATUSES, TEMPLATE_CATEGORIES, TEMPLATE_STATUSES } from '@shared/templates';
import type { TemplateListQuery } from '../api/templates';

export const STATUS_FILTERS = ['all', ...TEMPLATE_STATUSES] as const;
export const CATEGORY_FILTERS = ['all', ...TEMPLATE_CATEGORIES] as const;

function oneOf(value: string | null, options: readonly string[]): string {
  const upper = value?.toUpperCase() ?? '';
  return options.includes(upper) ? upper : 'all';
}

/**
 * The list's state lives in the address (?page=2&status=DRAFT&category=UTILITY), so that coming
 * back from the builder or reloading keeps the page and filters. Anything unreadable falls back
 * to the first page of everything.
 */
export function listQueryFromSearch(params: URLSearchParams): TemplateListQuery {
  const page = Number(params.get('page'));
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    status: oneOf(params.get('status'), TEMPLATE_STATUSES),
    category: oneOf(params.get('category'), TEMPLATE_CATEGORIES),
  };
}

/** The address for a list state; defaults are left out to keep it short. */
export function searchFromListQuery(query: TemplateListQuery): Record<string, string> {
  return {
    ...(query.page > 1 ? { page: String(query.page) } : {}),
    ...(query.status !== 'all' ? { status: query.status } : {}),
    ...(query.category !== 'all' ? { category: query.category } : {}),
  };
}

/** Changing a filter goes back to page 1 (spec 002 "Template list"). */
export function withFilter(query: TemplateListQuery, filter: 'status' | 'category', value: string): TemplateListQuery {
  return { ...query, [filter]: value, page: 1 };
}

export function hasFilters(query: TemplateListQuery): boolean {
  return query.status !== 'all' || query.category !== 'all';
}

/**
 * Spec 002 §4: edit and submit only for DRAFT and REJECTED; view and delete always. Authentication
 * templates are fixed by the platform (the server refuses their edit), so they never offer Edit.
 */
export function templateActions(status: string, category?: string): { edit: boolean; submit: boolean } {
  const editable = (EDITABLE_TEMPLATE_STATUSES as readonly string[]).includes(status);
  return { edit: editable && category !== 'AUTHENTICATION', submit: editable };
}

/** After deleting the only template on a page past the first, show the page before it. */
export function pageAfterDelete(page: number, templatesOnPage: number): number {
  return templatesOnPage <= 1 && page > 1 ? page - 1 : page;
}

const shortDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** Spec 002 §9: dates in en-US short form ("Mar 5, 2025"), a dash when unreadable. */
export function formatTemplateDate(value: string | null | undefined): string {
  const date = value ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? shortDate.format(date) : '—';
}

const QUALITY_LABELS: Record<string, string> = {
  GREEN: 'High',
  HIGH: 'High',
  YELLOW: 'Medium',
  MEDIUM: 'Medium',
  RED: 'Low',
  LOW: 'Low',
};

/** WhatsApp reports quality as GREEN/YELLOW/RED (or HIGH/MEDIUM/LOW); none until it has rated one. */
export function qualityLabel(rating: string | null | undefined): string {
  if (!rating?.trim()) return 'Not rated';
  return QUALITY_LABELS[rating.trim().toUpperCase()] ?? 'Unknown';
}

/** "Showing 21-40 of 45" under the list. */
export function pageRangeText(page: number, onPage: number, total: number, pageSize: number): string {
  if (total === 0 || onPage === 0) return 'No templates';
  const first = (page - 1) * pageSize + 1;
  return `Showing ${first}-${first + onPage - 1} of ${total}`;
}

/** A name to show for a template whose data may be damaged: its name, else its id. */
export function templateLabel(template: { name?: unknown; id?: unknown }): string {
  if (typeof template.name === 'string' && template.name.trim()) return template.name;
  return typeof template.id === 'number' || typeof template.id === 'string' ? `#${template.id}` : 'template';
}
