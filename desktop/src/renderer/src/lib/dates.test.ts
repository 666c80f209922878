import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDay } from './dates';

describe('date formatting', () => {
  it('shows a day in Indian English', () => {
    expect(formatDay('2025-03-05T10:00:00.000Z')).toBe('5 Mar 2025');
  });

  it('shows a dash for missing or unreadable dates', () => {
    expect(formatDay(null)).toBe('—');
    expect(formatDay('not a date')).toBe('—');
    expect(formatDateTime(undefined)).toBe('—');
  });

  it('includes the time when asked', () => {
    expect(formatDateTime('2025-03-05T10:00:00.000Z')).toMatch(/^5 Mar 2025, \d{1,2}:\d{2}/);
  });
});
