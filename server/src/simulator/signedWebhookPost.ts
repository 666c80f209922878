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
