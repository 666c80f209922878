/**
 * The simulator's customer side: a test or a demo user answers as the contact would, with text,
 * a tap on a quick-reply button of a template they received, or a photo. Each becomes a
 * Meta-shaped `messages` webhook (with the contact's profile, `context` naming the message
 * answered, the button's payload as our send put it), signed as the simulator signs its statuses.
 * Photos are kept in memory and served through Meta's media endpoint (`GET /{version}/{media-id}`
 * answers the URL, the URL answers the bytes, both with the bearer token), as Meta does.
 *
 * It also keeps when each contact last wrote to each number, so that the simulator refuses a
 * free-form send outside the 24-hour customer service window as Meta does (131047).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { randomHex } from './randomHex';

/** A 1x1 JPEG: the photo a contact sends when the request brings none. */
export const SAMPLE_PHOTO = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);

/** What a contact received from a template with quick-reply buttons: the texts and the payloads of its send. */
export interface ReceivedButtons {
  messageId: string;
  sender: string;
  to: string;
  buttons: { text: string; payload: string | null }[];
}

export const ZInboxMessage = z
  .object({
    /** The business number written to (Meta's phone number id). */
    phone_number_id: z.string().min(1).max(64),
    /** The contact writing, digits with the country code. */
    from: z.string().regex(/^\d{8,15}$/),
    name: z.string().max(100).optional(),
    text: z.string().min(1).max(4096).optional(),
    /** A quick-reply button's text, of the template message `reply_to` names (else the latest one the contact received). */
    button: z.string().min(1).max(255).optional(),
    /** `true` for a sample photo, or a JPEG/PNG as base64. */
    photo: z.union([z.literal(true), z.string().max(8_000_000)]).optional(),
    caption: z.string().max(1024).optional(),
    /** The message answered (our `wamid`): becomes `context.id`. */
    reply_to: z.string().max(128).optional(),
    /** How long ago the contact wrote, in hours (a test or a demo of a closed service window); now by default. */
    hours_ago: z.number().int().min(0).max(24 * 30).optional(),
  })
  .refine((m) => [m.text, m.button, m.photo].filter((part) => part !== undefined).length === 1, { message: 'exactly one of text, button and photo' });
export type TInboxMessage = z.infer<typeof ZInboxMessage>;

export class SimulatorInbox {
  private readonly media = new Map<string, { bytes: Buffer; mime: string }>();
  private readonly lastWrote = new Map<string, number>();
  private readonly received: ReceivedButtons[] = [];

  /** Remembers a template send's quick-reply buttons, so the contact can tap one. */
  rememberButtons(entry: ReceivedButtons): void {
    if (entry.buttons.length === 0) return;
    this.received.push(entry);
    if (this.received.length > 5_000) this.received.shift();
  }

  /** True while the contact's last message to the number is less than 24 hours old. */
  windowOpen(sender: string, contact: string, now = Date.now()): boolean {
    const at = this.lastWrote.get(`${sender}:${contact}`);
    return at !== undefined && now - at < 24 * 3_600_000;
  }

  mediaInfo(id: string): { bytes: Buffer; mime: string } | null {
    return this.media.get(id) ?? null;
  }

  /**
   * Meta's `messages` change for what the contact does, or an error text when it cannot be done
   * (a button that the message answered does not have).
   */
  compose(input: TInboxMessage, displayNumber: string): { ok: true; value: Record<string, unknown>; messageId: string } | { ok: false; error: string } {
    const messageId = `wamid.SIMIN${randomHex(12).toUpperCase()}`;
    const wroteAt = Date.now() - (input.hours_ago ?? 0) * 3_600_000;
    const timestamp = String(Math.floor(wroteAt / 1000));
    const message: Record<string, unknown> = { from: input.from, id: messageId, timestamp };
    if (input.text !== undefined) Object.assign(message, { type: 'text', text: { body: input.text } });
    else if (input.button !== undefined) {
      const candidates = this.received.filter((r) => r.to === input.from && r.sender === input.phone_number_id && (!input.reply_to || r.messageId === input.reply_to));
      const source = candidates[candidates.length - 1];
      const button = source?.buttons.find((b) => b.text === input.button);
      if (!source || !button) return { ok: false, error: `no template message to ${input.from} with a button "${input.button}"` };
      // Meta's `button` message: the payload our send set, else the button's text.
      Object.assign(message, { type: 'button', button: { payload: button.payload ?? button.text, text: button.text }, context: { from: displayNumber, id: source.messageId } });
    } else {
      const bytes = input.photo === true || input.photo === undefined ? SAMPLE_PHOTO : Buffer.from(input.photo, 'base64');
      const mime = bytes[0] === 0x89 ? 'image/png' : 'image/jpeg';
      const mediaId = String(BigInt(`0x${randomHex(12)}`));
      this.media.set(mediaId, { bytes, mime });
      if (this.media.size > 500) this.media.delete(this.media.keys().next().value as string);
      const image: Record<string, unknown> = { mime_type: mime, sha256: createHash('sha256').update(bytes).digest('base64'), id: mediaId };
      if (input.caption) image.caption = input.caption;
      Object.assign(message, { type: 'image', image });
    }
    if (input.reply_to && message.context === undefined) message.context = { from: displayNumber, id: input.reply_to };
    const key = `${input.phone_number_id}:${input.from}`;
    this.lastWrote.set(key, Math.max(this.lastWrote.get(key) ?? 0, wroteAt));
    return {
      ok: true,
      messageId,
      value: {
        messaging_product: 'whatsapp',
        metadata: { display_phone_number: displayNumber, phone_number_id: input.phone_number_id },
        contacts: [{ profile: { name: input.name ?? 'Simulator contact' }, wa_id: input.from }],
        messages: [message],
      },
    };
  }
}
