import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCampaignAccepted, TSenderNumber } from '@shared/schemas/sending';
import type { SendResult, TemplateSendRequest, WhatsAppProvider } from '../../server/src/sending/providers/types';
import { NETWORK_ERROR_CODE } from '../../server/src/sending/providers/types';
import type { TestClient } from '../../server/test/client';
import { buildTemplate, signedInClient } from '../../server/test/factories';
import { waitForCampaign } from '../../server/test/polling';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

/**
 * The dispatcher against a provider that answers what each test needs: retryable errors are
 * tried again up to the cap, others fail at once, and every final failure is refunded.
 */
describe.skipIf(postgresUnavailable)('dispatch: provider errors, retries and refunds', () => {
  let server: TestServer;
  const answers = new Map<string, (attempt: number) => SendResult>();
  const attempts = new Map<string, number>();

  beforeAll(async () => {
    server = await startTestServer({ DISPATCH_MAX_ATTEMPTS: '3' });
    const standIn: WhatsAppProvider = {
      kind: 'cloud_api',
      async sendTemplate(request: TemplateSendRequest): Promise<SendResult> {
        const attempt = (attempts.get(request.to) ?? 0) + 1;
        attempts.set(request.to, attempt);
        const answer = answers.get(request.to.slice(-4));
        return answer ? answer(attempt) : { ok: true, providerMessageId: `wamid.standin.${request.to}.${attempt}` };
      },
      parseWebhook: () => ({ statuses: [], messages: [], preferences: [] }),
      parseStatusWebhook: () => [],
      verifySignature: () => false,
      verifyHandshake: () => ({ ok: false }),
      close: async () => undefined,
    };
    server.services.engine.providers.providerFor = () => standIn;
  });
  afterAll(async () => {
    await server?.close();
  });

  async function send(client: TestClient, templateName: string, recipients: string[]): Promise<TCampaignAccepted> {
    const numbers = await client.get<{ data: TSenderNumber[] }>('/api/whatsapp/numbers');
    const res = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/quick-send', {
      phone_number_id: numbers.body.data[0]!.phone_number_id,
      template_name: templateName,
      language: 'en_US',
      recipients_text: recipients.join('\n'),
      variables: { '1': 'A' },
    });
    expect(res.status).toBe(200);
    return res.body.data;
  }

  it('fails non-retryable errors at once, retries retryable ones up to the cap, and refunds each final failure', async () => {
    answers.set('1001', () => ({ ok: false, code: 131047, title: 'Re-engagement message', retryable: false, httpStatus: 400 }));
    answers.set('1002', () => ({ ok: false, code: 500, title: 'Internal error', retryable: true, httpStatus: 500 }));
    answers.set('1003', (attempt) => (attempt < 2 ? { ok: false, code: NETWORK_ERROR_CODE, title: 'socket hang up', retryable: true } : { ok: true, providerMessageId: 'wamid.standin.recovered' }));
    answers.set('1004', () => ({ ok: false, code: 131050, title: 'User opted out of marketing messages', retryable: false, httpStatus: 400 }));

    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const template = await buildTemplate(server, user, { body: 'Hi {{1}}' });

    const accepted = await send(client, template.name, ['919700001001', '919700001002', '919700001003', '919700001004', '919700001005']);
    expect(accepted.accepted).toBe(5);
    const campaign = await waitForCampaign(client, accepted.campaignId, (c) => c.status === 'completed', { intervalMs: 100 });
    const rows = (await server.db('messages').where({ campaignId: accepted.campaignId }).select('recipient', 'status', 'errorCode', 'attempts', 'refunded')) as { recipient: string; status: string; errorCode: number | null; attempts: number; refunded: unknown }[];
    const by = Object.fromEntries(rows.map((r) => [r.recipient.slice(-4), { ...r, refunded: Boolean(r.refunded) }]));
    expect(by['1001']).toMatchObject({ status: 'failed', errorCode: 131047, attempts: 1, refunded: true });
    expect(by['1002']).toMatchObject({ status: 'failed', errorCode: 500, attempts: 3, refunded: true });
    expect(by['1003']).toMatchObject({ status: 'sent', attempts: 2, refunded: false });
    expect(by['1004']).toMatchObject({ status: 'failed', errorCode: 131050, refunded: true });
    expect(by['1005']).toMatchObject({ status: 'sent', attempts: 1 });
    expect(campaign.refunded).toBe(2.4);
    expect(await server.services.wallet.balance(user.id)).toBe(100_000 - 5 * 8000 + 3 * 8000);

    // 131050 also stops later sends to that recipient, uncharged.
    const again = await send(client, template.name, ['919700001004', '919700001006']);
    expect(again).toMatchObject({ accepted: 1, suppressed: 1 });
  });
});
