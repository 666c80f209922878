import { describe, expect, it } from 'vitest';
import { draftToFilter, EMPTY_DRAFT, filterToDraft } from './segmentBuilder';

describe('segment editor fields', () => {
  it('become the filter, leaving out conditions still being written', () => {
    const filter = draftToFilter({
      tagsAny: 'vip, pune',
      tagsAll: '',
      tagsNone: 'blocked',
      attributes: [
        { name: 'city', op: 'eq', value: ' Pune ' },
        { name: 'joined', op: 'empty', value: 'ignored' },
        { name: '', op: 'eq', value: 'x' },
        { name: 'orders', op: 'after', value: '' },
      ],
      activity: [
        { kind: 'replied_within_days', value: '30' },
        { kind: 'read_campaign', value: 'abc' },
        { kind: 'never_messaged', value: '' },
      ],
      optIn: 'yes',
    });
    expect(filter).toEqual({
      tags_any: ['vip', 'pune'],
      tags_none: ['blocked'],
      attributes: [
        { name: 'city', op: 'eq', value: 'Pune' },
        { name: 'joined', op: 'empty' },
      ],
      activity: [{ kind: 'replied_within_days', days: 30 }, { kind: 'never_messaged' }],
      opt_in: true,
    });
    expect(draftToFilter(EMPTY_DRAFT)).toEqual({});
  });

  it('come back from a saved filter', () => {
    const filter = { tags_all: ['a', 'b'], attributes: [{ name: 'orders', op: 'after' as const, value: 4 }], activity: [{ kind: 'failed_in_campaign' as const, campaign_id: 7 }], opt_in: false };
    expect(draftToFilter(filterToDraft(filter))).toEqual({ ...filter, attributes: [{ name: 'orders', op: 'after', value: '4' }] });
  });
});
