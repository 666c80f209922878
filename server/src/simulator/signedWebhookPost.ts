import { request, type Dispatcher } from 'undici';
import { signWebhookBody } from '../sending/providers/webhooks';

/**
 * Where a webhook goes and how it is authenticated: Meta signs the raw bytes with the app's secret
 * (`X-Hub-Signature-256`); 360dialog forwards Meta's payload unsigned, with the custom headers given
 * when its webhook URL was set (`POST /v1/configs/webhook`).
 */
export interface WebhookTarget {
  url: string;
  appSecret?: string;
  headers?: Record<string, string>;
}

/**
 * Posts one webhook body and answers the failure, or null when the endpoint took it (a 2xx). Meta
 * counts anything else, or no answer within its timeout, as a delivery to try again.
 */
export async function postWebhook(dispatcher: Dispatcher, target: WebhookTarget, raw: string): Promise<Error | null> {
  try {
    const response = await request(target.url, {
      dispatcher,
      method: 'POST',
      headers: {
        ...target.headers,
        'content-type': 'application/json',
        ...(target.appSecret !== undefined ? { 'x-hub-signature-256': signWebhookBody(raw, target.appSecret) } : {}),
      },
      body: raw,
      signal: AbortSignal.timeout(10_000),
    });
    await response.body.dump();
    if (response.statusCode >= 200 && response.statusCode < 300) return null;
    return new Error(`Webhook answered HTTP ${response.statusCode}`);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
