import type { Agent } from 'undici';
import { CloudApiShapedProvider, createAgent, postTemplateMessage, templateMessageBody, type HttpSettings } from './http';
import { MISSING_CREDENTIALS_CODE, sendFailure, type SendResult, type TemplateSendRequest, type WhatsAppProvider } from './types';

export interface ChannelCredentials {
  channelId: string;
  apiKey: string;
}

export interface ChannelSettings extends HttpSettings {
  baseUrl: string;
  /** The channel (and its key) that sends for a sender number; null when none is configured. */
  channelFor: (phoneNumberId: string) => ChannelCredentials | null;
  /** Path of the send call; default `/v1/channels/{channelId}/messages`. */
  messagesPath?: (channelId: string) => string;
  /** Header carrying the API key; default `X-API-Key`. */
  apiKeyHeader?: string;
}

/**
 * The third-party channel provider (a WhatsApp Business Solution Provider). The issue fixes only
 * "channel id + API key, Cloud API message shapes"; the URL layout and header name are our
 * assumption, modelled on common BSP APIs, and are settings so that the real provider's layout
 * can be plugged in without code changes:
 *   POST {baseUrl}/v1/channels/{channelId}/messages   X-API-Key: <key>   body: Cloud API message
 * answered like the Cloud API (`messages[0].id`, or `error.code`/`error.title`). Its webhooks are
 * assumed to forward Meta's envelope, signed `X-Hub-Signature-256` with the channel's webhook
 * secret. The simulator also serves this layout.
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
    const path = this.settings.messagesPath?.(channel.channelId) ?? `/v1/channels/${encodeURIComponent(channel.channelId)}/messages`;
    const header = (this.settings.apiKeyHeader ?? 'X-API-Key').toLowerCase();
    return postTemplateMessage(this.agent, this.baseUrl + path, { [header]: channel.apiKey }, templateMessageBody(input), this.settings.timeoutMs ?? 15_000);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
