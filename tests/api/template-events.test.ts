/**
 * Meta's template events (status, category, quality) on the webhook: every correctly signed body
 * is answered 200, each event moves the template it names as the mapping says
 * (docs/decisions/2026-12-07-template-events-from-meta.md), fields we do not act on are stored,
 * and only a bad signature is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import type { Template, User } from '../../server/src/models';
import type { TestClient } from '../../server/test/client';
import { buildTemplate, buildUser, signedInClient } from '../../server/test/factories';
import { metaRejectionText, SIMULATOR_WABA_ID } from '../../server/src/templates/templateEvents';
import { apiKeyFor, postApiSend } from '../../server/test/sending';
import { postWebhook, webhookBody } from '../../server/test/webhooks';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

describe.skipIf(postgresUnavailable)('POST /api/webhooks/whatsapp with template events', () => {
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
    wabaId: string;
    secret: string;
  }

  /** A customer with their own business account and app secret. */
  async function business(): Promise<Business> {
    sequence += 1;
    const user = await buildUser(server, { creditRupees: 10 });
    const tag = `${Date.now() % 1e9}${sequence}`;
    const saved = await admin.put(`/api/admin/users/${user.id}/business-info`, {
      businessName: `Shop ${tag}`,
      whatsappNumber: '+91 98000 12345',
      whatsappNumberId: `1${tag}`,
      wabaId: `waba${tag}`,
      accessToken: `EAAG-access-token-for-tests-${tag}`,
      appSecret: `app-secret-${tag}`,
      isActive: true,
    });
    expect(saved.status).toBe(200);
    return { user, wabaId: `waba${tag}`, secret: `app-secret-${tag}` };
  }

  interface TemplateRow {
    status: string;
    category: string;
    rejectionReason: string | null;
    metaStatus: string | null;
    metaStatusReason: string | null;
    metaStatusAt: string | Date | null;
    pauseTitle: string | null;
    pauseDescription: string | null;
    qualityRating: string | null;
    providerTemplateId: string | null;
  }
  const rowOf = async (template: Template) => (await server.db('templates').where({ id: template.id }).first()) as TemplateRow;

  const time = 1_765_000_000;
  const statusChange = (template: Template, event: string, extra: Record<string, unknown> = {}) => ({
    field: 'message_template_status_update',
    value: { event, message_template_id: 7000 + template.id, message_template_name: template.name, message_template_language: 'en_US', reason: 'NONE', ...extra },
  });
  const post = (owner: Business, changes: unknown[], secret: string | null = owner.secret) =>
    postWebhook(server.url, webhookBody({ id: owner.wabaId, time, changes } as { id: string; changes: unknown[] }), secret);

  /** Meta's event, the template's status before it, and the status after. */
  const mapping: [string, 'PENDING' | 'APPROVED' | 'PAUSED', string][] = [
    ['APPROVED', 'PENDING', 'PENDING'],
    ['APPROVED', 'PAUSED', 'APPROVED'],
    ['REJECTED', 'PENDING', 'REJECTED'],
    ['PENDING_DELETION', 'APPROVED', 'DISABLED'],
    ['DISABLED', 'APPROVED', 'DISABLED'],
    ['PAUSED', 'APPROVED', 'PAUSED'],
    ['FLAGGED', 'APPROVED', 'APPROVED'],
    ['REINSTATED', 'PAUSED', 'APPROVED'],
    ['IN_APPEAL', 'PENDING', 'APPEAL_REQUESTED'],
    ['ARCHIVED', 'APPROVED', 'DISABLED'],
    ['LIMIT_EXCEEDED', 'PENDING', 'REJECTED'],
  ];

  it.each(mapping)('answers a signed %s event for a %s template with 200 and shows it as %s', async (event, before, after) => {
    const owner = await business();
    const template = await buildTemplate(server, owner.user, { status: before === 'PAUSED' ? 'APPROVED' : before });
    if (before === 'PAUSED') expect((await post(owner, [statusChange(template, 'PAUSED')])).status).toBe(200);
    const answer = await post(owner, [statusChange(template, event, event === 'REJECTED' ? { reason: 'INCORRECT_CATEGORY' } : {})]);
    expect(answer.status).toBe(200);
    const row = await rowOf(template);
    expect(row.status).toBe(after);
    expect(row.metaStatus).toBe(event);
    expect(new Date(row.metaStatusAt!).getTime()).toBe(time * 1000);
    expect(row.providerTemplateId).toBe(String(7000 + template.id));
    if (event === 'REJECTED') expect(row.rejectionReason).toBe(metaRejectionText('INCORRECT_CATEGORY'));
  });

  it("keeps Meta's pause reason and duration on a paused template", async () => {
    const owner = await business();
    const template = await buildTemplate(server, owner.user);
    const info = { title: 'FIRST_PAUSE', description: 'Your template has been paused for 3 hours due to low quality.' };
    expect((await post(owner, [statusChange(template, 'PAUSED', { reason: 'LOW_QUALITY', other_info: info })])).status).toBe(200);
    const row = await rowOf(template);
    expect(row).toMatchObject({ status: 'PAUSED', metaStatusReason: 'LOW_QUALITY', pauseTitle: info.title, pauseDescription: info.description });
  });

  it("finds the template by Meta's id once stored, even when the name in the event differs", async () => {
    const owner = await business();
    const template = await buildTemplate(server, owner.user);
    await server.db('templates').where({ id: template.id }).update({ providerTemplateId: '998877' });
    const change = { field: 'message_template_status_update', value: { event: 'PAUSED', message_template_id: 998877, message_template_name: 'renamed_at_meta', message_template_language: 'en-US' } };
    expect((await post(owner, [change])).status).toBe(200);
    expect((await rowOf(template)).status).toBe('PAUSED');
  });

  it("never moves a draft, which Meta never saw", async () => {
    const owner = await business();
    const draft = await buildTemplate(server, owner.user, { status: 'DRAFT' });
    expect((await post(owner, [statusChange(draft, 'REJECTED')])).status).toBe(200);
    expect((await rowOf(draft)).status).toBe('DRAFT');
  });

  it('answers a template_category_update with 200 and changes the category when Meta has done it', async () => {
    const owner = await business();
    const template = await buildTemplate(server, owner.user, { category: 'UTILITY' });
    const key = { message_template_id: 5, message_template_name: template.name, message_template_language: 'en_US' };
    const notice = { field: 'template_category_update', value: { ...key, correct_category: 'MARKETING', new_category: 'UTILITY', category_update_timestamp: time + 86_400 } };
    expect((await post(owner, [notice])).status).toBe(200);
    expect((await rowOf(template)).category).toBe('UTILITY');
    const done = { field: 'template_category_update', value: { ...key, previous_category: 'UTILITY', new_category: 'MARKETING' } };
    expect((await post(owner, [done])).status).toBe(200);
    expect((await rowOf(template)).category).toBe('MARKETING');
  });

  it.each(['GREEN', 'YELLOW', 'RED', 'UNKNOWN'])('answers a message_template_quality_update to %s with 200 and records it', async (quality) => {
    const owner = await business();
    const template = await buildTemplate(server, owner.user);
    const change = {
      field: 'message_template_quality_update',
      value: { previous_quality_score: 'GREEN', new_quality_score: quality, message_template_id: 11, message_template_name: template.name, message_template_language: 'en-US' },
    };
    expect((await post(owner, [change])).status).toBe(200);
    expect((await rowOf(template)).qualityRating).toBe(quality);
  });

  it('answers a signed change of a field it does not know with 200 and stores it for an administrator', async () => {
    const owner = await business();
    const change = { field: 'some_field_meta_added_later', value: { anything: [1, 2, 3] } };
    expect((await post(owner, [change])).status).toBe(200);
    const stored = (await server.db('webhook_unknown_events').where({ wabaId: owner.wabaId }).select('field', 'body')) as { field: string; body: string }[];
    expect(stored).toHaveLength(1);
    expect(stored[0]!.field).toBe('some_field_meta_added_later');
    expect(JSON.parse(stored[0]!.body)).toEqual(change);
  });

  it('answers a template event with unexpected extra fields with 200 and still applies it', async () => {
    const owner = await business();
    const template = await buildTemplate(server, owner.user);
    expect((await post(owner, [statusChange(template, 'PAUSED', { brand_new_field: { nested: true }, message_template_category: 'MARKETING' })])).status).toBe(200);
    expect((await rowOf(template)).status).toBe('PAUSED');
  });

  it("answers 200 to a body about an account it does not keep when the platform's secret signed it", async () => {
    const change = { field: 'message_template_status_update', value: { event: 'PAUSED', message_template_id: 1, message_template_name: 'anything', message_template_language: 'en_US' } };
    const answer = await postWebhook(server.url, webhookBody({ id: `waba_gone_${Date.now()}`, changes: [change] }), server.config.simulator.appSecret);
    expect(answer.status).toBe(200);
  });

  it('refuses a template event with a bad signature with 401 and changes nothing', async () => {
    const owner = await business();
    const template = await buildTemplate(server, owner.user);
    expect((await post(owner, [statusChange(template, 'PAUSED')], 'not-the-app-secret')).status).toBe(401);
    expect((await rowOf(template)).status).toBe('APPROVED');
  });

  it("applies the simulator's signed review to the template it names by the simulator's id", async () => {
    const { user } = await signedInClient(server, { creditRupees: 1 });
    const template = await buildTemplate(server, user, { status: 'PENDING', name: `please_reject_${Date.now() % 1e9}` });
    const simulator = server.services.simulator!;
    const created = simulator.templates.create(SIMULATOR_WABA_ID, { name: template.name, language: 'en_US', category: 'MARKETING', components: [{ type: 'BODY', text: 'Hi' }] });
    await server.db('templates').where({ id: template.id }).update({ providerTemplateId: created.body.id as string });
    const deadline = Date.now() + 20_000;
    while ((await rowOf(template)).status !== 'REJECTED' && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
    expect(await rowOf(template)).toMatchObject({ status: 'REJECTED', metaStatus: 'REJECTED', rejectionReason: metaRejectionText('INVALID_FORMAT') });
  });

  it('refuses a send with a paused template before any charge, naming the template and its state', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const template = await buildTemplate(server, user);
    await server.db('templates').where({ id: template.id }).update({ status: 'PAUSED', metaStatus: 'PAUSED' });
    const before = (await server.db('users').where({ id: user.id }).first('creditBalance')) as { creditBalance: number | string };
    const key = await apiKeyFor(client);
    const answer = await postApiSend<{ error: string; code: string }>(server.url, key, { username: user.username, templatename: template.name, recipient_number: '919876520041', var1: 'a', var2: 'b' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'template_not_usable', error: fillMessage(messages.templates.notUsable, { name: template.name, status: 'Paused' }) });
    const after = (await server.db('users').where({ id: user.id }).first('creditBalance')) as { creditBalance: number | string };
    expect(Number(after.creditBalance)).toBe(Number(before.creditBalance));
    const campaigns = (await server.db('campaigns').where({ userId: user.id }).select('id')) as unknown[];
    expect(campaigns).toHaveLength(0);
  });
});
