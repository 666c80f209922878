/**
 * What one incoming message of Meta's webhook is, whatever its kind: the row the Replies screen
 * and the API show. Meta's kinds (its `/whatsapp/webhooks` examples): text, image, video, audio,
 * document, sticker, location, contacts, reaction, button (a template's quick reply), interactive
 * (`button_reply`, `list_reply`), order, system (`user_changed_number`) and unsupported. A kind
 * Meta adds later is stored as it came, with its type, so nothing is lost.
 */
import { CONVERSATIONS } from '@shared/constants';

export const MEDIA_KINDS = ['image', 'video', 'audio', 'document', 'sticker'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

export interface DescribedInbound {
  kind: string;
  /** What the list and the thread show as the message's text (body, caption, title, summary). */
  text: string | null;
  /** Kind-specific facts (location, shared contacts, order items, reaction, system change, errors), JSON. */
  details: Record<string, unknown> | null;
  /** Meta's id of the message this one answers (`context.id`). */
  contextId: string | null;
  /** A quick-reply tap: the payload our send put on the button, and the button's text. */
  buttonPayload: string | null;
  buttonText: string | null;
  media: { id: string; mime: string | null; filename: string | null; sha256: string | null } | null;
}

type Loose = Record<string, unknown>;

const str = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null);
const obj = (value: unknown): Loose | null => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Loose) : null);
const clip = (value: string | null, max: number): string | null => (value === null ? null : value.slice(0, max));

/** Reads every kind from Meta's message object; never throws. */
export function describeInbound(raw: Loose): DescribedInbound {
  const kind = (str(raw.type) ?? 'unknown').slice(0, 20);
  const context = obj(raw.context);
  const out: DescribedInbound = { kind, text: null, details: null, contextId: clip(str(context?.id), 128), buttonPayload: null, buttonText: null, media: null };
  const body = obj(raw[kind]);
  const max = CONVERSATIONS.textMaxChars;
  switch (kind) {
    case 'text':
      out.text = clip(str(body?.body), max);
      break;
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
    case 'sticker': {
      const id = str(body?.id);
      if (id) out.media = { id: id.slice(0, 128), mime: clip(str(body?.mime_type), 100), filename: clip(str(body?.filename), 255), sha256: str(body?.sha256) };
      out.text = clip(str(body?.caption), max);
      if (kind === 'sticker' && body?.animated !== undefined) out.details = { animated: body.animated === true };
      break;
    }
    case 'location':
      out.details = { latitude: body?.latitude ?? null, longitude: body?.longitude ?? null, name: str(body?.name), address: str(body?.address), url: str(body?.url) };
      out.text = clip([str(body?.name), str(body?.address)].filter(Boolean).join(', ') || null, max);
      break;
    case 'contacts': {
      const contacts = Array.isArray(raw.contacts) ? (raw.contacts as unknown[]).map(obj).filter((c): c is Loose => c !== null) : [];
      out.details = { contacts };
      out.text = clip(contacts.map((c) => str(obj(c.name)?.formatted_name) ?? '').filter(Boolean).join(', ') || null, max);
      break;
    }
    case 'reaction':
      // The message reacted to is the reaction's `message_id`, not a context.
      out.contextId = clip(str(body?.message_id), 128);
      out.details = { emoji: str(body?.emoji) };
      out.text = str(body?.emoji);
      break;
    case 'button':
      out.buttonPayload = clip(str(body?.payload), 255);
      out.buttonText = clip(str(body?.text), 255);
      out.text = out.buttonText;
      break;
    case 'interactive': {
      const reply = obj(body?.button_reply) ?? obj(body?.list_reply) ?? obj(body?.nfm_reply);
      out.details = { type: str(body?.type), id: str(reply?.id), description: str(reply?.description) };
      out.buttonText = clip(str(reply?.title), 255);
      out.text = out.buttonText ?? clip(str(reply?.body), max);
      break;
    }
    case 'order': {
      const items = Array.isArray(body?.product_items) ? (body.product_items as unknown[]) : [];
      out.details = { catalog_id: str(body?.catalog_id), product_items: items };
      out.text = clip(str(body?.text) || `${items.length} item${items.length === 1 ? '' : 's'}`, max);
      break;
    }
    case 'system':
      out.details = { type: str(body?.type), wa_id: str(body?.wa_id) };
      out.text = clip(str(body?.body), max);
      break;
    default:
      if (Array.isArray(raw.errors)) out.details = { errors: raw.errors };
      else if (body) out.details = body;
  }
  if (context && (context.referred_product || context.forwarded || context.frequently_forwarded)) {
    out.details = { ...(out.details ?? {}), context: { referred_product: context.referred_product ?? null, forwarded: context.forwarded ?? null } };
  }
  if (obj(raw.referral)) out.details = { ...(out.details ?? {}), referral: raw.referral };
  if (Array.isArray(raw.errors) && kind !== 'unsupported') out.details = { ...(out.details ?? {}), errors: raw.errors };
  return out;
}

/** A short line for the conversation list: the text, else what kind of message it was. */
export function previewText(kind: string, text: string | null): string {
  return (text ?? '').trim().slice(0, 300) || `[${kind}]`;
}
