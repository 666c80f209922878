/**
 * Cloud API webhooks: signature, subscription handshake and parsing. Shared by both adapters and
 * by the simulator (which signs what it posts with `signWebhookBody`).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { HandshakeResult, InboundMessage, MetaPricing, MessageStatus, PreferenceEvent, StatusEvent, WebhookEvents } from './types';

const SIGNATURE_PREFIX = 'sha256=';

/** The `X-Hub-Signature-256` value for a body: `sha256=` and the HMAC-SHA256 hex with the app secret. */
export function signWebhookBody(rawBody: Buffer | string, appSecret: string): string {
  return SIGNATURE_PREFIX + createHmac('sha256', appSecret).update(rawBody).digest('hex');
}

/**
 * True when the header carries the HMAC of exactly these bytes. The raw body must be the bytes as
 * received: re-serialised JSON differs (Meta escapes non-ASCII as \uXXXX).
 */
export function verifyWebhookSignature(rawBody: Buffer | string, header: string | undefined | null, appSecret: string): boolean {
  if (!header || !appSecret || !header.startsWith(SIGNATURE_PREFIX)) return false;
  const given = header.slice(SIGNATURE_PREFIX.length).trim();
  if (!/^[0-9a-fA-F]{64}$/.test(given)) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}

/**
 * The GET handshake Meta does when a webhook URL is subscribed: echo `hub.challenge` when the mode
 * is `subscribe` and the token is ours. Accepts both Koa's flat query keys and nested `hub` objects.
 */
export function verifyWebhookHandshake(query: Record<string, unknown>, verifyToken: string): HandshakeResult {
  const nested = typeof query.hub === 'object' && query.hub !== null ? (query.hub as Record<string, unknown>) : {};
  const pick = (key: string): string | undefined => {
    const value = query[`hub.${key}`] ?? nested[key];
    return typeof value === 'string' ? value : undefined;
  };
  const mode = pick('mode');
  const token = pick('verify_token');
  const challenge = pick('challenge');
  if (mode !== 'subscribe' || !verifyToken || token === undefined || challenge === undefined) return { ok: false };
  const a = Buffer.from(token);
  const b = Buffer.from(verifyToken);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return { ok: false };
  return { ok: true, challenge };
}

const ZTimestamp = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const seconds = Number(value);
  if (!Number.isFinite(seconds)) {
    ctx.addIssue({ code: 'custom', message: 'timestamp is not a number' });
    return z.NEVER;
  }
  return new Date(seconds * 1000);
});

const ZError = z.object({
  code: z.coerce.number(),
  title: z.string().optional(),
  message: z.string().optional(),
  error_subcode: z.coerce.number().optional(),
  is_transient: z.boolean().optional(),
  fbtrace_id: z.string().optional(),
  error_data: z.object({ details: z.string().optional() }).optional(),
});

const ZStatus = z.object({
  id: z.string().min(1),
  status: z.string(),
  timestamp: ZTimestamp,
  recipient_id: z.string(),
  errors: z.array(ZError).optional(),
  biz_opaque_callback_data: z.string().optional(),
  pricing: z.unknown().optional(),
});

/** Meta's `pricing` on a status; a malformed one is dropped, never the status it rides on. */
const ZPricing = z.object({
  billable: z.boolean().optional(),
  category: z.string().max(40).optional(),
  pricing_model: z.string().max(20).optional(),
  type: z.string().max(40).optional(),
});

function toPricing(raw: unknown): MetaPricing | null {
  const parsed = ZPricing.safeParse(raw);
  if (!parsed.success) return null;
  const { billable, category, pricing_model: pricingModel, type } = parsed.data;
  return { billable: billable ?? null, category: category?.toLowerCase() ?? null, pricingModel: pricingModel ?? null, type: type ?? null };
}

const ZMessage = z.looseObject({
  id: z.string().min(1),
  from: z.string(),
  timestamp: ZTimestamp,
  type: z.string(),
  text: z.object({ body: z.string() }).optional(),
  button: z.object({ text: z.string().optional(), payload: z.string().optional() }).optional(),
  interactive: z
    .object({
      button_reply: z.object({ id: z.string().optional(), title: z.string() }).optional(),
      list_reply: z.object({ title: z.string() }).optional(),
    })
    .optional(),
});

const ZPreference = z.object({
  wa_id: z.string(),
  category: z.string(),
  value: z.enum(['stop', 'resume']),
  timestamp: ZTimestamp,
});

const ZChange = z.object({
  field: z.string().optional(),
  value: z.object({
    metadata: z.object({ phone_number_id: z.string().optional() }).optional(),
    statuses: z.array(z.unknown()).optional(),
    messages: z.array(z.unknown()).optional(),
    user_preferences: z.array(z.unknown()).optional(),
    contacts: z.array(z.unknown()).optional(),
  }),
});

/** The sender's WhatsApp profile, as `value.contacts[]` names it beside the messages. */
const ZContactProfile = z.object({ wa_id: z.string(), profile: z.object({ name: z.string().optional() }).optional() });

const ZEnvelope = z.object({
  entry: z.array(z.object({ changes: z.array(z.unknown()).optional() })),
});

const KNOWN_STATUSES: ReadonlySet<string> = new Set<MessageStatus>(['sent', 'delivered', 'read', 'failed']);

/**
 * Every status, inbound message and marketing preference in a Cloud API webhook body. Each item is
 * checked on its own and skipped when malformed (or of a kind we do not act on, such as `deleted`),
 * so one odd item never costs the others: Meta does not resend a webhook we acknowledged.
 */
export function parseCloudApiWebhook(body: unknown): WebhookEvents {
  const events: WebhookEvents = { statuses: [], messages: [], preferences: [] };
  const envelope = ZEnvelope.safeParse(body);
  if (!envelope.success) return events;
  for (const entry of envelope.data.entry) {
    for (const rawChange of entry.changes ?? []) {
      const change = ZChange.safeParse(rawChange);
      if (!change.success) continue;
      const value = change.data.value;
      const phoneNumberId = value.metadata?.phone_number_id ?? null;
      for (const raw of value.statuses ?? []) {
        const status = toStatusEvent(raw, phoneNumberId);
        if (status) events.statuses.push(status);
      }
      const names = new Map<string, string>();
      for (const raw of value.contacts ?? []) {
        const contact = ZContactProfile.safeParse(raw);
        if (contact.success && contact.data.profile?.name) names.set(contact.data.wa_id, contact.data.profile.name);
      }
      for (const raw of value.messages ?? []) {
        const message = toInboundMessage(raw, phoneNumberId);
        if (message) events.messages.push({ ...message, profileName: names.get(message.from) ?? null });
      }
      for (const raw of value.user_preferences ?? []) {
        const parsed = ZPreference.safeParse(raw);
        if (!parsed.success) continue;
        const preference: PreferenceEvent = {
          waId: parsed.data.wa_id,
          phoneNumberId,
          category: parsed.data.category,
          value: parsed.data.value,
          timestamp: parsed.data.timestamp,
        };
        events.preferences.push(preference);
      }
    }
  }
  return events;
}

function toStatusEvent(raw: unknown, phoneNumberId: string | null): StatusEvent | null {
  const parsed = ZStatus.safeParse(raw);
  if (!parsed.success || !KNOWN_STATUSES.has(parsed.data.status)) return null;
  const { id, status, timestamp, recipient_id: recipient, errors, biz_opaque_callback_data: callbackData } = parsed.data;
  const event: StatusEvent = { providerMessageId: id, status: status as MessageStatus, timestamp, recipient, phoneNumberId };
  // Our send reference, echoed by the provider: it settles a send whose answer never reached us.
  if (callbackData) event.callbackData = callbackData.slice(0, 128);
  const pricing = parsed.data.pricing === undefined ? null : toPricing(parsed.data.pricing);
  if (pricing) event.pricing = pricing;
  const first = errors?.[0];
  if (first) {
    event.error = { code: first.code, title: first.title ?? first.message ?? 'Unknown error' };
    if (first.error_data?.details) event.error.details = first.error_data.details;
    if (first.error_subcode !== undefined) event.error.subcode = first.error_subcode;
    if (first.is_transient !== undefined) event.error.isTransient = first.is_transient;
    if (first.fbtrace_id) event.error.fbtraceId = first.fbtrace_id;
  }
  return event;
}

function toInboundMessage(raw: unknown, phoneNumberId: string | null): InboundMessage | null {
  const parsed = ZMessage.safeParse(raw);
  if (!parsed.success) return null;
  const m = parsed.data;
  const text = m.text?.body ?? m.button?.text ?? m.interactive?.button_reply?.title ?? m.interactive?.list_reply?.title ?? null;
  const buttonPayload = m.button?.payload ?? m.interactive?.button_reply?.id ?? null;
  return { providerMessageId: m.id, from: m.from, phoneNumberId, timestamp: m.timestamp, type: m.type, text, buttonPayload, profileName: null, raw: raw as Record<string, unknown> };
}

/**
 * One template event of a business account (WABA), as Meta sends it: a status change
 * (`message_template_status_update`), a category change (`template_category_update`) or a quality
 * change (`message_template_quality_update`). `templateId` is Meta's id of the template when given.
 */
export type TemplateEvent =
  | {
      kind: 'status';
      templateId: string | null;
      name: string;
      language: string;
      /** Meta's event, upper-cased and kept as sent (APPROVED, PAUSED, FLAGGED, ...). */
      event: string;
      reason: string | null;
      /** Meta's `other_info` (a pause or a lock): its title and description. */
      info: { title: string | null; description: string | null } | null;
      at: Date;
    }
  | { kind: 'category'; templateId: string | null; name: string; language: string; newCategory: string; previousCategory: string | null; correctCategory: string | null; at: Date }
  | { kind: 'quality'; templateId: string | null; name: string; language: string; quality: string; at: Date };

/** A change of a business account that we do not act on, kept for an administrator to read. */
export interface UnknownWebhookChange {
  field: string;
  body: unknown;
}

/**
 * What one change of one entry says, with the account it is about: a sender number (statuses,
 * inbound messages, preferences) or a business account (template events). Each is verified
 * against the secret of that account alone, so one body cannot speak for several customers.
 */
export type WebhookChange =
  | {
      kind: 'number';
      phoneNumberId: string;
      events: WebhookEvents;
      /**
       * A number's change of a field other than `messages` (Meta's group events:
       * `group_lifecycle_update`, `group_settings_update`, `group_participants_update`): kept for
       * an administrator, not acted on, with the business account of its entry.
       */
      unknown?: UnknownWebhookChange & { wabaId: string };
    }
  | { kind: 'business'; wabaId: string; templates: TemplateEvent[]; unknown: UnknownWebhookChange | null; numberHealth?: NumberHealthEvent };

/**
 * A business number's health changed, as Meta's `phone_number_quality_update` (throughput level
 * or messaging limit) or `account_update` (the account or a number was flagged, restricted,
 * reinstated...) says it. Both name the number by its display number, not its id; the number's
 * current health is read again from `GET /{phone-number-id}` after either.
 * See docs/decisions/2026-12-07-number-health-and-meta-billing.md.
 */
export interface NumberHealthEvent {
  field: 'phone_number_quality_update' | 'account_update';
  /** Digits of the business display number, or null when the event names none (a whole-account event). */
  displayNumber: string | null;
  /** Meta's event word, upper case (THROUGHPUT_UPGRADE, ONBOARDING, FLAGGED, ACCOUNT_RESTRICTION, ...). */
  event: string;
  /** The messaging limit the event reports (`max_daily_conversations_per_business`, else `current_limit`), e.g. TIER_10K. */
  messagingLimitTier: string | null;
  at: Date;
}

const ZNumberHealthChange = z.object({
  field: z.enum(['phone_number_quality_update', 'account_update']),
  value: z.looseObject({
    display_phone_number: z.string().max(40).optional(),
    phone_number: z.union([z.string(), z.number()]).transform(String).optional(),
    event: z.string().max(60).optional(),
    current_limit: z.string().max(30).optional(),
    max_daily_conversations_per_business: z.string().max(30).optional(),
  }),
});

function toNumberHealthEvent(raw: unknown, at: Date): NumberHealthEvent | null {
  const parsed = ZNumberHealthChange.safeParse(raw);
  if (!parsed.success) return null;
  const { field, value } = parsed.data;
  const digits = (value.display_phone_number ?? value.phone_number ?? '').replace(/\D+/g, '');
  const limit = value.max_daily_conversations_per_business ?? value.current_limit ?? null;
  return { field, displayNumber: digits || null, event: (value.event ?? '').toUpperCase(), messagingLimitTier: limit ? limit.toUpperCase() : null, at };
}

const ZTemplateId = z.union([z.string(), z.number()]).transform((id) => String(id)).nullish();
const ZTemplateKey = {
  message_template_id: ZTemplateId,
  message_template_name: z.string().min(1).max(200),
  message_template_language: z.string().max(20).optional(),
};
const ZUpper = z.string().min(1).max(60).transform((s) => s.toUpperCase());
const ZText = (max: number) => z.string().nullish().transform((s) => (s ? s.slice(0, max) : null));

const ZTemplateStatusChange = z.object({
  field: z.literal('message_template_status_update'),
  value: z.looseObject({
    ...ZTemplateKey,
    event: ZUpper,
    reason: ZText(500),
    other_info: z.looseObject({ title: ZText(100), description: ZText(1000) }).nullish(),
  }),
});

const ZTemplateCategoryChange = z.object({
  field: z.literal('template_category_update'),
  value: z.looseObject({ ...ZTemplateKey, new_category: ZUpper, previous_category: ZUpper.nullish(), correct_category: ZUpper.nullish() }),
});

const ZTemplateQualityChange = z.object({
  field: z.literal('message_template_quality_update'),
  value: z.looseObject({ ...ZTemplateKey, new_quality_score: ZUpper }),
});

/** The entry's `time` (seconds), or now when absent: when Meta says the event happened. */
function entryTime(entry: { time?: unknown }): Date {
  const seconds = Number(entry.time);
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date();
}

/** A template event of one change, or null when the change is not a well-formed template event. */
function toTemplateEvent(raw: unknown, at: Date): TemplateEvent | null {
  const key = (value: { message_template_id?: string | null | undefined; message_template_name: string; message_template_language?: string | undefined }) => ({
    templateId: value.message_template_id || null,
    name: value.message_template_name,
    language: value.message_template_language ?? '',
    at,
  });
  const status = ZTemplateStatusChange.safeParse(raw);
  if (status.success) {
    const value = status.data.value;
    const info = value.other_info ? { title: value.other_info.title, description: value.other_info.description } : null;
    return { kind: 'status', ...key(value), event: value.event, reason: value.reason && value.reason !== 'NONE' ? value.reason : null, info };
  }
  const category = ZTemplateCategoryChange.safeParse(raw);
  if (category.success) {
    const value = category.data.value;
    return { kind: 'category', ...key(value), newCategory: value.new_category, previousCategory: value.previous_category ?? null, correctCategory: value.correct_category ?? null };
  }
  const quality = ZTemplateQualityChange.safeParse(raw);
  if (quality.success) return { kind: 'quality', ...key(quality.data.value), quality: quality.data.value.new_quality_score };
  return null;
}

/** True when the header has the shape of a signature at all (checked before any database work). */
export function looksSigned(header: string | undefined | null): boolean {
  return typeof header === 'string' && /^sha256=[0-9a-fA-F]{64}\s*$/.test(header);
}

/**
 * Splits a webhook body into changes per account: a change with `metadata.phone_number_id` is
 * about that number, any other about its entry's business account. Changes naming no account
 * are dropped: nothing could vouch for them.
 */
export function parseWebhookChanges(body: unknown): WebhookChange[] {
  const out: WebhookChange[] = [];
  const entries = (body as { entry?: unknown } | null)?.entry;
  for (const entry of Array.isArray(entries) ? (entries as { id?: unknown; time?: unknown; changes?: unknown }[]) : []) {
    if (typeof entry !== 'object' || entry === null) continue;
    const changes = Array.isArray(entry.changes) ? (entry.changes as unknown[]) : [];
    const wabaId = typeof entry.id === 'string' || typeof entry.id === 'number' ? String(entry.id) : '';
    for (const raw of changes) {
      const phoneNumberId = (raw as { value?: { metadata?: { phone_number_id?: unknown } } } | null)?.value?.metadata?.phone_number_id;
      if (typeof phoneNumberId === 'string' && phoneNumberId) {
        const numberField = (raw as { field?: unknown } | null)?.field;
        const other = typeof numberField === 'string' && numberField !== 'messages' ? { field: numberField.slice(0, 100), body: raw, wabaId } : null;
        out.push({ kind: 'number', phoneNumberId, events: parseCloudApiWebhook({ entry: [{ changes: [raw] }] }), ...(other ? { unknown: other } : {}) });
        continue;
      }
      if (!wabaId) continue;
      const numberHealth = toNumberHealthEvent(raw, entryTime(entry));
      if (numberHealth) {
        out.push({ kind: 'business', wabaId, templates: [], unknown: null, numberHealth });
        continue;
      }
      const template = toTemplateEvent(raw, entryTime(entry));
      if (template) {
        out.push({ kind: 'business', wabaId, templates: [template], unknown: null });
        continue;
      }
      // Any other business-account field (account alerts, a field Meta adds later, a template
      // event we cannot read): verified, kept for an administrator, not acted on.
      const field = (raw as { field?: unknown } | null)?.field;
      out.push({ kind: 'business', wabaId, templates: [], unknown: { field: typeof field === 'string' ? field.slice(0, 100) : '(none)', body: raw } });
    }
  }
  return out;
}
