/**
 * The channel provider's (360dialog's) webhook: registering Sandesh's webhook URL for a channel
 * (`POST /v1/configs/webhook` with the channel's D360-API-KEY) and the per-channel token that
 * authenticates what 360dialog forwards. 360dialog forwards Meta's payload without Meta's
 * signature, and its own `x-360dialog-signature` is made with a partner's platform secret, which a
 * customer's API key does not give us; it does send back the custom headers set with the webhook
 * URL. So each channel's webhook is registered with two headers of ours: the channel id and a token
 * derived from the channel's API key. See docs/decisions/2026-12-07-channel-provider-360dialog.md.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { request } from 'undici';

/** The headers 360dialog sends back with every webhook of a channel registered by Sandesh. */
export const CHANNEL_WEBHOOK_HEADERS = { channel: 'x-sandesh-channel', token: 'x-sandesh-webhook-token' } as const;

/**
 * The token a channel's webhooks carry: an HMAC of the channel id under its API key. It needs no
 * storage, changes when the key is replaced (the new key registers the webhook again), and does
 * not reveal the key if a webhook request is logged somewhere on the way.
 */
export function channelWebhookToken(apiKey: string, channelId: string): string {
  return createHmac('sha256', apiKey).update(`sandesh/360dialog-webhook/${channelId}`).digest('hex');
}

/** Compares in constant time, so the time of a refusal tells nothing about the token. */
export function channelWebhookTokenMatches(token: string, apiKey: string, channelId: string): boolean {
  const expected = Buffer.from(channelWebhookToken(apiKey, channelId), 'utf8');
  const given = Buffer.from(token, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export type WebhookRegistration =
  | { ok: true }
  /** `keyRefused`: 360dialog answered 401/403, the API key is not one of its keys. */
  | { ok: false; keyRefused: boolean; httpStatus: number | null; reason: string };

export interface ChannelWebhookRegistrar {
  register(input: { apiKey: string; channelId: string; url: string }): Promise<WebhookRegistration>;
}

/** The reason in a 360dialog error answer: `{ meta: { developer_message } }` or `{ error }`. */
export function d360ErrorReason(httpStatus: number, text: string): string {
  try {
    const parsed = JSON.parse(text) as { meta?: { developer_message?: unknown }; error?: unknown };
    if (typeof parsed.meta?.developer_message === 'string' && parsed.meta.developer_message) return parsed.meta.developer_message;
    if (typeof parsed.error === 'string' && parsed.error) return parsed.error;
    const nested = parsed.error as { message?: unknown } | undefined;
    if (typeof nested?.message === 'string' && nested.message) return nested.message;
  } catch {
    // Not JSON (a proxy's page): the HTTP status says it.
  }
  return `HTTP ${httpStatus}`;
}

/** Registers the webhook at 360dialog's Messaging API (CHANNEL_API_BASE). */
export class D360WebhookRegistrar implements ChannelWebhookRegistrar {
  constructor(private readonly settings: { baseUrl: string; timeoutMs?: number }) {}

  async register(input: { apiKey: string; channelId: string; url: string }): Promise<WebhookRegistration> {
    const body = {
      url: input.url,
      headers: { [CHANNEL_WEBHOOK_HEADERS.channel]: input.channelId, [CHANNEL_WEBHOOK_HEADERS.token]: channelWebhookToken(input.apiKey, input.channelId) },
    };
    try {
      const response = await request(`${this.settings.baseUrl.replace(/\/+$/, '')}/v1/configs/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'd360-api-key': input.apiKey },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.settings.timeoutMs ?? 10_000),
      });
      const text = await response.body.text();
      if (response.statusCode >= 200 && response.statusCode < 300) return { ok: true };
      return { ok: false, keyRefused: response.statusCode === 401 || response.statusCode === 403, httpStatus: response.statusCode, reason: d360ErrorReason(response.statusCode, text) };
    } catch (error) {
      return { ok: false, keyRefused: false, httpStatus: null, reason: error instanceof Error ? error.message : String(error) };
    }
  }
}
