import type { TSegmentActivity, TSegmentAttributeOp, TSegmentFilter } from '@shared/schemas/contacts';
import { splitTags } from './contactImport';

export interface AttributeConditionDraft {
  name: string;
  op: TSegmentAttributeOp;
  value: string;
}

export type ActivityKind = TSegmentActivity['kind'];

export interface ActivityDraft {
  kind: ActivityKind;
  /** Days for `replied_within_days`, a campaign id for the campaign kinds, as typed. */
  value: string;
}

/** The segment editor's fields as typed. */
export interface SegmentDraft {
  tagsAny: string;
  tagsAll: string;
  tagsNone: string;
  attributes: AttributeConditionDraft[];
  activity: ActivityDraft[];
  optIn: '' | 'yes' | 'no';
}

export const EMPTY_DRAFT: SegmentDraft = { tagsAny: '', tagsAll: '', tagsNone: '', attributes: [], activity: [], optIn: '' };

/**
 * The editor's fields as the filter the server counts and saves. Conditions still being written
 * (no attribute chosen, no value, no whole number) are left out, so the count follows what is
 * complete. Values go as typed: the server compares a number attribute as a number.
 */
export function draftToFilter(draft: SegmentDraft): TSegmentFilter {
  const filter: TSegmentFilter = {};
  const any = splitTags(draft.tagsAny);
  const all = splitTags(draft.tagsAll);
  const none = splitTags(draft.tagsNone);
  if (any.length > 0) filter.tags_any = any;
  if (all.length > 0) filter.tags_all = all;
  if (none.length > 0) filter.tags_none = none;
  const attributes = draft.attributes
    .filter((c) => c.name !== '' && (c.op === 'empty' || c.value.trim() !== ''))
    .map((c) => (c.op === 'empty' ? { name: c.name, op: c.op } : { name: c.name, op: c.op, value: c.value.trim() }));
  if (attributes.length > 0) filter.attributes = attributes;
  const activity: TSegmentActivity[] = [];
  for (const a of draft.activity) {
    const n = Number(a.value);
    if (a.kind === 'never_messaged') activity.push({ kind: a.kind });
    else if (Number.isInteger(n) && n > 0) activity.push(a.kind === 'replied_within_days' ? { kind: a.kind, days: n } : { kind: a.kind, campaign_id: n });
  }
  if (activity.length > 0) filter.activity = activity;
  if (draft.optIn !== '') filter.opt_in = draft.optIn === 'yes';
  return filter;
}

/** A saved filter back in the editor's fields. */
export function filterToDraft(filter: TSegmentFilter): SegmentDraft {
  return {
    tagsAny: (filter.tags_any ?? []).join(', '),
    tagsAll: (filter.tags_all ?? []).join(', '),
    tagsNone: (filter.tags_none ?? []).join(', '),
    attributes: (filter.attributes ?? []).map((c) => ({ name: c.name, op: c.op, value: c.value === undefined ? '' : String(c.value) })),
    activity: (filter.activity ?? []).map((a) => ({
      kind: a.kind,
      value: a.kind === 'replied_within_days' ? String(a.days) : a.kind === 'never_messaged' ? '' : String(a.campaign_id),
    })),
    optIn: filter.opt_in === undefined ? '' : filter.opt_in ? 'yes' : 'no',
  };
}
