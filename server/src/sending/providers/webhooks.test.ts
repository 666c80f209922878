import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseCloudApiWebhook, parseWebhookChanges, signWebhookBody, verifyWebhookHandshake, verifyWebhookSignature } from './webhooks';
import { CloudApiProvider } from './cloudApi';

const APP_SECRET = 'app-secret-for-tests';

/** As Meta sends them (docs examples, ids shortened). */
const statusPayload = {
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '102290129340398',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
            statuses: [
              {
                id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDQjZCMzlEQUE4OTJBMTE4RTUA',
                status: 'sent',
                timestamp: '1750263773',
                recipient_id: '16505551234',
                conversation: { id: '6ceb9d929c3f6a4b4ba9ee5e5ee5da0e', expiration_timestamp: '1750350180', origin: { type: 'marketing' } },
                pricing: { billable: true, pricing_model: 'PMP', category: 'marketing', type: 'regular' },
              },
              { id: 'wamid.B', status: 'delivered', timestamp: '1750263775', recipient_id: '16505551234' },
              { id: 'wamid.C', status: 'read', timestamp: 1750263790, recipient_id: '16505551234' },
              {
                id: 'wamid.D',
                status: 'failed',
                timestamp: '1750263800',
                recipient_id: '919876540000',
                errors: [
                  {
                    code: 131026,
                    title: 'Message undeliverable',
                    message: 'Message undeliverable',
                    error_data: { details: 'Message Undeliverable.' },
                    href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
                  },
                ],
              },
              { id: 'wamid.E', status: 'deleted', timestamp: '1750263801', recipient_id: '16505551234' },
              { id: 'wamid.F', status: 'sent', recipient_id: '16505551234' },
            ],
          },
        },
      ],
    },
  ],
};

const inboundPayload = {
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '102290129340398',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
            contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' }],
            messages: [
              { from: '16505551234', id: 'wamid.IN1', timestamp: '1749416383', type: 'text', text: { body: 'STOP' } },
              {
                from: '16505551235',
                id: 'wamid.IN2',
                timestamp: '1749416384',
                type: 'button',
                context: { from: '15550783881', id: 'wamid.OUT' },
                button: { payload: 'Stop promotions', text: 'Stop promotions' },
              },
              { from: '16505551236', id: 'wamid.IN3', timestamp: '1749416385', type: 'image', image: { id: '123', mime_type: 'image/jpeg' } },
            ],
          },
        },
      ],
    },
  ],
};

const preferencesPayload = {
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '102290129340398',
      changes: [
        {
          field: 'user_preferences',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
            contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' }],
            user_preferences: [
              { wa_id: '16505551234', detail: 'User requested to stop marketing messages', category: 'marketing_messages', value: 'stop', timestamp: 1731705721 },
              { wa_id: '16505551235', detail: 'User requested to resume marketing messages', category: 'marketing_messages', value: 'resume', timestamp: 1731705722 },
            ],
          },
        },
      ],
    },
  ],
};

describe('verifyWebhookSignature', () => {
  const raw = Buffer.from(JSON.stringify(statusPayload));
  const good = 'sha256=' + createHmac('sha256', APP_SECRET).update(raw).digest('hex');

  it('accepts the HMAC-SHA256 of the raw body with the app secret', () => {
    expect(verifyWebhookSignature(raw, good, APP_SECRET)).toBe(true);
    expect(verifyWebhookSignature(raw.toString('utf8'), good.toUpperCase().replace('SHA256=', 'sha256='), APP_SECRET)).toBe(true);
    expect(signWebhookBody(raw, APP_SECRET)).toBe(good);
  });

  it('refuses a signature made with another secret or over another body', () => {
    expect(verifyWebhookSignature(raw, signWebhookBody(raw, 'someone-else'), APP_SECRET)).toBe(false);
    expect(verifyWebhookSignature(Buffer.concat([raw, Buffer.from(' ')]), good, APP_SECRET)).toBe(false);
  });

  it('refuses a missing, malformed or sha1 signature', () => {
    expect(verifyWebhookSignature(raw, undefined, APP_SECRET)).toBe(false);
    expect(verifyWebhookSignature(raw, '', APP_SECRET)).toBe(false);
    expect(verifyWebhookSignature(raw, 'sha256=abc', APP_SECRET)).toBe(false);
    expect(verifyWebhookSignature(raw, good.replace('sha256=', 'sha1='), APP_SECRET)).toBe(false);
    expect(verifyWebhookSignature(raw, good, '')).toBe(false);
  });
});

describe('verifyWebhookHandshake', () => {
  it('echoes the challenge for subscribe with our token', () => {
    expect(verifyWebhookHandshake({ 'hub.mode': 'subscribe', 'hub.verify_token': 'tok', 'hub.challenge': '1158201444' }, 'tok')).toEqual({ ok: true, challenge: '1158201444' });
    expect(verifyWebhookHandshake({ hub: { mode: 'subscribe', verify_token: 'tok', challenge: '42' } }, 'tok')).toEqual({ ok: true, challenge: '42' });
  });

  it('refuses a wrong token, another mode, a missing challenge or an unset token', () => {
    expect(verifyWebhookHandshake({ 'hub.mode': 'subscribe', 'hub.verify_token': 'nope', 'hub.challenge': '1' }, 'tok')).toEqual({ ok: false });
    expect(verifyWebhookHandshake({ 'hub.mode': 'unsubscribe', 'hub.verify_token': 'tok', 'hub.challenge': '1' }, 'tok')).toEqual({ ok: false });
    expect(verifyWebhookHandshake({ 'hub.mode': 'subscribe', 'hub.verify_token': 'tok' }, 'tok')).toEqual({ ok: false });
    expect(verifyWebhookHandshake({ 'hub.mode': 'subscribe', 'hub.verify_token': '', 'hub.challenge': '1' }, '')).toEqual({ ok: false });
  });
});

describe('parseCloudApiWebhook', () => {
  it('reads sent, delivered, read and failed statuses and skips the rest', () => {
    const { statuses, messages, preferences } = parseCloudApiWebhook(statusPayload);
    expect(messages).toEqual([]);
    expect(preferences).toEqual([]);
    expect(statuses.map((s) => [s.providerMessageId, s.status])).toEqual([
      ['wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDQjZCMzlEQUE4OTJBMTE4RTUA', 'sent'],
      ['wamid.B', 'delivered'],
      ['wamid.C', 'read'],
      ['wamid.D', 'failed'],
    ]);
    expect(statuses[0]).toMatchObject({ recipient: '16505551234', phoneNumberId: '106540352242922', timestamp: new Date(1750263773_000) });
    expect(statuses[2]?.timestamp).toEqual(new Date(1750263790_000));
    expect(statuses[3]?.error).toEqual({ code: 131026, title: 'Message undeliverable', details: 'Message Undeliverable.' });
    expect(statuses[0]?.error).toBeUndefined();
  });

  it('reads inbound texts and quick-reply buttons for opt-outs', () => {
    const { messages, statuses } = parseCloudApiWebhook(inboundPayload);
    expect(statuses).toEqual([]);
    // Each carries Meta's object as received (conversations/inboundMessage.ts reads every kind from it).
    expect(messages.map(({ raw, profileName: _profileName, ...rest }) => ({ ...rest, rawId: raw.id }))).toEqual([
      { providerMessageId: 'wamid.IN1', from: '16505551234', phoneNumberId: '106540352242922', timestamp: new Date(1749416383_000), type: 'text', text: 'STOP', buttonPayload: null, rawId: 'wamid.IN1' },
      { providerMessageId: 'wamid.IN2', from: '16505551235', phoneNumberId: '106540352242922', timestamp: new Date(1749416384_000), type: 'button', text: 'Stop promotions', buttonPayload: 'Stop promotions', rawId: 'wamid.IN2' },
      { providerMessageId: 'wamid.IN3', from: '16505551236', phoneNumberId: '106540352242922', timestamp: new Date(1749416385_000), type: 'image', text: null, buttonPayload: null, rawId: 'wamid.IN3' },
    ]);
  });

  it('reads user_preferences marketing stop and resume events', () => {
    expect(parseCloudApiWebhook(preferencesPayload).preferences).toEqual([
      { waId: '16505551234', phoneNumberId: '106540352242922', category: 'marketing_messages', value: 'stop', timestamp: new Date(1731705721_000) },
      { waId: '16505551235', phoneNumberId: '106540352242922', category: 'marketing_messages', value: 'resume', timestamp: new Date(1731705722_000) },
    ]);
  });

  it('answers nothing for bodies that are not webhooks', () => {
    const empty = { statuses: [], messages: [], preferences: [] };
    expect(parseCloudApiWebhook(null)).toEqual(empty);
    expect(parseCloudApiWebhook('text')).toEqual(empty);
    expect(parseCloudApiWebhook({ object: 'page', entry: [{ changes: [{ field: 'feed', value: 'x' }] }] })).toEqual(empty);
  });

  it('is what the adapters expose as parseStatusWebhook', async () => {
    const provider = new CloudApiProvider({ baseUrl: 'http://127.0.0.1:9', apiVersion: 'v23.0', accessToken: 't' });
    expect(provider.parseStatusWebhook(statusPayload)).toHaveLength(4);
    expect(provider.verifyHandshake({ 'hub.mode': 'subscribe', 'hub.verify_token': 'v', 'hub.challenge': 'c' }, 'v')).toEqual({ ok: true, challenge: 'c' });
    await provider.close();
  });
});

describe("Meta's pricing on statuses and number-health changes", () => {
  const status = (pricing: unknown) => ({
    entry: [{ changes: [{ field: 'messages', value: { metadata: { phone_number_id: '111' }, statuses: [{ id: 'wamid.A', status: 'delivered', timestamp: '1700000000', recipient_id: '919800000001', pricing }] } }] }],
  });

  it("keeps a status's pricing as Meta sends it (category lower-cased)", () => {
    const [event] = parseCloudApiWebhook(status({ billable: true, pricing_model: 'PMP', category: 'MARKETING', type: 'regular' })).statuses;
    expect(event?.pricing).toEqual({ billable: true, category: 'marketing', pricingModel: 'PMP', type: 'regular' });
  });

  it('drops a malformed pricing, never the status it rides on', () => {
    const { statuses } = parseCloudApiWebhook(status({ billable: 'yes' }));
    expect(statuses).toHaveLength(1);
    expect(statuses[0]?.pricing).toBeUndefined();
  });

  it('reads phone_number_quality_update and account_update as number-health events of the business account', () => {
    const body = {
      entry: [
        {
          id: 'WABA1',
          time: 1748454394,
          changes: [
            { field: 'phone_number_quality_update', value: { display_phone_number: '15550783881', event: 'THROUGHPUT_UPGRADE', current_limit: 'TIER_UNLIMITED' } },
            { field: 'phone_number_quality_update', value: { display_phone_number: '+1 555 078 3881', event: 'UPGRADE', current_limit: 'TIER_10K', max_daily_conversations_per_business: 'TIER_100K' } },
            { field: 'account_update', value: { phone_number: '15550783881', event: 'ACCOUNT_VIOLATION' } },
          ],
        },
      ],
    };
    const changes = parseWebhookChanges(body);
    expect(changes.map((c) => (c.kind === 'business' ? c.numberHealth : null))).toEqual([
      { field: 'phone_number_quality_update', displayNumber: '15550783881', event: 'THROUGHPUT_UPGRADE', messagingLimitTier: 'TIER_UNLIMITED', at: new Date(1748454394_000) },
      { field: 'phone_number_quality_update', displayNumber: '15550783881', event: 'UPGRADE', messagingLimitTier: 'TIER_100K', at: new Date(1748454394_000) },
      { field: 'account_update', displayNumber: '15550783881', event: 'ACCOUNT_VIOLATION', messagingLimitTier: null, at: new Date(1748454394_000) },
    ]);
    expect(changes.every((c) => c.kind === 'business' && c.unknown === null && c.templates.length === 0)).toBe(true);
  });
});
