/** Send calls as the tests make them over HTTP: the user's number, quick sends and the public API. */
import { expect } from 'vitest';
import type { TCampaignAccepted, TSenderNumber } from '@shared/schemas/sending';
import type { Template } from '../src/models';
import type { TestClient } from './client';

/** The first number the user may send from: the sandbox number every user gets. */
export async function sandboxNumber(client: TestClient): Promise<TSenderNumber> {
  const res = await client.get<{ data: TSenderNumber[] }>('/api/whatsapp/numbers');
  expect(res.status).toBe(200);
  return res.body.data[0] as TSenderNumber;
}

export interface QuickSendOptions {
  template: Template;
  recipients: readonly string[];
  variables: Record<string, string>;
  campaignName?: string;
  /** Default: the bulk path for more than 50 recipients, as the screen does. */
  path?: '/api/whatsapp/quick-send' | '/api/whatsapp/bulk-quick-send';
}

/** A quick send from the sandbox number, expected to be accepted; answers its figures. */
export async function quickSend(client: TestClient, options: QuickSendOptions): Promise<TCampaignAccepted> {
  const number = await sandboxNumber(client);
  const res = await client.post<{ data: TCampaignAccepted }>(options.path ?? (options.recipients.length > 50 ? '/api/whatsapp/bulk-quick-send' : '/api/whatsapp/quick-send'), {
    phone_number_id: number.phone_number_id,
    template_name: options.template.name,
    language: options.template.language,
    recipients_text: options.recipients.join('\n'),
    variables: options.variables,
    ...(options.campaignName ? { campaign_name: options.campaignName } : {}),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** A new API key of the signed-in user. */
export async function apiKeyFor(client: TestClient, name = 'integration'): Promise<string> {
  const created = await client.post<{ data: { key: string } }>('/api/keys', { name });
  expect(created.status).toBe(201);
  return created.body.data.key;
}

/** A call to the public send API with an API key (no session), answered as status and parsed body. */
export async function postApiSend<T = Record<string, unknown>>(baseUrl: string, key: string, body: unknown, path = '/api/send'): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as T };
}
