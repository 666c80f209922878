/**
 * Numbers' health at Meta (docs/sending.md "Numbers' health"): a Cloud API number's quality
 * rating, messaging limit tier, throughput level and display name status are read from
 * `GET /{phone-number-id}`, again on Meta's `phone_number_quality_update` and `account_update`
 * webhooks and daily; the number's sending rate follows its throughput level; the cost preview
 * warns of the messaging limit and of a RED quality. "Meta" is the embedded simulator, reached
 * through WHATSAPP_API_BASE; each business has its own number and app secret there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import type { TAdminNumberHealth, TNumberHealth } from '@shared/schemas/numberHealth';
import type { TCostPreview, TSenderNumber } from '@shared/schemas/sending';
import type { User } from '../../server/src/models';
import type { TestClient } from '../../server/test/client';
import { buildTemplate, signedInClient } from '../../server/test/factories';
import { freePort, plainRecipients } from '../../server/test/campaignFlow';
import { pollUntil } from '../../server/test/polling';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';
import { SIMULATOR_ACCESS_TOKEN } from '../../server/src/sending/providerRegistry';
import { DailyNumberHealth } from '../../server/src/sending/numberHealth';
import { createLogger } from '../../server/src/logger';
import type { SimulatorNumbers } from '../../server/src/simulator/numbers';

describe.skipIf(postgresUnavailable)("Numbers' health at Meta", () => {
  let server: TestServer;
  let admin: TestClient;
  let meta: SimulatorNumbers;
  beforeAll(async () => {
    const port = await freePort();
    server = await startTestServer({ PORT: String(port), WHATSAPP_API_BASE: `http://127.0.0.1:${port}/simulator` });
    admin = (await signedInClient(server, { role: 'admin' })).client;
    meta = server.services.simulator!.numbers;
  });
  afterAll(async () => {
    await server?.close();
  });

  let sequence = 0;
  interface Business {
    user: User;
    client: TestClient;
    wabaId: string;
    appSecret: string;
    phoneNumberId: string;
    /** Digits of the display number, as Meta's webhooks name it. */
    display: string;
    numberId: number;
  }

  /** A customer with a Cloud API number of their own at "Meta". */
  async function business(): Promise<Business> {
    sequence += 1;
    const { client, user } = await signedInClient(server, { creditRupees: 50 });
    const tag = `${Date.now() % 1e8}${sequence}`;
    const local = `98${String((Date.now() + sequence) % 1e8).padStart(8, '0')}`;
    const appSecret = `app-secret-${tag}`;
    const saved = await admin.put(`/api/admin/users/${user.id}/business-info`, {
      businessName: `Shop ${tag}`,
      whatsappNumber: `+91 ${local}`,
      whatsappNumberId: `3${tag}`,
      wabaId: `waba${tag}`,
      accessToken: SIMULATOR_ACCESS_TOKEN,
      appSecret,
      isActive: true,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const row = (await server.db('whatsapp_numbers').where({ userId: user.id, provider: 'cloud_api' }).first()) as { id: number };
    return { user, client, wabaId: `waba${tag}`, appSecret, phoneNumberId: `3${tag}`, display: `91${local}`, numberId: Number(row.id) };
  }

  interface Row {
    qualityRating: string | null;
    messagingLimitTier: string | null;
    throughputLevel: string | null;
    nameStatus: string | null;
    messagesPerSecond: number;
    healthUpdatedAt: string | Date | null;
  }
  const rowOf = async (id: number) => (await server.db('whatsapp_numbers').where({ id }).first()) as Row;

  it("reads quality, messaging limit, throughput and name status from GET /{phone-number-id} and shows them to the owner and the admin", async () => {
    const owner = await business();
    meta.setHealth(owner.phoneNumberId, { quality_rating: 'YELLOW', messaging_limit_tier: 'TIER_10K', throughput: 'HIGH', name_status: 'PENDING_REVIEW' });
    const refreshed = await owner.client.post<{ health: TNumberHealth; message: string }>(`/api/whatsapp/numbers/${owner.numberId}/health/refresh`);
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(refreshed.body.message).toBe(messages.numberHealth.refreshed);
    expect(refreshed.body.health).toMatchObject({ quality_rating: 'YELLOW', messaging_limit_tier: 'TIER_10K', messaging_limit: 10_000, throughput_level: 'HIGH', name_status: 'PENDING_REVIEW', error: null });
    expect(refreshed.body.health.updated_at).not.toBeNull();

    const numbers = await owner.client.get<{ data: TSenderNumber[] }>('/api/whatsapp/numbers');
    const cloud = numbers.body.data.find((n) => n.provider === 'cloud_api');
    expect(cloud?.health).toMatchObject({ quality_rating: 'YELLOW', messaging_limit_tier: 'TIER_10K', throughput_level: 'HIGH', name_status: 'PENDING_REVIEW' });
    // The throughput level sets the number's rate: 1,000 messages a second when HIGH.
    expect(cloud?.messages_per_second).toBe(1_000);
    // The sandbox number has no health at Meta and keeps its configured rate.
    const sandbox = numbers.body.data.find((n) => n.provider === 'simulator');
    expect(sandbox?.health).toBeNull();
    expect(sandbox?.messages_per_second).toBe(server.config.sending.sandboxMessagesPerSecond);

    const listed = await admin.get<{ numbers: TAdminNumberHealth[] }>('/api/admin/numbers/health');
    expect(listed.status).toBe(200);
    expect(listed.body.numbers.find((n) => n.id === owner.numberId)).toMatchObject({ user_id: owner.user.id, phone_number_id: owner.phoneNumberId, messages_per_second: 1_000, health: { quality_rating: 'YELLOW' } });

    // Another account cannot read someone else's number.
    const other = await business();
    expect((await other.client.post(`/api/whatsapp/numbers/${owner.numberId}/health/refresh`)).status).toBe(404);
  });

  it('keeps the last health and records why when Meta refuses the read', async () => {
    const owner = await business();
    meta.setHealth(owner.phoneNumberId, { quality_rating: 'GREEN', messaging_limit_tier: 'TIER_1K', throughput: 'STANDARD' });
    await server.services.numberHealth.refresh(owner.numberId);
    // The business's token no longer works at Meta (credentials are read per call).
    const saved = await admin.put(`/api/admin/users/${owner.user.id}/business-info`, {
      businessName: 'Shop expired',
      whatsappNumber: `+${owner.display}`,
      whatsappNumberId: owner.phoneNumberId,
      wabaId: owner.wabaId,
      accessToken: 'expired-token',
      appSecret: owner.appSecret,
      isActive: true,
    });
    expect(saved.status).toBe(200);
    const row = await server.services.numberHealth.refresh(owner.numberId);
    expect(row?.healthError).toMatch(/access token/i);
    expect(row).toMatchObject({ qualityRating: 'GREEN', messagingLimitTier: 'TIER_1K', throughputLevel: 'STANDARD' });
  });

  it('applies a phone_number_quality_update webhook (answered 200): throughput upgraded and the limit raised', async () => {
    const owner = await business();
    meta.setHealth(owner.phoneNumberId, { quality_rating: 'GREEN', messaging_limit_tier: 'TIER_1K', throughput: 'STANDARD' });
    await server.services.numberHealth.refresh(owner.numberId);
    expect(await rowOf(owner.numberId)).toMatchObject({ throughputLevel: 'STANDARD', messagesPerSecond: 80 });

    // Meta upgrades the number, then says so; the simulator posts the webhook signed by the business's app.
    meta.setHealth(owner.phoneNumberId, { messaging_limit_tier: 'TIER_100K', throughput: 'HIGH' });
    const error = await meta.postHealthWebhook(
      owner.wabaId,
      'phone_number_quality_update',
      { display_phone_number: owner.display, event: 'THROUGHPUT_UPGRADE', current_limit: 'TIER_UNLIMITED', max_daily_conversations_per_business: 'TIER_100K' },
      owner.appSecret,
    );
    expect(error).toBeNull();
    const row = await pollUntil(() => rowOf(owner.numberId), (r) => r.throughputLevel === 'HIGH' && r.messagingLimitTier === 'TIER_100K', { what: 'quality update applied' });
    expect(Number(row.messagesPerSecond)).toBe(1_000);
    // Nothing was kept as an unknown event: the field is one we act on.
    const unknown = (await server.db('webhook_unknown_events').where({ wabaId: owner.wabaId })) as unknown[];
    expect(unknown).toHaveLength(0);
  });

  it('applies an account_update webhook by reading the number again: quality RED and the name declined', async () => {
    const owner = await business();
    meta.setHealth(owner.phoneNumberId, { quality_rating: 'GREEN', name_status: 'APPROVED' });
    await server.services.numberHealth.refresh(owner.numberId);
    meta.setHealth(owner.phoneNumberId, { quality_rating: 'RED', name_status: 'DECLINED' });
    const error = await meta.postHealthWebhook(owner.wabaId, 'account_update', { phone_number: owner.display, event: 'ACCOUNT_VIOLATION' }, owner.appSecret);
    expect(error).toBeNull();
    await pollUntil(() => rowOf(owner.numberId), (r) => r.qualityRating === 'RED' && r.nameStatus === 'DECLINED', { what: 'account update applied' });
    const unknown = (await server.db('webhook_unknown_events').where({ wabaId: owner.wabaId })) as unknown[];
    expect(unknown).toHaveLength(0);
  });

  it("ignores a number-health webhook not signed by the business's own app", async () => {
    const owner = await business();
    meta.setHealth(owner.phoneNumberId, { throughput: 'STANDARD' });
    await server.services.numberHealth.refresh(owner.numberId);
    meta.setHealth(owner.phoneNumberId, { throughput: 'HIGH' });
    const error = await meta.postHealthWebhook(owner.wabaId, 'phone_number_quality_update', { display_phone_number: owner.display, event: 'THROUGHPUT_UPGRADE' }, 'not-their-secret');
    // Refused: the body names a known account but is not signed by it.
    expect(error).not.toBeNull();
    expect(await rowOf(owner.numberId)).toMatchObject({ throughputLevel: 'STANDARD', messagesPerSecond: 80 });
  });

  it('reads every number once a day, once across instances', async () => {
    const owner = await business();
    meta.setHealth(owner.phoneNumberId, { quality_rating: 'YELLOW', messaging_limit_tier: 'TIER_250', throughput: 'STANDARD', name_status: 'APPROVED' });
    // A day far from today's, so no other run (a real instance's tick) has claimed it.
    const day = new Date(Date.UTC(2031, 0, 1 + (Date.now() % 3000), 6, 0));
    const log = createLogger(server.config);
    const first = new DailyNumberHealth({ db: server.db, health: server.services.numberHealth, hourIst: 5, log, now: () => day });
    const second = new DailyNumberHealth({ db: server.db, health: server.services.numberHealth, hourIst: 5, log, now: () => day });
    const [a, b] = await Promise.all([first.tick(), second.tick()]);
    const ran = [a, b].filter((run) => run !== null);
    expect(ran).toHaveLength(1);
    expect(ran[0]?.numbers).toBeGreaterThanOrEqual(1);
    expect(await rowOf(owner.numberId)).toMatchObject({ qualityRating: 'YELLOW', messagingLimitTier: 'TIER_250' });
    // Before the hour, nothing is due.
    const early = new DailyNumberHealth({ db: server.db, health: server.services.numberHealth, hourIst: 23, log, now: () => new Date(Date.UTC(2031, 0, 1, 0, 0)) });
    expect(await early.tick()).toBeNull();
  });

  it("holds each number's sends to the rate of its throughput level", async () => {
    const standard = await business();
    const high = await business();
    meta.setHealth(standard.phoneNumberId, { throughput: 'STANDARD' });
    meta.setHealth(high.phoneNumberId, { throughput: 'HIGH' });
    await server.services.numberHealth.refresh(standard.numberId);
    await server.services.numberHealth.refresh(high.numberId);
    const dispatcher = server.services.engine.dispatcher;
    for (const [owner, first] of [
      [standard, 9_300_000_000],
      [high, 9_310_000_000],
    ] as const) {
      const template = await buildTemplate(server, owner.user, { category: 'UTILITY', body: 'Hello {{1}}' });
      const res = await owner.client.post('/api/whatsapp/quick-send', {
        phone_number_id: owner.phoneNumberId,
        template_name: template.name,
        language: template.language,
        recipients_text: plainRecipients(3, first).join('\n'),
        variables: { '1': 'Asha' },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    await pollUntil(async () => [dispatcher.sendRate(standard.numberId), dispatcher.sendRate(high.numberId)], (rates) => rates.every((r) => r !== null), { what: 'both numbers sent' });
    // The configured bucket rates (a 1 % margin under Meta's), never a timing.
    expect(dispatcher.sendRate(standard.numberId)).toBeCloseTo(80 * 0.99, 5);
    expect(dispatcher.sendRate(high.numberId)).toBeCloseTo(1_000 * 0.99, 5);
  });

  it('warns in the cost preview when the unique recipients exceed the messaging limit, and when quality is RED', async () => {
    const owner = await business();
    const template = await buildTemplate(server, owner.user, { category: 'UTILITY', body: 'Hello {{1}}' });
    const preview = async (count: number) => {
      const res = await owner.client.post<{ preview: TCostPreview }>('/api/send/cost-preview', {
        templatename: template.name,
        recipients: plainRecipients(Math.min(count, 100), 9_320_000_000),
        recipientCount: count,
        phone_number_id: owner.phoneNumberId,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.preview;
    };
    meta.setHealth(owner.phoneNumberId, { quality_rating: 'GREEN', messaging_limit_tier: 'TIER_250', throughput: 'STANDARD' });
    await server.services.numberHealth.refresh(owner.numberId);
    expect((await preview(100)).warnings).toBeUndefined();
    const over = await preview(300);
    expect(over.warnings?.map((w) => w.code)).toEqual(['messaging_limit_exceeded']);
    expect(over.warnings?.[0]?.message).toContain('TIER_250');
    expect(over.warnings?.[0]?.message).toContain('300');

    meta.setHealth(owner.phoneNumberId, { quality_rating: 'RED', messaging_limit_tier: 'TIER_UNLIMITED' });
    await server.services.numberHealth.refresh(owner.numberId);
    const red = await preview(300);
    expect(red.warnings).toEqual([{ code: 'quality_red', message: messages.numberHealth.qualityRedWarning }]);
  });
});
