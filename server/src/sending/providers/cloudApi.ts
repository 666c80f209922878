import type { Agent } from 'undici';
import { CloudApiShapedProvider, createAgent, fetchMediaByUrl, postTemplateMessage, serviceMessageBody, templateMessageBody, type HttpSettings } from './http';
import { MISSING_CREDENTIALS_CODE, sendFailure, type MediaFetchResult, type SendResult, type ServiceSendRequest, type TemplateSendRequest, type WhatsAppProvider } from './types';

export interface CloudApiSettings extends HttpSettings {
  /** `https://graph.facebook.com` in production; the simulator's URL in development and tests. */
  baseUrl: string;
  /** Graph API version segment, e.g. `v23.0`. */
  apiVersion: string;
  /**
   * A system-user token for every number, or one per sender when numbers sit in different
   * businesses. Null means the number has no credentials (answered as a non-retryable error).
   */
  accessToken: string | ((phoneNumberId: string) => string | null);
}

/**
 * Meta's WhatsApp Cloud API: `POST {baseUrl}/{version}/{phoneNumberId}/messages` with a bearer
 * token. Webhooks arrive signed with the app secret (`X-Hub-Signature-256`).
 */
export class CloudApiProvider extends CloudApiShapedProvider implements WhatsAppProvider {
  readonly kind = 'cloud_api' as const;
  private readonly agent: Agent;
  private readonly baseUrl: string;

  constructor(private readonly settings: CloudApiSettings) {
    super();
    this.agent = createAgent(settings);
    this.baseUrl = settings.baseUrl.replace(/\/+$/, '');
  }

  async sendTemplate(input: TemplateSendRequest): Promise<SendResult> {
    const { accessToken } = this.settings;
    const token = typeof accessToken === 'function' ? accessToken(input.phoneNumberId) : accessToken;
    if (!token) return sendFailure({ code: MISSING_CREDENTIALS_CODE, title: 'No access token for this sender number' });
    const url = `${this.baseUrl}/${encodeURIComponent(this.settings.apiVersion)}/${encodeURIComponent(input.phoneNumberId)}/messages`;
    return postTemplateMessage(this.agent, url, { authorization: `Bearer ${token}` }, templateMessageBody(input), this.settings.timeoutMs ?? 15_000);
  }

  async sendService(input: ServiceSendRequest): Promise<SendResult> {
    const token = this.tokenFor(input.phoneNumberId);
    if (!token) return sendFailure({ code: MISSING_CREDENTIALS_CODE, title: 'No access token for this sender number' });
    const url = `${this.baseUrl}/${encodeURIComponent(this.settings.apiVersion)}/${encodeURIComponent(input.phoneNumberId)}/messages`;
    return postTemplateMessage(this.agent, url, { authorization: `Bearer ${token}` }, serviceMessageBody(input), this.settings.timeoutMs ?? 15_000);
  }

  async fetchMedia(phoneNumberId: string, mediaId: string, maxBytes: number): Promise<MediaFetchResult> {
    const token = this.tokenFor(phoneNumberId);
    if (!token) return { ok: false, reason: 'no access token for this number', retryable: false };
    const url = `${this.baseUrl}/${encodeURIComponent(this.settings.apiVersion)}/${encodeURIComponent(mediaId)}`;
    return fetchMediaByUrl(this.agent, url, { authorization: `Bearer ${token}` }, maxBytes, this.settings.timeoutMs ?? 15_000);
  }

  private tokenFor(phoneNumberId: string): string | null {
    const { accessToken } = this.settings;
    return typeof accessToken === 'function' ? accessToken(phoneNumberId) : accessToken;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
