import { request, type Dispatcher } from 'undici';
import { signWebhookBody } from '../sending/providers/webhooks';

/**
 * Posts one webhook body signed as Meta signs it (`X-Hub-Signature-256` over the raw bytes) and
 * answers the failure, or null when the endpoint took it (a 2xx). Meta counts anything else, or no
 * answer within its timeout, as a delivery to try again.
 */
export async function postSignedWebhook(dispatcher: Dispatcher, target: { url: string; appSecret: string }, raw: string): Promise<Error | null> {
  try {
    const response = await request(target.url, {
      dispatcher,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signWebhookBody(raw, target.appSecret) },
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

/**
 * Posts one webhook body as 360dialog forwards it: Meta's payload, unsigned, with the custom
 * headers given when the webhook URL was set (`POST /v1/configs/webhook`). Same answer as above.
 */
export async function postForwardedWebhook(dispatcher: Dispatcher, target: { url: string; headers: Record<string, string> }, raw: string): Promise<Error | null> {
  try {
    const response = await request(target.url, {
      dispatcher,
      method: 'POST',
      headers: { ...target.headers, 'content-type': 'application/json' },
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
