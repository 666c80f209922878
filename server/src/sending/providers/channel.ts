import type { Agent } from 'undici';
import { fillMessage, messages } from '@shared/messages';
import { d360ErrorReason } from '../../providerAccounts/channelWebhook';
import { CloudApiShapedProvider, createAgent, fetchMediaByUrl, interpretAnswer, postTemplateMessage, serviceMessageBody, templateMessageBody, type HttpSettings } from './http';
import { MISSING_CREDENTIALS_CODE, sendFailure, type MediaFetchResult, type SendResult, type ServiceSendRequest, type TemplateSendRequest, type WhatsAppProvider } from './types';

export interface ChannelCredentials {
  channelId: string;
  apiKey: string;
}

export interface ChannelSettings extends HttpSettings {
  /** 360dialog's Messaging API (CHANNEL_API_BASE), `https://waba-v2.360dialog.io`. */
  baseUrl: string;
  /** The channel (and its key) that sends for a sender number; null when none is configured. */
  channelFor: (phoneNumberId: string) => ChannelCredentials | null;
}

/**
 * Meta's code for an access token it no longer accepts. 360dialog's 401 says the same of the
 * channel's API key, so it is read as that code: the sender stops instead of failing every message.
 */
const INVALID_CREDENTIALS_CODE = 190;

/**
 * 360dialog's answer to `POST /messages`: a Cloud API answer (`messages[0].id`, or Meta's `error`
 * object, which 360dialog passes on), or one of its own errors, `{ "error": "..." }` or
 * `{ "meta": { "http_code", "developer_message" } }`, for a request it refuses itself.
 */
export function interpretD360Answer(httpStatus: number, text: string): SendResult {
  let own = false;
  try {
    const parsed = JSON.parse(text) as { error?: unknown; meta?: unknown };
    own = typeof parsed.error === 'string' || (typeof parsed.meta === 'object' && parsed.meta !== null && !('error' in parsed));
  } catch {
    own = false;
  }
  if (!own) return interpretAnswer(httpStatus, text);
  const reason = d360ErrorReason(httpStatus, text);
  if (httpStatus === 401 || httpStatus === 403) {
    return sendFailure({ code: INVALID_CREDENTIALS_CODE, title: fillMessage(messages.providers.d360KeyRefusedOnSend, { reason }), httpStatus });
  }
  // 360dialog's own refusal carries no Meta code: its HTTP status is the code, and a 5xx or 429 is tried again.
  return sendFailure({ code: httpStatus, title: `360dialog: ${reason}`, httpStatus, isTransient: httpStatus >= 500 || httpStatus === 429 });
}

/**
 * The third-party channel provider of spec 001 (channel id + API key) is 360dialog, whose
 * Messaging API takes Cloud API bodies:
 *   POST {CHANNEL_API_BASE}/messages   D360-API-KEY: <key>   body: the Cloud API template message
 * The key names the channel (one number), so the URL carries no channel id. Its webhooks forward
 * Meta's payloads (see providerAccounts/channelWebhook.ts for how they are authenticated).
 */
export class ChannelProvider extends CloudApiShapedProvider implements WhatsAppProvider {
  readonly kind = 'channel' as const;
  private readonly agent: Agent;
  private readonly baseUrl: string;

  constructor(private readonly settings: ChannelSettings) {
    super();
    this.agent = createAgent(settings);
    this.baseUrl = settings.baseUrl.replace(/\/+$/, '');
  }

  async sendTemplate(input: TemplateSendRequest): Promise<SendResult> {
    const channel = this.settings.channelFor(input.phoneNumberId);
    if (!channel?.channelId || !channel.apiKey) {
      return sendFailure({ code: MISSING_CREDENTIALS_CODE, title: 'No channel configured for this sender number' });
    }
    return postTemplateMessage(
      this.agent,
      `${this.baseUrl}/messages`,
      { 'd360-api-key': channel.apiKey },
      templateMessageBody(input),
      this.settings.timeoutMs ?? 15_000,
      interpretD360Answer,
    );
  }

  async sendService(input: ServiceSendRequest): Promise<SendResult> {
    const channel = this.settings.channelFor(input.phoneNumberId);
    if (!channel?.channelId || !channel.apiKey) return sendFailure({ code: MISSING_CREDENTIALS_CODE, title: 'No channel configured for this sender number' });
    return postTemplateMessage(this.agent, `${this.baseUrl}/messages`, { 'd360-api-key': channel.apiKey }, serviceMessageBody(input), this.settings.timeoutMs ?? 15_000, interpretD360Answer);
  }

  /**
   * 360dialog serves Meta's media endpoint at `GET {base}/{media-id}` with the channel's key; the
   * URL it answers is Meta's CDN, read through 360dialog's host with the same key (its media docs).
   */
  async fetchMedia(phoneNumberId: string, mediaId: string, maxBytes: number): Promise<MediaFetchResult> {
    const channel = this.settings.channelFor(phoneNumberId);
    if (!channel?.channelId || !channel.apiKey) return { ok: false, reason: 'no channel configured for this number', retryable: false };
    const base = new URL(this.baseUrl);
    const rewrite = (url: string) => {
      const target = new URL(url);
      if (target.hostname.endsWith('fbsbx.com') || target.hostname.endsWith('facebook.com')) {
        target.protocol = base.protocol;
        target.host = base.host;
      }
      return target.toString();
    };
    return fetchMediaByUrl(this.agent, `${this.baseUrl}/${encodeURIComponent(mediaId)}`, { 'd360-api-key': channel.apiKey }, maxBytes, this.settings.timeoutMs ?? 15_000, rewrite);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
