import { describe, expect, it } from 'vitest';
import { INDEXED_REPORT_STATUS_EXPRESSION } from '../db/migrations/20261125140100_count_unknown_as_pending_in_report_index';
import { filterSql, numberedPlaceholders, REPORT_STATUS_SQL, type ReportFilter } from './sql';
import { REPORT_STATUS_EXPRESSION } from './status';

const none: ReportFilter = { userId: 7, createdFrom: null, createdBefore: null, recipientContains: null, template: null, status: null };

describe('reports SQL', () => {
  it('qualifies the status index expression without changing it otherwise', () => {
    expect(REPORT_STATUS_SQL).toBe("case when m.status in ('queued', 'sending', 'unknown') then 'pending' when m.status = 'suppressed' then 'failed' else m.status end");
  });

  it('filters on the very expression the report status index was built on', () => {
    expect(REPORT_STATUS_EXPRESSION).toBe(INDEXED_REPORT_STATUS_EXPRESSION);
  });

  it('hides the recipient and campaign columns from SQLite unless their index is the one to read', () => {
    const filter = { ...none, recipientContains: '999', template: 'promo' };
    expect(filterSql(filter, 'ordered', 'sqlite')).toEqual({
      sql: 'm.user_id = ? and instr(+m.recipient, ?) > 0 and +m.campaign_id in (select tc.id from campaigns tc where tc.user_id = ? and tc.template_name = ?)',
      params: [7, '999', 7, 'promo'],
    });
    expect(filterSql({ ...none, recipientContains: '91' }, 'recipient', 'sqlite').sql).toBe('m.user_id = ? and instr(m.recipient, ?) > 0');
    expect(filterSql({ ...none, recipientContains: '91' }, 'recipient', 'pg')).toEqual({ sql: 'm.user_id = ? and m.recipient like ?', params: [7, '%91%'] });
    // Digits reach it; a wildcard would be taken literally all the same.
    expect(filterSql({ ...none, recipientContains: '9_1%' }, 'recipient', 'pg').params).toEqual([7, '%9\\_1\\%%']);
    expect(filterSql(filter, 'ordered', 'pg').sql).not.toContain('+m.');
  });

  it("seeks the numbers a rare recipient filter matched instead of testing every number again", () => {
    const filter = { ...none, recipientContains: '98', recipientNumbers: ['919800000001', '919811100098'] };
    expect(filterSql(filter, 'recipient', 'sqlite')).toEqual({ sql: 'm.user_id = ? and m.recipient in (select value from json_each(?))', params: [7, '["919800000001","919811100098"]'] });
    expect(filterSql(filter, 'campaign', 'sqlite').sql).toBe('m.user_id = ? and +m.recipient in (select value from json_each(?))');
    expect(filterSql(filter, 'recipient', 'pg')).toEqual({ sql: 'm.user_id = ? and m.recipient = any(cast(? as text[]))', params: [7, ['919800000001', '919811100098']] });
  });

  it('numbers placeholders for PostgreSQL', () => {
    expect(numberedPlaceholders('a = ? and (b, c) < (?, ?) limit ?')).toBe('a = $1 and (b, c) < ($2, $3) limit $4');
  });
});
