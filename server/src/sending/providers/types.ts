/**
 * The one interface the sending engine talks to, whatever stands behind it: Meta's WhatsApp Cloud
 * API, the third-party channel provider, or the local simulator (which speaks the Cloud API).
 * Both real providers use the Cloud API's message and webhook shapes, so the shapes live here once.
 */
import { metaErrorHandling, MISSING_CREDENTIALS_CODE, NETWORK_ERROR_CODE, type MetaErrorHandling } from './metaErrors';

/** A send-time template parameter, as the Cloud API takes it. */
export type TSendParameter =
  | { type: 'text'; text: string; parameter_name?: string }
  | { type: 'currency'; currency: { fallback_value: string; code: string; amount_1000: number }; parameter_name?: string }
  | { type: 'date_time'; date_time: { fallback_value: string }; parameter_name?: string }
  | { type: 'image'; image: TMediaObject }
  | { type: 'video'; video: TMediaObject }
  | { type: 'document'; document: TMediaObject & { filename?: string } }
  | { type: 'payload'; payload: string }
  | { type: 'coupon_code'; coupon_code: string };

/** Media by uploaded id or by public link (one of the two). */
export interface TMediaObject {
  id?: string;
  link?: string;
}

/** A send-time component: parameters for the header, the body or one button (by index). */
export type TSendComponent =
  | { type: 'header'; parameters: TSendParameter[] }
  | { type: 'body'; parameters: TSendParameter[] }
  | { type: 'button'; sub_type: 'url' | 'quick_reply'; index: string; parameters: TSendParameter[] };

export interface TemplateSendRequest {
  /** The sender: the Cloud API phone number id (the channel provider maps it to a channel). */
  phoneNumberId: string;
  /** Recipient in international format; digits are enough, a leading + is accepted. */
  to: string;
  template: {
    name: string;
    /** Language code as approved, e.g. `en_US`. */
    language: string;
    components: TSendComponent[];
  };
  /** Our own reference for this send (Cloud API `biz_opaque_callback_data`); the provider echoes it in status webhooks. */
  callbackData?: string;
}

/** Meta's error object, field by field: kept on a failed message for its owner and Meta's support. */
export interface MetaErrorFields {
  subcode?: number;
  /** `error_data.details`. */
  details?: string;
  /** Meta's `is_transient`: the same request may succeed later. */
  isTransient?: boolean;
  fbtraceId?: string;
}

export type SendResult =
  | { ok: true; providerMessageId: string }
  | ({
      ok: false;
      /** The Cloud API error code, or NETWORK_ERROR_CODE when no answer came back. */
      code: number;
      title: string;
      /** True when the table says to try again later (metaErrors.ts); `handling` says how. */
      retryable: boolean;
      /** What the error table makes of this answer; the dispatcher reads the table again when absent. */
      handling?: MetaErrorHandling;
      httpStatus?: number;
      /** No answer, but the request may have reached the provider (a timeout or a reset after it was written). */
      unknown?: boolean;
    } & MetaErrorFields);

export { NETWORK_ERROR_CODE, MISSING_CREDENTIALS_CODE };

/** A failed SendResult with its handling read from the error table. */
export function sendFailure(error: { code: number; title: string; httpStatus?: number; unknown?: boolean } & MetaErrorFields): Extract<SendResult, { ok: false }> {
  const handling = metaErrorHandling({ code: error.code, httpStatus: error.httpStatus, isTransient: error.isTransient });
  const result: Extract<SendResult, { ok: false }> = { ok: false, code: error.code, title: error.title, retryable: handling.action === 'retry', handling };
  if (error.httpStatus !== undefined) result.httpStatus = error.httpStatus;
  if (error.unknown) result.unknown = true;
  if (error.subcode !== undefined) result.subcode = error.subcode;
  if (error.details !== undefined) result.details = error.details;
  if (error.isTransient !== undefined) result.isTransient = error.isTransient;
  if (error.fbtraceId !== undefined) result.fbtraceId = error.fbtraceId;
  return result;
}

export type MessageStatus = 'sent' | 'delivered' | 'read' | 'failed';

export interface StatusEvent {
  providerMessageId: string;
  status: MessageStatus;
  timestamp: Date;
  /** The recipient's WhatsApp id (digits). */
  recipient: string;
  /** The sender, from the webhook's metadata. */
  phoneNumberId: string | null;
  error?: { code: number; title: string; details?: string; subcode?: number; isTransient?: boolean; fbtraceId?: string };
  /** `biz_opaque_callback_data` echoed from the send: our reference, when the send carried one. */
  callbackData?: string | null;
  /** Meta's `pricing` on the status: what Meta says it bills for the message (kept for reconciliation). */
  pricing?: MetaPricing;
  /**
   * Signed with a secret the platform holds (simulator, the platform's own Meta app): a failure
   * it reports is refunded at once. Otherwise the refund waits for an administrator.
   */
  refundTrusted?: boolean;
}

/** The `pricing` object of a status webhook, as Meta sends it (category lower case: marketing, utility, ...). */
export interface MetaPricing {
  billable: boolean | null;
  category: string | null;
  pricingModel: string | null;
  type: string | null;
}

/** A message a recipient wrote to a sender (we only act on STOP-like opt-outs). */
export interface InboundMessage {
  providerMessageId: string;
  from: string;
  phoneNumberId: string | null;
  timestamp: Date;
  /** Cloud API message type: text, button (quick reply), interactive, image, ... */
  type: string;
  /** The typed text, or the tapped button's title; null for media and other kinds. */
  text: string | null;
  /** The sender's WhatsApp profile name (`value.contacts[].profile.name`), when Meta gives it. */
  profileName: string | null;
  /** Meta's message object as received: conversations/inboundMessage.ts reads every kind from it. */
  raw: Record<string, unknown>;
  /** A quick-reply tap's payload (our send reference) or an interactive reply's id; null otherwise. */
  buttonPayload?: string | null;
}

/** `user_preferences` webhook: a recipient stopped (or resumed) marketing messages in WhatsApp. */
export interface PreferenceEvent {
  waId: string;
  phoneNumberId: string | null;
  category: string;
  value: 'stop' | 'resume';
  timestamp: Date;
}

export interface WebhookEvents {
  statuses: StatusEvent[];
  messages: InboundMessage[];
  preferences: PreferenceEvent[];
}

/** The outcome of the `hub.mode`/`hub.verify_token`/`hub.challenge` subscription handshake. */
export type HandshakeResult = { ok: true; challenge: string } | { ok: false };

/**
 * A free-form message of the customer service window: Meta's `TextMessage` or a media message
 * (`ImageMessage`, `DocumentMessage`, ...) by link, with our reference echoed on its statuses.
 */
export interface ServiceSendRequest {
  phoneNumberId: string;
  to: string;
  content: { type: 'text'; body: string } | { type: 'image' | 'video' | 'audio' | 'document'; link: string; caption?: string; filename?: string };
  callbackData?: string;
}

/** A contact's file, fetched from the provider by Meta's media id. */
export type MediaFetchResult = { ok: true; bytes: Buffer; mime: string } | { ok: false; reason: string; retryable: boolean };

export interface WhatsAppProvider {
  readonly kind: 'cloud_api' | 'channel';
  sendTemplate(request: TemplateSendRequest): Promise<SendResult>;
  /** Sends a service (free-form) message; absent where the adapter cannot. */
  sendService?(request: ServiceSendRequest): Promise<SendResult>;
  /**
   * Fetches an incoming message's file: `GET /{version}/{media-id}` for its URL, then that URL,
   * both with the number's credentials; a file above `maxBytes` is refused unread past the limit.
   */
  fetchMedia?(phoneNumberId: string, mediaId: string, maxBytes: number): Promise<MediaFetchResult>;
  /** Every event in a webhook body; malformed parts are skipped, never thrown. */
  parseWebhook(body: unknown): WebhookEvents;
  parseStatusWebhook(body: unknown): StatusEvent[];
  /** Checks `X-Hub-Signature-256: sha256=<hex>` over the raw body, in constant time. */
  verifySignature(rawBody: Buffer | string, header: string | undefined | null, appSecret: string): boolean;
  verifyHandshake(query: Record<string, unknown>, verifyToken: string): HandshakeResult;
  /** Closes kept-alive connections. */
  close(): Promise<void>;
}
