import { z } from 'zod';
import { CONTACTS } from '../constants';
import { fillMessage, messages } from '../messages';
import { jsonField, ZDryRun, ZScheduleTime } from './sending';

/** The contact book (contacts, their attributes, tags and opt-in) and segments of it. */

const c = messages.contacts;

export const CONTACT_ATTRIBUTE_TYPES = ['text', 'number', 'date'] as const;
export type TContactAttributeType = (typeof CONTACT_ATTRIBUTE_TYPES)[number];

export const ATTRIBUTE_NAME_PATTERN = new RegExp(`^[A-Za-z][A-Za-z0-9_]{0,${CONTACTS.attributeNameMaxLength - 1}}$`);
/** How a date attribute is written and stored (it then sorts as text). */
export const ATTRIBUTE_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The contact attribute a spreadsheet column is remembered as: its header in lower case, each run
 * of other characters one underscore, starting with a letter, at most the attribute name's length.
 */
export function attributeNameOfColumn(column: string): string {
  const base = column.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  const named = /^[a-z]/.test(base) ? base : `col_${base}`.replace(/_+$/, '');
  return named.slice(0, CONTACTS.attributeNameMaxLength);
}

const attributeNameInvalid = fillMessage(c.attributeNameInvalid, { max: CONTACTS.attributeNameMaxLength });
const ZAttributeName = z.string().regex(ATTRIBUTE_NAME_PATTERN, { error: attributeNameInvalid });
const ZAttributeValue = z.union([
  z.string().max(CONTACTS.attributeValueMaxLength, { error: fillMessage(c.attributeValueTooLong, { max: CONTACTS.attributeValueMaxLength }) }),
  z.number().finite(),
]);
const tagInvalid = fillMessage(c.tagInvalid, { max: CONTACTS.tagMaxLength });
const ZTag = z.string({ error: tagInvalid }).trim().min(1, { error: tagInvalid }).max(CONTACTS.tagMaxLength, { error: tagInvalid });

export const ZOptInInput = z.object({
  source: z.string({ error: c.optInSourceRequired }).trim().min(1, { error: c.optInSourceRequired }).max(CONTACTS.optInSourceMaxLength),
  /** When the customer opted in; the time of the call when left out. */
  at: z.iso.datetime({ offset: true }).optional(),
  evidence: z
    .string()
    .max(CONTACTS.optInEvidenceMaxLength, { error: fillMessage(c.optInEvidenceTooLong, { max: CONTACTS.optInEvidenceMaxLength }) })
    .optional(),
});
export type TOptInInput = z.infer<typeof ZOptInInput>;

const ZContactName = z
  .string()
  .trim()
  .max(CONTACTS.nameMaxLength, { error: fillMessage(c.nameTooLong, { max: CONTACTS.nameMaxLength }) });

/** One contact as `POST /api/contacts` and each entry of the bulk call take it. */
export const ZContactInput = z
  .object({
    phone: z.union([z.string(), z.number().int().nonnegative()], { error: c.phoneRequired }).transform(String),
    name: ZContactName.nullable().optional(),
    attributes: z.record(ZAttributeName, ZAttributeValue).optional(),
    tags: z.array(ZTag).max(CONTACTS.tagsMaxPerContact, { error: fillMessage(c.tagsTooMany, { max: CONTACTS.tagsMaxPerContact }) }).optional(),
    opt_in: ZOptInInput.nullable().optional(),
  })
  .meta({
    id: 'ContactInput',
    examples: [
      {
        phone: '+91 98765 43210',
        name: 'Asha Verma',
        attributes: { first_name: 'Asha', city: 'Pune', orders: 4, last_order: '2026-11-30' },
        tags: ['vip'],
        opt_in: { source: 'website form', evidence: 'Ticked "Send me order updates on WhatsApp" on checkout' },
      },
    ],
  });
export type TContactInput = z.input<typeof ZContactInput>;
export type TContactInputParsed = z.output<typeof ZContactInput>;

/** PATCH /api/contacts/{phone}: attributes merge (null removes one), tags replace, null opt_in clears it. */
export const ZContactPatch = z
  .object({
    name: ZContactName.nullable().optional(),
    attributes: z.record(ZAttributeName, ZAttributeValue.nullable()).optional(),
    tags: z.array(ZTag).max(CONTACTS.tagsMaxPerContact, { error: fillMessage(c.tagsTooMany, { max: CONTACTS.tagsMaxPerContact }) }).optional(),
    opt_in: ZOptInInput.nullable().optional(),
  })
  .meta({ id: 'ContactPatch', examples: [{ attributes: { city: 'Mumbai', orders: null }, tags: ['vip', 'mumbai'] }] });
export type TContactPatch = z.infer<typeof ZContactPatch>;

/** POST /api/contacts/bulk: entries are checked one by one, so a bad one is reported, not fatal. */
export const ZContactBulkRequest = z
  .object({
    contacts: z
      .array(z.unknown(), { error: c.bulkEmpty })
      .min(1, { error: c.bulkEmpty })
      .max(CONTACTS.bulkMax, { error: fillMessage(c.bulkTooMany, { max: CONTACTS.bulkMax }) }),
    /** `skip`: numbers already in the book are left as they are (counted in neither created nor updated). */
    existing: z.enum(['update', 'skip']).optional(),
  })
  .meta({
    id: 'ContactBulkRequest',
    examples: [{ contacts: [{ phone: '9876543210', name: 'Asha', attributes: { city: 'Pune' }, tags: ['import-nov'] }, { phone: '12' }] }],
  });
export type TContactBulkRequest = z.infer<typeof ZContactBulkRequest>;

export const ZContactBulkResponse = z
  .object({
    created: z.number().int(),
    updated: z.number().int(),
    skipped: z.number().int(),
    invalid: z.array(z.object({ index: z.number().int(), error: z.string() })),
  })
  .meta({
    id: 'ContactBulkResponse',
    examples: [{ created: 1, updated: 0, skipped: 0, invalid: [{ index: 1, error: 'Too short: a number with its country code has at least 8 digits' }] }],
  });
export type TContactBulkResponse = z.infer<typeof ZContactBulkResponse>;

export const ZContact = z
  .object({
    phone: z.string(),
    name: z.string().nullable(),
    attributes: z.record(z.string(), z.union([z.string(), z.number()])),
    tags: z.array(z.string()),
    opt_in: z.object({ source: z.string(), at: z.iso.datetime(), evidence: z.string().nullable() }).nullable(),
    /** From the suppression list: the one record of who opted out. */
    opted_out: z.boolean(),
    opted_out_at: z.iso.datetime().nullable(),
    counts: z.object({ sent: z.number().int(), delivered: z.number().int(), read: z.number().int(), replied: z.number().int() }),
    last_message_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({
    id: 'Contact',
    examples: [
      {
        phone: '919876543210',
        name: 'Asha Verma',
        attributes: { city: 'Pune', first_name: 'Asha', last_order: '2026-11-30', orders: 4 },
        tags: ['vip'],
        opt_in: { source: 'website form', at: '2026-11-30T10:15:00.000Z', evidence: 'Ticked "Send me order updates on WhatsApp" on checkout' },
        opted_out: false,
        opted_out_at: null,
        counts: { sent: 3, delivered: 3, read: 2, replied: 1 },
        last_message_at: '2026-12-01T09:00:00.000Z',
        created_at: '2026-11-30T10:15:00.000Z',
        updated_at: '2026-11-30T10:15:00.000Z',
      },
    ],
  });
export type TContact = z.infer<typeof ZContact>;

export const ZContactsPage = z
  .object({ data: z.array(ZContact), has_more: z.boolean(), next_cursor: z.string().nullable() })
  .meta({ id: 'ContactsPage', examples: [{ data: [], has_more: false, next_cursor: null }] });
export type TContactsPage = z.infer<typeof ZContactsPage>;

/** GET /api/contacts query. */
export const ZContactsQuery = z.object({
  tag: ZTag.optional(),
  q: z.string().trim().max(100).optional(),
  segment_id: z.coerce.number().int().min(1).max(2 ** 31 - 1).optional(),
  cursor: z.string().max(100).optional(),
});
export type TContactsQuery = z.infer<typeof ZContactsQuery>;

// Segments.

export const SEGMENT_ATTRIBUTE_OPS = ['eq', 'contains', 'before', 'after', 'empty'] as const;
export type TSegmentAttributeOp = (typeof SEGMENT_ATTRIBUTE_OPS)[number];

const ZSegmentTags = z.array(ZTag).min(1).max(CONTACTS.segmentConditionsMax);
const ZCampaignId = z.number().int().min(1).max(2 ** 53 - 1);

export const ZSegmentActivity = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('replied_within_days'), days: z.number().int().min(1).max(CONTACTS.activityDaysMax) }),
  z.object({ kind: z.literal('read_campaign'), campaign_id: ZCampaignId }),
  z.object({ kind: z.literal('failed_in_campaign'), campaign_id: ZCampaignId }),
  z.object({ kind: z.literal('never_messaged') }),
]);
export type TSegmentActivity = z.infer<typeof ZSegmentActivity>;

export const ZSegmentAttributeCondition = z.object({
  name: ZAttributeName,
  op: z.enum(SEGMENT_ATTRIBUTE_OPS),
  /** Not read for `empty`. */
  value: z.union([z.string().max(CONTACTS.attributeValueMaxLength), z.number().finite()]).optional(),
});
export type TSegmentAttributeCondition = z.infer<typeof ZSegmentAttributeCondition>;

/** Every condition must hold (tags_any: at least one of its tags). */
export const ZSegmentFilter = z
  .object({
    tags_any: ZSegmentTags.optional(),
    tags_all: ZSegmentTags.optional(),
    tags_none: ZSegmentTags.optional(),
    attributes: z.array(ZSegmentAttributeCondition).max(CONTACTS.segmentConditionsMax).optional(),
    activity: z.array(ZSegmentActivity).max(CONTACTS.segmentConditionsMax).optional(),
    /** true: only contacts with an opt-in record; false: only those without. */
    opt_in: z.boolean().optional(),
  })
  .strict()
  .meta({
    id: 'SegmentFilter',
    examples: [{ tags_any: ['vip'], attributes: [{ name: 'city', op: 'eq', value: 'Pune' }], activity: [{ kind: 'replied_within_days', days: 30 }], opt_in: true }],
  });
export type TSegmentFilter = z.infer<typeof ZSegmentFilter>;

const ZSegmentName = z
  .string({ error: c.segmentNameRequired })
  .trim()
  .min(1, { error: c.segmentNameRequired })
  .max(CONTACTS.segmentNameMaxLength);

export const ZCreateSegmentRequest = z
  .object({ name: ZSegmentName, filter: ZSegmentFilter })
  .meta({ id: 'CreateSegmentRequest', examples: [{ name: 'Pune VIPs', filter: { tags_all: ['vip'], attributes: [{ name: 'city', op: 'eq', value: 'Pune' }] } }] });
export type TCreateSegmentRequest = z.infer<typeof ZCreateSegmentRequest>;

export const ZUpdateSegmentRequest = z
  .object({ name: ZSegmentName.optional(), filter: ZSegmentFilter.optional() })
  .meta({ id: 'UpdateSegmentRequest', examples: [{ filter: { tags_all: ['vip'], opt_in: true } }] });
export type TUpdateSegmentRequest = z.infer<typeof ZUpdateSegmentRequest>;

export const ZSegment = z
  .object({ id: z.number().int(), name: z.string(), filter: ZSegmentFilter, created_at: z.iso.datetime(), updated_at: z.iso.datetime() })
  .meta({
    id: 'Segment',
    examples: [
      {
        id: 12,
        name: 'Pune VIPs',
        filter: { tags_all: ['vip'], attributes: [{ name: 'city', op: 'eq', value: 'Pune' }] },
        created_at: '2026-12-01T09:00:00.000Z',
        updated_at: '2026-12-01T09:00:00.000Z',
      },
    ],
  });
export type TSegment = z.infer<typeof ZSegment>;

export const ZSegmentList = z.object({ data: z.array(ZSegment) }).meta({ id: 'SegmentList', examples: [{ data: [] }] });

export const ZSegmentCount = z
  .object({
    /** Contacts the filter matches who can be messaged. */
    count: z.number().int(),
    /** Contacts the filter matches who opted out (excluded from sends). */
    opted_out: z.number().int(),
  })
  .meta({ id: 'SegmentCount', examples: [{ count: 1520, opted_out: 12 }] });
export type TSegmentCount = z.infer<typeof ZSegmentCount>;

// Attribute definitions, tags in use, history, counts of unsaved filters, sends to an audience.

export const ZContactAttributeDefinition = z
  .object({ name: z.string(), type: z.enum(CONTACT_ATTRIBUTE_TYPES), contacts: z.number().int() })
  .meta({ id: 'ContactAttributeDefinition', examples: [{ name: 'city', type: 'text', contacts: 1520 }] });
export type TContactAttributeDefinition = z.infer<typeof ZContactAttributeDefinition>;

export const ZContactAttributeList = z
  .object({ data: z.array(ZContactAttributeDefinition) })
  .meta({ id: 'ContactAttributeList', examples: [{ data: [{ name: 'city', type: 'text', contacts: 1520 }] }] });
export type TContactAttributeList = z.infer<typeof ZContactAttributeList>;

/** POST /api/contacts/attributes: an attribute defined before any contact holds it. */
export const ZDefineAttributeRequest = z
  .object({ name: ZAttributeName, type: z.enum(CONTACT_ATTRIBUTE_TYPES, { error: c.attributeTypeInvalid }) })
  .meta({ id: 'DefineAttributeRequest', examples: [{ name: 'birthday', type: 'date' }] });
export type TDefineAttributeRequest = z.infer<typeof ZDefineAttributeRequest>;

export const ZContactTagList = z
  .object({ data: z.array(z.object({ tag: z.string(), contacts: z.number().int() })) })
  .meta({ id: 'ContactTagList', examples: [{ data: [{ tag: 'vip', contacts: 120 }] }] });
export type TContactTagList = z.infer<typeof ZContactTagList>;

export const CONTACT_HISTORY_KINDS = ['campaign', 'reply_in', 'reply_out'] as const;

/** One entry of a contact's history: a campaign's template message, a message from them, or an answer to them. */
export const ZContactHistoryEntry = z.object({
  kind: z.enum(CONTACT_HISTORY_KINDS),
  at: z.iso.datetime(),
  campaign_id: z.number().int().nullable(),
  campaign_name: z.string().nullable(),
  template_name: z.string().nullable(),
  /** A campaign message's status (queued ... read, failed), or an answer's. */
  status: z.string().nullable(),
  /** A message's text; the kind of message (image, button, ...) where it has none. */
  text: z.string().nullable(),
  error: z.string().nullable(),
});
export type TContactHistoryEntry = z.infer<typeof ZContactHistoryEntry>;

export const ZContactHistory = z
  .object({ data: z.array(ZContactHistoryEntry), has_more: z.boolean(), next_cursor: z.string().nullable() })
  .meta({
    id: 'ContactHistory',
    examples: [
      {
        data: [
          { kind: 'reply_in', at: '2026-12-01T09:05:00.000Z', campaign_id: 41, campaign_name: null, template_name: null, status: null, text: 'Yes please', error: null },
          { kind: 'campaign', at: '2026-12-01T09:00:00.000Z', campaign_id: 41, campaign_name: 'December offers', template_name: 'offer_dec', status: 'read', text: null, error: null },
        ],
        has_more: false,
        next_cursor: null,
      },
    ],
  });
export type TContactHistory = z.infer<typeof ZContactHistory>;

/** POST /api/segments/count: the count of a filter not saved yet (the segment screen, as it is edited). */
export const ZSegmentCountRequest = z
  .object({ filter: ZSegmentFilter })
  .meta({ id: 'SegmentCountRequest', examples: [{ filter: { tags_any: ['vip'], opt_in: true } }] });
export type TSegmentCountRequest = z.infer<typeof ZSegmentCountRequest>;

/** How the tags of a send to tagged contacts match: a contact with any of them, or with all of them. */
export const AUDIENCE_TAG_MATCHES = ['any', 'all'] as const;

/** A number sent as a multipart form field arrives as text. */
const ZFormInteger = z.preprocess((value) => (typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value), z.number().int().min(1).max(2 ** 31 - 1));

/**
 * POST /api/whatsapp/audience-send (JSON, or multipart with `headerImage` for a template with an
 * image header, as Quick Send takes it): the app's send to a segment or to tagged contacts. Each
 * template field takes `attr:<attribute>` (or `attr:name`) or a fixed text, with a fallback where
 * the contact has no value; `dry_run` answers the preview instead of sending.
 */
export const ZAudienceSendRequest = z
  .object({
    templatename: z.string({ error: messages.publicApi.missingFields }).trim().min(1, { error: messages.publicApi.missingFields }),
    language: z.string().trim().optional(),
    phone_number_id: z.string().trim().optional(),
    campaign_name: z.string().trim().max(200).optional(),
    segment_id: ZFormInteger.optional(),
    /** Instead of a segment: contacts with any (or, with `tags_match: "all"`, all) of these tags. */
    tags: jsonField(ZSegmentTags.optional()),
    tags_match: z.enum(AUDIENCE_TAG_MATCHES).optional(),
    variables: jsonField(z.record(z.string().max(40), z.string().max(1000)).optional()),
    fallbacks: jsonField(z.record(z.string().max(40), z.string().max(1000)).optional()),
    /** Send later, as Quick Send's `scheduledAt`: accepted and charged now, sent then. */
    scheduledAt: ZScheduleTime,
    dry_run: ZDryRun,
  })
  .refine((input) => (input.segment_id === undefined) !== (input.tags === undefined), { error: c.audienceRequired, path: ['segment_id'] })
  .meta({ id: 'AudienceSendRequest', examples: [{ templatename: 'offer_dec', language: 'en', segment_id: 12, variables: { '1': 'attr:first_name' }, fallbacks: { '1': 'there' } }] });
export type TAudienceSendRequest = z.infer<typeof ZAudienceSendRequest>;

export const ZAudiencePreview = z
  .object({
    recipients: z.number().int(),
    opted_out: z.number().int(),
    /** Recipients with no value for a mapped attribute, who get its fallback. */
    using_fallback: z.number().int(),
    category: z.string(),
    /** Money in units of 1/10,000 rupee, as the wallet keeps it. */
    price_units: z.number().int(),
    cost_units: z.number().int(),
    balance_units: z.number().int(),
    /** The wallet covers the cost. */
    sufficient: z.boolean(),
    /** The first recipient and the template values it would get, for a sample of the message; null when none. */
    sample: z.object({ phone: z.string(), values: z.record(z.string(), z.string()) }).nullable(),
  })
  .meta({
    id: 'AudiencePreview',
    examples: [
      {
        recipients: 1520,
        opted_out: 12,
        using_fallback: 40,
        category: 'MARKETING',
        price_units: 8700,
        cost_units: 13_224_000,
        balance_units: 50_000_000,
        sufficient: true,
        sample: { phone: '919876543210', values: { '1': 'Asha' } },
      },
    ],
  });
export type TAudiencePreview = z.infer<typeof ZAudiencePreview>;
