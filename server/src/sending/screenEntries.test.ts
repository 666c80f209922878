import { describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import { screenEntries } from './sendScreening';

describe('screenEntries', () => {
  it('keeps a second order to the same number and sets aside only a row repeating the number and every value', () => {
    const screened = screenEntries([
      { row: 1, raw: '9876543210', values: { '1': 'Asha', '2': 'ORD-1003' } },
      { row: 2, raw: '+91 98765 43210', values: { '1': 'Asha', '2': 'ORD-1004' } },
      { row: 3, raw: '919876543210', values: { '1': 'Asha', '2': 'ORD-1003' } },
      { row: 4, raw: '919876543211', values: { '1': 'Asha', '2': 'ORD-1003' } },
    ]);
    expect(screened.recipients.map((r) => [r.to, r.variables['2']])).toEqual([
      ['919876543210', 'ORD-1003'],
      ['919876543210', 'ORD-1004'],
      ['919876543211', 'ORD-1003'],
    ]);
    expect(screened.rows).toEqual([1, 2, 4]);
    expect(screened.inSendDuplicates).toBe(1);
    expect(screened.skipped).toEqual([{ row: 3, value: '919876543210', reason: 'duplicate_in_list', message: fillMessage(messages.sending.skipped.duplicate_in_list, { row: 1 }) }]);
  });

  it('sets aside a repeated number where every row shares one values object (a quick send)', () => {
    const values = { '1': 'Asha' };
    const screened = screenEntries([
      { row: 1, raw: '9876543210', values },
      { row: 2, raw: '919876543210', values },
    ]);
    expect(screened.recipients).toHaveLength(1);
    expect(screened.skipped.map((row) => [row.row, row.reason])).toEqual([[2, 'duplicate_in_list']]);
  });
});
