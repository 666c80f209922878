/**
 * A template's review in two parts: the administrator's approval creates it where its owner's
 * templates live (the sandbox's simulator, a business's own Cloud API account, the channel
 * provider's 360dialog layout), and it stays PENDING ("In review at Meta") until Meta answers.
 * A stand-in for Meta (the simulator on its own port) plays Meta's Cloud API and 360dialog's API
 * for the business and channel accounts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import type { TTemplate } from '@shared/types';
import type { TestClient } from '../../server/test/client';
import { buildTemplate, buildUser, signedInClient, uniqueName, waitForTemplateStatus } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';
import { metaRejectionText, simulatorWabaId } from '../../server/src/templates/templateEvents';
import { startSimulatorServer, type SimulatorServer } from '../../server/src/simulator/cloudApiSimulator';
import { SimulatorOutbox } from '../../server/src/simulator/outbox';
import type { User } from '../../server/src/models';

const t = messages.templates;
const APP_ID = '1234567890';

describe.skipIf(postgresUnavailable)('template submission to Meta after the administrator approves', () => {
  let server: TestServer;
  let admin: TestClient;
  /** Meta's Cloud API and 360dialog's template API, for the accounts that are not the sandbox. */
  let meta: SimulatorServer;
  beforeAll(async () => {
    meta = await startSimulatorServer({ outbox: new SimulatorOutbox(), resolveTemplate: () => null, reviewMs: 20 });
    server = await startTestServer({ WHATSAPP_API_BASE: meta.url, CHANNEL_API_BASE: meta.url, WHATSAPP_APP_ID: APP_ID, TEMPLATE_SUBMIT_RETRY_MS: '50' });
    admin = (await signedInClient(server, { role: 'admin' })).client;
  });
  afterAll(async () => {
    await server?.close();
    await meta?.close();
  });

  const sandbox = () => server.services.simulator!;
  const approve = (id: number) => admin.put<{ success: boolean; message: string; data: TTemplate }>(`/api/admin/templates/${id}/status`, { status: 'APPROVED' });
  const row = async (id: number) =>
    (await server.db('templates').where({ id }).first()) as {
      status: string;
      providerTemplateId: string | null;
      metaSubmittedAt: string | Date | null;
      metaSubmitError: string | null;
      metaSubmitAttempts: number;
      metaSubmitDueAt: string | Date | null;
      rejectionReason: string | null;
    };

  /** A customer with their own Cloud API account; Meta's review webhooks signed with their app secret. */
  async function business(): Promise<{ user: User; wabaId: string }> {
    const user = await buildUser(server);
    const tag = uniqueName('waba').replace(/\W/g, '');
    const wabaId = `waba${tag}`;
    const saved = await admin.put(`/api/admin/users/${user.id}/business-info`, {
      businessName: `Shop ${tag}`,
      whatsappNumber: '+91 98000 12345',
      whatsappNumberId: `1${Date.now() % 1e9}`,
      wabaId,
      accessToken: `EAAG-token-${tag}`,
      appSecret: `app-secret-${tag}`,
      isActive: true,
    });
    expect(saved.status).toBe(200);
    meta.simulator.setWebhook({ url: `${server.url}/api/webhooks/whatsapp`, appSecret: `app-secret-${tag}` });
    return { user, wabaId };
  }

  it('keeps an approved template PENDING in review at Meta with its id and time, until the review approves it', async () => {
    const { client, user } = await signedInClient(server);
    const template = await buildTemplate(server, user, { status: 'PENDING', body: 'Hi {{1}}, your order {{2}} ships today' });
    const before = Date.now();
    const answer = await approve(template.id);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, message: t.approvedSentToMeta, data: { status: 'PENDING', inMetaReview: true, metaSubmitError: null } });
    const submittedAt = new Date(answer.body.data.metaSubmittedAt!).getTime();
    expect(submittedAt).toBeGreaterThanOrEqual(before - 1000);
    const stored = await row(template.id);
    expect(stored.providerTemplateId).toMatch(/^\d+$/);
    const atMeta = sandbox().templates.list(simulatorWabaId(user.id)).find((x) => x.name === template.name);
    expect(atMeta).toMatchObject({ id: stored.providerTemplateId, language: 'en_US', category: 'MARKETING' });
    expect(atMeta!.components).toContainEqual({ type: 'BODY', text: 'Hi {{1}}, your order {{2}} ships today', example: { body_text: [[expect.any(String), expect.any(String)]] } });

    const approved = await waitForTemplateStatus(server, template.id, 'APPROVED');
    expect(approved.rejectionReason).toBeNull();
    const shown = await client.get<{ data: TTemplate }>(`/api/templates/${template.id}`);
    expect(shown.body.data).toMatchObject({ status: 'APPROVED', inMetaReview: false });
    expect(shown.body.data.metaSubmittedAt).toBe(answer.body.data.metaSubmittedAt);
  });

  it("rejects a template Meta's review rejects, with Meta's reason in words", async () => {
    const { user } = await signedInClient(server);
    const template = await buildTemplate(server, user, { status: 'PENDING', name: uniqueName('please_reject') });
    expect((await approve(template.id)).body.data.status).toBe('PENDING');
    const rejected = await waitForTemplateStatus(server, template.id, 'REJECTED');
    expect(rejected.rejectionReason).toBe(metaRejectionText('INVALID_FORMAT'));
  });

  it("rejects at once, with Meta's words, a template Meta refuses synchronously, and the admin's call succeeds", async () => {
    const { user } = await signedInClient(server);
    const template = await buildTemplate(server, user, { status: 'PENDING' });
    // The same name and language exist in the account already (made outside Sandesh, still in
    // Meta's review, so no review of it arrives meanwhile): Meta answers 400, subcode 2388024.
    sandbox().templates.seed(simulatorWabaId(user.id), { name: template.name, language: 'en_US', category: 'MARKETING', components: [{ type: 'BODY', text: 'Hi' }], status: 'PENDING' });
    const answer = await approve(template.id);
    expect(answer.status).toBe(200);
    const reason = fillMessage(t.metaRefused, { reason: `Content in this language already exists for ${template.name}` });
    expect(answer.body).toMatchObject({ success: true, message: reason, data: { status: 'REJECTED', rejectionReason: reason, inMetaReview: false } });
    expect((await row(template.id)).metaSubmitDueAt).toBeNull();
  });

  it('submits a template Meta rejected, once approved again, as an edit of the same template at Meta (not a duplicate)', async () => {
    const { user } = await signedInClient(server);
    const template = await buildTemplate(server, user, { status: 'PENDING', name: uniqueName('reject_then_fix') });
    await approve(template.id);
    await waitForTemplateStatus(server, template.id, 'REJECTED');
    const metaId = (await row(template.id)).providerTemplateId;
    expect(metaId).toMatch(/^\d+$/);

    // Meta's second review waits while the test looks at the template in review.
    const releaseReview = sandbox().templates.holdReviews();
    await server.services.templates.submit(user, template.id);
    const again = await approve(template.id);
    expect(again.body).toMatchObject({ message: t.approvedSentToMeta, data: { status: 'PENDING', inMetaReview: true } });
    expect((await row(template.id)).providerTemplateId).toBe(metaId);
    const atMeta = sandbox().templates.list(simulatorWabaId(user.id)).filter((x) => x.name === template.name);
    expect(atMeta).toHaveLength(1);
    expect(atMeta[0]!.status).toBe('PENDING');
    releaseReview();
    // The name still asks the simulator to reject it: Meta's second review answers again.
    await waitForTemplateStatus(server, template.id, 'REJECTED');
  });

  it('keeps a template PENDING with the error when Meta answers 5xx, and the retry loop submits it', async () => {
    const { user } = await signedInClient(server);
    const template = await buildTemplate(server, user, { status: 'PENDING', name: uniqueName('meta_unavailable') });
    const answer = await approve(template.id);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ message: t.approvedAwaitingMeta, data: { status: 'PENDING', inMetaReview: true, metaSubmittedAt: null } });
    expect(answer.body.data.metaSubmitError).toContain('Service temporarily unavailable');
    // TEMPLATE_SUBMIT_RETRY_MS is 50 here: the loop tries again, Meta takes it, its review approves it.
    const approved = await waitForTemplateStatus(server, template.id, 'APPROVED');
    expect(approved.providerTemplateId).toMatch(/^\d+$/);
    const stored = await row(template.id);
    expect(stored.metaSubmitAttempts).toBe(2);
    expect(stored.metaSubmitError).toBeNull();
  });

  it('keeps a template PENDING with the error when Meta cannot be reached, to be tried again later', async () => {
    const { user } = await signedInClient(server);
    // This user's template API answers nowhere (a closed port) while the administrator approves.
    const template = await buildTemplate(server, user, { status: 'PENDING' });
    const accounts = server.services.templateAccounts;
    const forUser = accounts.forUser.bind(accounts);
    accounts.forUser = async (userId) => {
      const account = await forUser(userId);
      return userId === user.id && account?.kind === 'simulator' ? { ...account, base: 'http://127.0.0.1:9' } : account;
    };
    try {
      const answer = await approve(template.id);
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({ status: 'PENDING', inMetaReview: true, metaSubmittedAt: null });
      expect(answer.body.data.metaSubmitError).toContain('could not be reached');
      const stored = await row(template.id);
      expect(stored.providerTemplateId).toBeNull();
      expect(new Date(stored.metaSubmitDueAt!).getTime()).toBeGreaterThan(Date.now() - 1000);
    } finally {
      accounts.forUser = forUser;
    }
    await waitForTemplateStatus(server, template.id, 'APPROVED');
  });

  it("uploads a media header's sample through the resumable upload and sends its handle in header_handle", async () => {
    const { user } = await signedInClient(server);
    const template = await buildTemplate(server, user, { status: 'PENDING', headerType: 'image' });
    await approve(template.id);
    const atMeta = sandbox().templates.list(simulatorWabaId(user.id)).find((x) => x.name === template.name);
    const header = atMeta!.components.find((c) => (c as { type: string }).type === 'HEADER') as { format: string; example: { header_handle: string[] } };
    expect(header.format).toBe('IMAGE');
    expect(header.example.header_handle).toHaveLength(1);
    expect(header.example.header_handle[0]).toMatch(/^4::/);
    await waitForTemplateStatus(server, template.id, 'APPROVED');
  });

  it("creates a business's template in its own Cloud API account (the sample through the app's upload) and follows Meta's webhook", async () => {
    const { user, wabaId } = await business();
    const template = await buildTemplate(server, user, { status: 'PENDING', headerType: 'image' });
    const answer = await approve(template.id);
    expect(answer.body.data).toMatchObject({ status: 'PENDING', inMetaReview: true });
    const atMeta = meta.simulator.templates.list(wabaId).find((x) => x.name === template.name);
    expect(atMeta).toBeDefined();
    const header = atMeta!.components.find((c) => (c as { type: string }).type === 'HEADER') as { example: { header_handle: string[] } };
    expect(header.example.header_handle[0]).toMatch(/^4::/);
    expect(sandbox().templates.list(simulatorWabaId(user.id)).some((x) => x.name === template.name)).toBe(false);
    await waitForTemplateStatus(server, template.id, 'APPROVED');
  });

  it("creates a channel account's template through the channel provider's template API", async () => {
    const user = await buildUser(server);
    const saved = await admin.put(`/api/admin/whatsapp/settings/${user.id}`, { channelId: `ch_${Date.now() % 1e9}`, apiKey: 'd360-key-for-tests-1' });
    expect(saved.status).toBe(200);
    const template = await buildTemplate(server, user, { status: 'PENDING', headerType: 'image' });
    const answer = await approve(template.id);
    expect(answer.body).toMatchObject({ message: t.approvedSentToMeta, data: { status: 'PENDING', inMetaReview: true } });
    // The stand-in keeps 360dialog's templates in its own account, listed by 360dialog's layout.
    const listed = await fetch(`${meta.url}/v1/configs/templates?limit=100&offset=0`, { headers: { 'D360-API-KEY': 'd360-key-for-tests-1' } });
    const body = (await listed.json()) as { waba_templates: { id: string; name: string; components: { type: string; example?: { header_handle?: string[] } }[] }[] };
    const atProvider = body.waba_templates.find((x) => x.name === template.name);
    expect(atProvider?.id).toBe((await row(template.id)).providerTemplateId);
    expect(atProvider?.components.find((c) => c.type === 'HEADER')?.example?.header_handle?.[0]).toMatch(/^4::/);
  });

  it('submits an authentication template the same way', async () => {
    const { client, user } = await signedInClient(server);
    const created = await client.post<{ data: TTemplate }>('/api/templates/authentication', {
      name: uniqueName('otp'),
      language: 'en_US',
      add_security_recommendation: true,
      code_expiration_minutes: 10,
      otp_type: 'COPY_CODE',
      otp_button_text: 'Copy code',
    });
    expect(created.status).toBe(201);
    const answer = await approve(created.body.data.id);
    expect(answer.body.data).toMatchObject({ status: 'PENDING', inMetaReview: true });
    const atMeta = sandbox().templates.list(simulatorWabaId(user.id)).find((x) => x.name === created.body.data.name);
    expect(atMeta?.components).toEqual([
      { type: 'BODY', add_security_recommendation: true },
      { type: 'FOOTER', code_expiration_minutes: 10 },
      { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
    ]);
    expect((await waitForTemplateStatus(server, created.body.data.id, 'APPROVED')).userId).toBe(user.id);
  });

  it('submits a template once when two instances try it at the same moment', async () => {
    const { user } = await signedInClient(server);
    const template = await buildTemplate(server, user, { status: 'PENDING' });
    // Approved by the administrator, its first try due now (as after a failed try).
    const now = new Date().toISOString();
    await server.db('templates').where({ id: template.id }).update({ reviewedAt: now, rejectionReason: null, metaSubmitDueAt: now });
    const outcomes = await Promise.all([server.services.metaSubmissions.submitNow(template.id), server.services.metaSubmissions.submitNow(template.id)]);
    expect(outcomes.sort()).toEqual(['skipped', 'submitted']);
    expect(sandbox().templates.list(simulatorWabaId(user.id)).filter((x) => x.name === template.name)).toHaveLength(1);
  });
});
