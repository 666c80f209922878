import type { TContact, TContactBulkResponse, TContactsPage, TSegment, TSegmentCount } from '@shared/schemas/contacts';
import type { BulkResult, ContactPage, ContactRecord } from '../contacts/service';
import type { SegmentRecord } from '../contacts/segments';

export function presentContact(contact: ContactRecord): TContact {
  return {
    phone: contact.phone,
    name: contact.name,
    attributes: contact.attributes,
    tags: contact.tags,
    opt_in: contact.optIn,
    opted_out: contact.optedOutAt !== null,
    opted_out_at: contact.optedOutAt,
    counts: contact.counts,
    last_message_at: contact.lastMessageAt,
    created_at: contact.createdAt,
    updated_at: contact.updatedAt,
  };
}

export function presentContactsPage(page: ContactPage): TContactsPage {
  return { data: page.rows.map(presentContact), has_more: page.nextCursor !== null, next_cursor: page.nextCursor };
}

export function presentContactBulk(result: BulkResult): TContactBulkResponse {
  return { created: result.created, updated: result.updated, skipped: result.skipped, invalid: result.invalid };
}

export function presentSegment(segment: SegmentRecord): TSegment {
  return { id: segment.id, name: segment.name, filter: segment.filter, created_at: segment.createdAt, updated_at: segment.updatedAt };
}

export function presentSegmentCount(count: { count: number; optedOut: number }): TSegmentCount {
  return { count: count.count, opted_out: count.optedOut };
}
