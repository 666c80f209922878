/** Provider webhooks as Meta shapes and signs them, posted to a test server. */
import { signWebhookBody } from '../src/sending/providers/webhooks';

/** POSTs a webhook body signed with `secret` (unsigned when null). */
export function postWebhook(baseUrl: string, body: unknown, secret: string | null, extraHeaders: Record<string, string> = {}): Promise<Response> {
  const raw = JSON.stringify(body);
  return fetch(`${baseUrl}/api/webhooks/whatsapp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(secret ? { 'x-hub-signature-256': signWebhookBody(raw, secret) } : {}), ...extraHeaders },
    body: raw,
  });
}

/** A webhook body: entries of a business account, each with its changes. */
export function webhookBody(...entries: { id: string; changes: unknown[] }[]): { object: string; entry: unknown[] } {
  return { object: 'whatsapp_business_account', entry: entries };
}

/** A change about one sender number (statuses, incoming messages). */
export function numberChange(phoneNumberId: string, value: Record<string, unknown>): { field: string; value: Record<string, unknown> } {
  return { field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '1555', phone_number_id: phoneNumberId }, ...value } };
}

/** One message status event; `timestamp` in seconds, as Meta sends it. */
export function statusEvent(id: string, status: string, timestamp: number, recipient = '919888880001'): Record<string, unknown> {
  return { id, status, timestamp: String(timestamp), recipient_id: recipient };
}
