import { describe, expect, it } from 'vitest';
import { canReview, templateCategoryName, templateLanguageName, templateStatItems, templateStatusTone } from './templateReview';

describe('canReview', () => {
  it('offers approve and reject only on PENDING templates', () => {
    expect(canReview('PENDING')).toBe(true);
    for (const status of ['DRAFT', 'IN_REVIEW', 'APPROVED', 'ACTIVE', 'REJECTED', 'PAUSED', 'DISABLED', 'pending', '']) {
      expect(canReview(status)).toBe(false);
    }
  });

  it('offers nothing on a PENDING template the administrator approved, now in review at Meta', () => {
    expect(canReview('PENDING', true)).toBe(false);
  });
});

describe('templateStatusTone', () => {
  it('colours waiting, usable and refused statuses apart', () => {
    expect(templateStatusTone('PENDING')).toBe('warning');
    expect(templateStatusTone('APPROVED')).toBe('default');
    expect(templateStatusTone('ACTIVE')).toBe('default');
    expect(templateStatusTone('REJECTED')).toBe('destructive');
    expect(templateStatusTone('DRAFT')).toBe('secondary');
  });

  it('shows an unknown status plainly', () => {
    expect(templateStatusTone('SOMETHING_NEW')).toBe('outline');
  });
});

describe('templateStatItems', () => {
  it('lists total, pending approval, approved and rejected in that order', () => {
    expect(templateStatItems({ total: 1250, pending: 3, approved: 1200, rejected: 47 })).toEqual([
      { key: 'total', label: 'Total', value: '1,250' },
      { key: 'pending', label: 'Pending Approval', value: '3' },
      { key: 'approved', label: 'Approved', value: '1,200' },
      { key: 'rejected', label: 'Rejected', value: '47' },
    ]);
  });

  it('shows dashes until the stats arrive', () => {
    expect(templateStatItems(undefined).map((item) => item.value)).toEqual(['—', '—', '—', '—']);
  });
});

describe('templateLanguageName', () => {
  it('names the offered languages and passes others through', () => {
    expect(templateLanguageName('en_US')).toBe('English (US)');
    expect(templateLanguageName('hi_IN')).toBe('Hindi (India)');
    expect(templateLanguageName('ta')).toBe('Tamil');
    expect(templateLanguageName('ta_IN')).toBe('ta_IN');
  });
});

describe('templateCategoryName', () => {
  it('gives the category without its explanation, and an unknown one as it came', () => {
    expect(templateCategoryName('MARKETING')).toBe('Marketing');
    expect(templateCategoryName('UTILITY')).toBe('Utility');
    expect(templateCategoryName('AUTHENTICATION')).toBe('Authentication');
    expect(templateCategoryName('PROMOTION')).toBe('PROMOTION');
  });
});
