import type { TAudiencePreview, TContact, TContactAttributeList, TContactBulkResponse, TContactHistory, TContactsPage, TSegment, TSegmentCount } from '@shared/schemas/contacts';
import type { AttributeSummary, HistoryEntry } from '../contacts/directory';
import type { AudiencePreview } from '../sending/audienceSends';
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

export function presentAttributeList(attributes: readonly AttributeSummary[]): TContactAttributeList {
  return { data: attributes.map((a) => ({ name: a.name, type: a.type, contacts: a.contacts })) };
}

export function presentContactHistory(page: { entries: readonly HistoryEntry[]; nextCursor: string | null }): TContactHistory {
  return {
    data: page.entries.map((e) => ({
      kind: e.kind,
      at: e.at,
      campaign_id: e.campaignId,
      campaign_name: e.campaignName,
      template_name: e.templateName,
      status: e.status,
      text: e.text,
      error: e.error,
    })),
    has_more: page.nextCursor !== null,
    next_cursor: page.nextCursor,
  };
}

export function presentAudiencePreview(preview: AudiencePreview): TAudiencePreview {
  return {
    recipients: preview.recipients,
    opted_out: preview.optedOut,
    using_fallback: preview.usingFallback,
    category: preview.category,
    price_units: preview.quote.priceUnits,
    cost_units: preview.quote.costUnits,
    balance_units: preview.quote.balanceUnits,
    sufficient: preview.quote.sufficient,
    sample: preview.sample,
  };
}
