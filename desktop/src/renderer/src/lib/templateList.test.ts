import { describe, expect, it } from 'vitest';
import {
  formatTemplateDate,
  hasFilters,
  listQueryFromSearch,
  pageAfterDelete,
  pageRangeText,
  qualityLabel,
  searchFromListQuery,
  templateActions,
  templateLabel,
  withFilter,
} from './templateList';

describe('the list state in the address', () => {
  it('reads page and filters, and falls back to page 1 of everything', () => {
    expect(listQueryFromSearch(new URLSearchParams('page=3&status=draft&category=UTILITY'))).toEqual({ page: 3, status: 'DRAFT', category: 'UTILITY' });
    expect(listQueryFromSearch(new URLSearchParams('page=-1&status=NOPE&category='))).toEqual({ page: 1, status: 'all', category: 'all' });
    expect(listQueryFromSearch(new URLSearchParams('page=2.5'))).toEqual({ page: 1, status: 'all', category: 'all' });
  });

  it('writes only what differs from the defaults', () => {
    expect(searchFromListQuery({ page: 1, status: 'all', category: 'all' })).toEqual({});
    expect(searchFromListQuery({ page: 2, status: 'REJECTED', category: 'all' })).toEqual({ page: '2', status: 'REJECTED' });
  });

  it('goes back to page 1 when a filter changes', () => {
    const next = withFilter({ page: 4, status: 'all', category: 'all' }, 'category', 'MARKETING');
    expect(next).toEqual({ page: 1, status: 'all', category: 'MARKETING' });
    expect(hasFilters(next)).toBe(true);
    expect(hasFilters({ page: 4, status: 'all', category: 'all' })).toBe(false);
  });
});

describe('templateActions', () => {
  it('offers edit and submit only for drafts and rejected templates', () => {
    expect(templateActions('DRAFT')).toEqual({ edit: true, submit: true });
    expect(templateActions('REJECTED')).toEqual({ edit: true, submit: true });
    // The server refuses to edit an Authentication template: a rejected one offers resubmit only.
    expect(templateActions('REJECTED', 'AUTHENTICATION')).toEqual({ edit: false, submit: true });
    expect(templateActions('REJECTED', 'MARKETING')).toEqual({ edit: true, submit: true });
    for (const status of ['PENDING', 'APPROVED', 'ACTIVE', 'IN_REVIEW', 'PAUSED', 'DISABLED', 'APPEAL_REQUESTED', 'ODD']) {
      expect(templateActions(status)).toEqual({ edit: false, submit: false });
    }
  });
});

describe('pageAfterDelete', () => {
  it('steps back a page when its last template goes', () => {
    expect(pageAfterDelete(3, 1)).toBe(2);
    expect(pageAfterDelete(3, 5)).toBe(3);
    expect(pageAfterDelete(1, 1)).toBe(1);
  });
});

describe('display helpers', () => {
  it('shows dates in en-US short form', () => {
    // Local noon, so that the day is the same in every time zone the tests may run in.
    expect(formatTemplateDate(new Date(2025, 2, 5, 12).toISOString())).toBe('Mar 5, 2025');
    expect(formatTemplateDate('garbage')).toBe('—');
    expect(formatTemplateDate(null)).toBe('—');
  });

  it('names quality ratings', () => {
    expect(qualityLabel('GREEN')).toBe('High');
    expect(qualityLabel('medium')).toBe('Medium');
    expect(qualityLabel(null)).toBe('Not rated');
    expect(qualityLabel('PURPLE')).toBe('Unknown');
  });

  it('describes the rows on the page', () => {
    expect(pageRangeText(2, 20, 45, 20)).toBe('Showing 21-40 of 45');
    expect(pageRangeText(3, 5, 45, 20)).toBe('Showing 41-45 of 45');
    expect(pageRangeText(1, 0, 0, 20)).toBe('No templates');
  });

  it('labels a damaged template by its id', () => {
    expect(templateLabel({ id: 4, name: 'promo' })).toBe('promo');
    expect(templateLabel({ id: 4, name: null })).toBe('#4');
    expect(templateLabel({})).toBe('template');
  });
});
