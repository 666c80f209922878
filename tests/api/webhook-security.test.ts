/**
 * Provider webhooks cannot be forged across accounts. Each test performs the
 * attack a customer holding their own app secret could make, and checks that it does nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Template, User } from '../../server/src/models';
import type { TestClient } from '../../server/test/client';
import { buildCampaign, buildTemplate, buildUser, signedInClient } from '../../server/test/factories';
import { numberChange, postWebhook, webhookBody } from '../../server/test/webhooks';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

describe.skipIf(postgresUnavailable)('provider webhooks: each entry speaks only for its own account', () => {
  let server: TestServer;
  let admin: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    admin = (await signedInClient(server, { role: 'admin' })).client;
  });
  afterAll(async () => {
    await server?.close();
  });

  let sequence = 0;
  interface Business {
    user: User;
    numberId: string;
    wabaId: string;
    secret: string;
    senderNumberId: number;
  }

  /** A customer with their own Cloud API number, business account and app secret. */
  async function business(creditRupees = 10): Promise<Business> {
    sequence += 1;
    const user = await buildUser(server, { creditRupees });
    const tag = `${Date.now() % 1e9}${sequence}`;
    const numberId = `1${tag}`;
    const wabaId = `waba${tag}`;
    const secret = `app-secret-${tag}`;
    const saved = await admin.put(`/api/admin/users/${user.id}/business-info`, {
      businessName: `Shop ${tag}`,
      whatsappNumber: '+91 98000 12345',
      whatsappNumberId: numberId,
      wabaId,
      accessToken: `EAAG-access-token-for-tests-${tag}`,
      appSecret: secret,
      isActive: true,
    });
    expect(saved.status).toBe(200);
    const number = (await server.db('whatsapp_numbers').where({ userId: user.id, provider: 'cloud_api' }).first('id')) as { id: number };
    return { user, numberId, wabaId, secret, senderNumberId: number.id };
  }

  /** A charged message sent from the business's number, with the given status; answers its provider id. */
  async function sentMessage(owner: Business, status: 'sent' | 'delivered', priceUnits = 8000): Promise<string> {
    const built = await buildCampaign(server, owner.user, { senderNumberId: owner.senderNumberId, priceUnits, messages: [{ status, recipient: '919888880001' }] });
    return built.messages[0]!.providerMessageId!;
  }

  const template = (owner: Business, status: 'DRAFT' | 'PENDING'): Promise<Template> => buildTemplate(server, owner.user, { status, body: 'Big sale on {{1}}' });

  const post = (body: unknown, secret: string | null, extraHeaders: Record<string, string> = {}) => postWebhook(server.url, body, secret, extraHeaders);
  // Meta gives each template its own id; events are matched by it before the name.
  let templateIds = 0;
  const templateChange = (name: string, event: string) => ({
    field: 'message_template_status_update',
    value: { event, message_template_id: ++templateIds, message_template_name: name, message_template_language: 'en_US', reason: 'INCORRECT_CATEGORY' },
  });
  const body = webhookBody;
  const t = () => String(Math.floor(Date.now() / 1000));
  const failed = (wamid: string) => ({ id: wamid, status: 'failed', timestamp: t(), recipient_id: '919888880001', errors: [{ code: 131026, title: 'Message undeliverable' }] });
  const balanceOf = async (user: User) => Number(((await server.db('users').where({ id: user.id }).first('creditBalance')) as { creditBalance: number }).creditBalance);
  const messageOf = async (wamid: string) =>
    (await server.db('messages').where({ providerMessageId: wamid }).first('status', 'refunded')) as { status: string; refunded: boolean | number };

  it("holds the refund when a customer's own secret reports their own sent message failed", async () => {
    const a = await business();
    const wamid = await sentMessage(a, 'sent');
    const before = await balanceOf(a.user);
    expect((await post(body({ id: a.wabaId, changes: [numberChange(a.numberId, { statuses: [failed(wamid)] })] }), a.secret)).status).toBe(200);
    await server.services.engine.ingest.drain();
    const message = await messageOf(wamid);
    expect(message.status).toBe('failed');
    expect(Boolean(message.refunded)).toBe(false);
    expect(await balanceOf(a.user)).toBe(before);
  });

  it("refunds at once when a secret the platform holds (the simulator's) reports the failure", async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const numbers = await client.get<{ data: { id: number; phone_number_id: string }[] }>('/api/whatsapp/numbers');
    const sandbox = numbers.body.data[0]!;
    const owner: Business = { user, numberId: sandbox.phone_number_id, wabaId: '', secret: server.config.simulator.appSecret, senderNumberId: sandbox.id };
    const wamid = await sentMessage(owner, 'sent');
    const before = await balanceOf(user);
    expect((await post(body({ id: 'sim', changes: [numberChange(owner.numberId, { statuses: [failed(wamid)] })] }), owner.secret)).status).toBe(200);
    await server.services.engine.ingest.drain();
    expect(Boolean((await messageOf(wamid)).refunded)).toBe(true);
    expect(await balanceOf(user)).toBe(before + 8000);
  });

  it("ignores entries about another customer's number or business in a body signed with one customer's secret", async () => {
    const attacker = await business();
    const victim = await business();
    const victimTemplate = await template(victim, 'PENDING');
    await server.db('suppressions').insert({ userId: victim.user.id, recipient: '919777770002', reason: 'stop_reply', createdAt: new Date().toISOString() });
    const forged = body(
      { id: attacker.wabaId, changes: [numberChange(attacker.numberId, { statuses: [] })] },
      {
        id: victim.wabaId,
        changes: [
          numberChange(victim.numberId, {
            messages: [{ id: 'wamid.in.forged', from: '919777770001', timestamp: t(), type: 'text', text: { body: 'STOP' } }],
            user_preferences: [{ wa_id: '919777770002', category: 'marketing_messages', value: 'resume', timestamp: t() }],
          }),
          templateChange(victimTemplate.name, 'REJECTED'),
        ],
      },
    );
    expect((await post(forged, attacker.secret)).status).toBe(200);
    const suppressed = (await server.db('suppressions').where({ userId: victim.user.id }).orderBy('recipient').select('recipient')) as { recipient: string }[];
    expect(suppressed.map((s) => s.recipient)).toEqual(['919777770002']);
    expect(((await server.db('templates').where({ id: victimTemplate.id }).first('status')) as { status: string }).status).toBe('PENDING');
  });

  it("applies a status only to messages sent from the entry's own number", async () => {
    const attacker = await business();
    const victim = await business();
    const wamid = await sentMessage(victim, 'sent');
    const before = await balanceOf(victim.user);
    // The attacker's own number, the victim's message id.
    expect((await post(body({ id: attacker.wabaId, changes: [numberChange(attacker.numberId, { statuses: [failed(wamid)] })] }), attacker.secret)).status).toBe(200);
    await server.services.engine.ingest.drain();
    expect(await messageOf(wamid)).toMatchObject({ status: 'sent' });
    expect(await balanceOf(victim.user)).toBe(before);
  });

  it("never approves a template from a webhook, and moves only PENDING ones", async () => {
    const a = await business();
    const draft = await template(a, 'DRAFT');
    const pending = await template(a, 'PENDING');
    const draftRejected = await template(a, 'DRAFT');
    const pendingRejected = await template(a, 'PENDING');
    const events = body({
      id: a.wabaId,
      changes: [templateChange(draft.name, 'APPROVED'), templateChange(pending.name, 'APPROVED'), templateChange(draftRejected.name, 'REJECTED'), templateChange(pendingRejected.name, 'REJECTED')],
    });
    expect((await post(events, a.secret)).status).toBe(200);
    const statusOf = async (id: number) => ((await server.db('templates').where({ id }).first('status')) as { status: string }).status;
    expect(await statusOf(draft.id)).toBe('DRAFT');
    expect(await statusOf(pending.id)).toBe('PENDING');
    expect(await statusOf(draftRejected.id)).toBe('DRAFT');
    expect(await statusOf(pendingRejected.id)).toBe('REJECTED');
  });

  it('lets the secret of a disabled business or a deactivated user verify nothing', async () => {
    const disabledBusiness = await business();
    const payload = (b: Business) => body({ id: b.wabaId, changes: [numberChange(b.numberId, { statuses: [] })] });
    expect((await post(payload(disabledBusiness), disabledBusiness.secret)).status).toBe(200);
    expect((await admin.put(`/api/admin/users/${disabledBusiness.user.id}/business-info`, { isActive: false })).status).toBe(200);
    expect((await post(payload(disabledBusiness), disabledBusiness.secret)).status).toBe(401);

    const disabledUser = await business();
    await server.db('users').where({ id: disabledUser.user.id }).update({ isActive: false });
    expect((await post(payload(disabledUser), disabledUser.secret)).status).toBe(401);
  });

  it('refuses unsigned requests before any database work', async () => {
    const ingest = server.services.webhooks;
    const original = ingest.receive.bind(ingest);
    let calls = 0;
    ingest.receive = async (...args) => {
      calls += 1;
      return original(...args);
    };
    try {
      const a = await business();
      const unsigned = await post(body({ id: a.wabaId, changes: [numberChange(a.numberId, { statuses: [] })] }), null);
      expect(unsigned.status).toBe(401);
      const malformed = await post(body({ id: a.wabaId, changes: [] }), null, { 'x-hub-signature-256': 'sha256=not-hex' });
      expect(malformed.status).toBe(401);
      expect(calls).toBe(0);
    } finally {
      ingest.receive = original;
    }
  });

  it('gives each number id, business account id and channel id to one account only', async () => {
    const first = await business();
    const second = await buildUser(server);
    const sameNumber = await admin.put(`/api/admin/users/${second.id}/business-info`, { businessName: 'Copy', whatsappNumberId: first.numberId });
    expect(sameNumber.status, JSON.stringify(sameNumber.body)).toBe(409);
    expect(sameNumber.body).toMatchObject({ code: 'number_id_taken' });
    const sameWaba = await admin.put(`/api/admin/users/${second.id}/business-info`, { businessName: 'Copy', wabaId: first.wabaId });
    expect(sameWaba.status).toBe(409);
    expect(sameWaba.body).toMatchObject({ code: 'waba_id_taken' });

    const channelId = `chan-${Date.now()}`;
    const third = await buildUser(server);
    expect((await admin.put(`/api/admin/whatsapp/settings/${first.user.id}`, { channelId })).status).toBe(200);
    const sameChannel = await admin.put(`/api/admin/whatsapp/settings/${third.id}`, { channelId });
    expect(sameChannel.status).toBe(409);
    expect(sameChannel.body).toMatchObject({ code: 'channel_id_taken' });
  });
});
