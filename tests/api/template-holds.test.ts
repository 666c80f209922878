/**
 * What Meta's moves of a template do to the campaigns using it and to its owner (templateHolds.ts):
 * a pause holds running campaigns mid-way (nothing more is sent), reinstatement resumes them and
 * every message goes out once, a disable fails the rest and refunds them to the paisa, each move
 * is told once (notification, `template.status_changed`) however often Meta repeats the event.
 * Also: sends refused on every path for a template Meta holds, the category change's price, the
 * quality in the template info, and the admin's view of unknown webhook changes.
 *
 * Template events come from the simulator's business account (signed with its secret), naming the
 * template by the id Meta gave it, so the campaigns can go out through the sandbox number.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import { formatRupees, unitsToRupees } from '@shared/money';
import type { TCampaign, TCampaignAccepted } from '@shared/schemas/sending';
import type { TUnknownWebhookEventsPage } from '@shared/schemas/webhookEvents';
import type { TWebhookEndpointCreated, TWebhookEvent } from '@shared/schemas/webhookEndpoints';
import type { TTemplate } from '@shared/types';
import type { Template, User } from '../../server/src/models';
import { SIMULATOR_WABA_ID } from '../../server/src/templates/templateEvents';
import { plainRecipients } from '../../server/test/campaignFlow';
import type { TestClient } from '../../server/test/client';
import { buildTemplate, signedInClient } from '../../server/test/factories';
import { keyedClient } from '../../server/test/integrators';
import { pollUntil, waitForCampaign } from '../../server/test/polling';
import { apiKeyFor, postApiSend, quickSend, sandboxNumber } from '../../server/test/sending';
import { postWebhook, webhookBody } from '../../server/test/webhooks';
import { startWebhookReceiver, type WebhookReceiver } from '../../server/test/webhookReceiver';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const VALUES = { '1': 'Asha', '2': 'K-1' };

describe.skipIf(postgresUnavailable)('campaigns follow their template when Meta pauses, reinstates or disables it', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    // Ten sends a second from the sandbox: a campaign of 60 takes six seconds, long enough for
    // Meta's event to arrive mid-way. Small batches: the dispatcher reads each campaign's state
    // (and its template's) as it claims a batch, so a campaign is looked at again every few sends.
    server = await startTestServer({ SANDBOX_MESSAGES_PER_SECOND: '10', DISPATCH_BATCH_SIZE: '5' });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  let sequence = 0;
  /**
   * Each event a second after the one before, as Meta's entries carry their own times; all of them
   * after the simulator's approvals of the templates made during the file (an older event is skipped).
   */
  let eventTime = Math.floor(Date.now() / 1000) + 86_400;

  /** An approved template of `user` that Meta knows by an id of its own. */
  async function metaTemplate(user: User, category: 'MARKETING' | 'UTILITY' = 'MARKETING'): Promise<Template & { metaId: string }> {
    sequence += 1;
    const template = await buildTemplate(server, user, { body: 'Hi {{1}}, your code is {{2}}', category });
    const metaId = `${Date.now() % 1e9}${sequence}`;
    await server.db('templates').where({ id: template.id }).update({ providerTemplateId: metaId });
    return Object.assign(template, { metaId });
  }

  /** Meta's signed event about the template, from the simulator's business account. */
  function metaEvent(template: Template & { metaId: string }, field: string, value: Record<string, unknown>, time = (eventTime += 1)) {
    const change = { field, value: { message_template_id: Number(template.metaId), message_template_name: template.name, message_template_language: 'en_US', ...value } };
    const body = { object: 'whatsapp_business_account', entry: [{ id: SIMULATOR_WABA_ID, time, changes: [change] }] };
    return { body, post: () => postWebhook(server.url, body, server.config.simulator.appSecret) };
  }
  const statusEvent = (template: Template & { metaId: string }, event: string, extra: Record<string, unknown> = {}) =>
    metaEvent(template, 'message_template_status_update', { event, reason: 'NONE', ...extra });

  const providerSends = async (client: TestClient) => (await client.get<{ sends: number }>('/simulator/received-counts')).body.sends;
  const sentCount = async (campaignId: number) => Number(((await server.db('messages').where({ campaignId }).whereNotNull('sentAt').count({ n: '*' }).first()) as { n: number | string }).n);
  const balance = (user: User) => server.services.wallet.balance(user.id);
  const campaignOf = async (client: TestClient, id: number) => (await client.get<{ data: TCampaign }>(`/api/campaigns/${id}`)).body.data;
  const notices = async (user: User, kind: string) => (await server.db('notifications').where({ userId: user.id, kind }).select('title', 'message')) as { title: string; message: string }[];

  let witnessNumbers = 9_861_000_000;
  /**
   * Gives the dispatcher its turns while a held campaign must stay still: another user's small
   * campaign is sent to the end meanwhile, so whatever would wrongly go out has had its chance.
   */
  async function letTheDispatcherRun(): Promise<void> {
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const template = await buildTemplate(server, user, { body: 'Hi {{1}}, your code is {{2}}' });
    witnessNumbers += 1_000;
    const accepted = await quickSend(client, { template, recipients: plainRecipients(5, witnessNumbers), variables: VALUES });
    await waitForCampaign(client, accepted.campaignId, (c) => c.counts.queued === 0 && c.counts.sending === 0 && c.processed === 5, { timeoutMs: 60_000 });
  }

  /** An integrator endpoint of the user for `template.status_changed`, on its own receiver path. */
  async function statusEndpoint(client: TestClient): Promise<string> {
    const { api } = await keyedClient(server, client);
    const path = `/holds/${Date.now()}-${sequence}`;
    const created = await api.post<TWebhookEndpointCreated>('/api/webhook-endpoints', { url: `${receiver.url}${path}`, events: ['template.status_changed'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return path;
  }
  const eventsAt = (path: string) => receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as TWebhookEvent);

  /** A campaign of `count` under way: the provider has taken at least `underWay` of it. */
  async function campaignUnderWay(client: TestClient, template: Template, count: number, first: number, underWay = 8): Promise<TCampaignAccepted> {
    const before = await providerSends(client);
    const accepted = await quickSend(client, { template, recipients: plainRecipients(count, first), variables: VALUES });
    expect(accepted.accepted).toBe(count);
    await pollUntil(() => providerSends(client), (sends) => sends - before >= underWay, { what: `${underWay} sends under way`, timeoutMs: 60_000 });
    return accepted;
  }

  it('pauses a running campaign when Meta pauses its template, sends nothing more, and resumes it on REINSTATED with every message sent once', { timeout: 180_000 }, async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 100 });
    const template = await metaTemplate(user);
    const endpoint = await statusEndpoint(client);
    const recipients = plainRecipients(60, 9_862_000_000);
    const accepted = await campaignUnderWay(client, template, 60, 9_862_000_000);
    const charged = await balance(user);

    const pause = statusEvent(template, 'PAUSED', { reason: 'LOW_QUALITY', other_info: { title: 'FIRST_PAUSE', description: 'Paused for 3 hours' } });
    expect((await pause.post()).status).toBe(200);
    // The campaign is paused when the webhook is answered; only sends already handed over finish.
    const held = await campaignOf(client, accepted.campaignId);
    expect(held).toMatchObject({ status: 'paused', pauseReason: 'template_paused' });
    const drained = await waitForCampaign(client, accepted.campaignId, (c) => c.counts.sending === 0, { timeoutMs: 30_000 });
    const sentAtPause = await sentCount(accepted.campaignId);
    const providerAtPause = await providerSends(client);
    expect(drained.counts.queued).toBeGreaterThan(0);
    expect(sentAtPause).toBeLessThan(60);
    await letTheDispatcherRun();
    expect(await sentCount(accepted.campaignId)).toBe(sentAtPause);
    expect(await providerSends(client)).toBe(providerAtPause + 5);
    expect((await campaignOf(client, accepted.campaignId)).status).toBe('paused');

    // The owner cannot resume it while Meta holds the template.
    const resume = await client.post<{ error: string; code: string }>(`/api/campaigns/${accepted.campaignId}/resume`);
    expect(resume.status).toBe(409);
    expect(resume.body).toMatchObject({ code: 'campaign_held_for_template', error: messages.templateHolds.heldForTemplate });

    // Meta's retry of the same event changes nothing more.
    expect((await pause.post()).status).toBe(200);
    expect(await notices(user, 'template_paused')).toHaveLength(1);
    const [notice] = await notices(user, 'template_paused');
    // The notice counts what was unsent when the pause was applied; a message a worker claimed in
    // the same moment may still have gone out after it, so the count is at least what waits now.
    const told = Number(/(\d+) unsent/.exec(notice!.message)?.[1]);
    expect(notice!.message).toBe(fillMessage(messages.templateHolds.paused, { name: template.name, status: 'Paused', campaigns: 1, messages: told }));
    expect(told).toBeGreaterThanOrEqual(drained.counts.queued);
    // At least eight had gone to the provider before the pause (campaignUnderWay).
    expect(told).toBeLessThanOrEqual(60 - 8);

    expect((await statusEvent(template, 'REINSTATED').post()).status).toBe(200);
    const done = await waitForCampaign(client, accepted.campaignId, (c) => c.status === 'completed' && c.counts.queued === 0 && c.counts.sending === 0, { timeoutMs: 90_000 });
    expect(done.counts.failed).toBe(0);
    expect(done.pauseReason).toBeNull();
    expect(await sentCount(accepted.campaignId)).toBe(60);
    const counts = (await client.get<{ repeated: { to: string }[] }>('/simulator/received-counts')).body;
    expect(counts.repeated.filter((r) => recipients.includes(r.to))).toEqual([]);
    // Nothing refunded, nothing charged again.
    expect(await balance(user)).toBe(charged);
    expect(await notices(user, 'template_reinstated')).toHaveLength(1);

    // Integrators heard both moves, once each.
    const events = await pollUntil(() => Promise.resolve(eventsAt(endpoint)), (list) => list.length >= 2, { what: 'template.status_changed twice', timeoutMs: 30_000 });
    expect(events.map((e) => e.type)).toEqual(['template.status_changed', 'template.status_changed']);
    expect(events.map((e) => (e.data as { status: string }).status)).toEqual(['PAUSED', 'APPROVED']);
    expect(events[0]!.data).toMatchObject({ template_id: template.id, name: template.name, previous_status: 'APPROVED', meta_event: 'PAUSED', reason: 'LOW_QUALITY', campaigns: { action: 'paused', campaign_ids: [accepted.campaignId] } });
    expect(events[1]!.data).toMatchObject({ previous_status: 'PAUSED', meta_event: 'REINSTATED', campaigns: { action: 'resumed', campaign_ids: [accepted.campaignId] } });
  });

  it('holds a running campaign whose template is out of use however it got there: the dispatcher sends none of it and the campaign follows the template', { timeout: 120_000 }, async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 200 });
    const template = await metaTemplate(user);
    // Twenty seconds of sending: the dispatcher reads a campaign's template again within 5 s (its
    // cache) and a batch.
    const accepted = await campaignUnderWay(client, template, 200, 9_867_000_000, 3);
    // As a campaign accepted in the instant before Meta's pause was applied: the template moved,
    // the campaign did not.
    await server.db('templates').where({ id: template.id }).update({ status: 'PAUSED' });
    const held = await waitForCampaign(client, accepted.campaignId, (c) => c.status === 'paused' && c.counts.sending === 0, { timeoutMs: 60_000 });
    expect(held.pauseReason).toBe('template_paused');
    expect(held.counts.queued).toBeGreaterThan(0);
    expect(await notices(user, 'template_paused')).toHaveLength(1);
    const sentAtHold = await sentCount(accepted.campaignId);
    await letTheDispatcherRun();
    expect(await sentCount(accepted.campaignId)).toBe(sentAtHold);
    expect((await client.post(`/api/campaigns/${accepted.campaignId}/cancel`)).status).toBe(200);
  });

  it('leaves a campaign its owner paused paused when Meta reinstates the template', { timeout: 120_000 }, async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 100 });
    const template = await metaTemplate(user);
    const accepted = await campaignUnderWay(client, template, 60, 9_863_000_000, 3);
    expect((await client.post(`/api/campaigns/${accepted.campaignId}/pause`)).status).toBe(200);
    expect((await statusEvent(template, 'PAUSED').post()).status).toBe(200);
    expect(await campaignOf(client, accepted.campaignId)).toMatchObject({ status: 'paused', pauseReason: null });
    // Its owner cannot resume it into a template Meta holds.
    const refused = await client.post<{ error: string; code: string }>(`/api/campaigns/${accepted.campaignId}/resume`);
    expect(refused).toMatchObject({ status: 409, body: { code: 'template_not_usable', error: fillMessage(messages.templates.notUsable, { name: template.name, status: 'Paused' }) } });
    expect((await statusEvent(template, 'REINSTATED').post()).status).toBe(200);
    expect(await campaignOf(client, accepted.campaignId)).toMatchObject({ status: 'paused', pauseReason: null });
    expect((await client.post(`/api/campaigns/${accepted.campaignId}/cancel`)).status).toBe(200);
  });

  it('pauses a scheduled campaign for a paused template and puts it back on its schedule when reinstated', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 100 });
    const template = await metaTemplate(user);
    const number = await sandboxNumber(client);
    const at = new Date(Date.now() + 3 * 3_600_000).toISOString();
    const scheduled = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/quick-send', {
      phone_number_id: number.phone_number_id,
      template_name: template.name,
      language: template.language,
      recipients_text: plainRecipients(3, 9_864_000_000).join('\n'),
      variables: VALUES,
      scheduledAt: at,
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    const id = scheduled.body.data.campaignId;
    expect((await statusEvent(template, 'IN_APPEAL').post()).status).toBe(200);
    expect(await campaignOf(client, id)).toMatchObject({ status: 'paused', pauseReason: 'template_paused' });
    expect((await statusEvent(template, 'REINSTATED').post()).status).toBe(200);
    expect(await campaignOf(client, id)).toMatchObject({ status: 'scheduled', pauseReason: null, scheduledAt: at });
    expect((await client.post(`/api/campaigns/${id}/cancel`)).status).toBe(200);
  });

  it('holds a scheduled campaign that falls due while Meta holds its template, and starts it once reinstated', { timeout: 60_000 }, async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 100 });
    const template = await metaTemplate(user);
    const number = await sandboxNumber(client);
    const scheduled = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/quick-send', {
      phone_number_id: number.phone_number_id,
      template_name: template.name,
      language: template.language,
      recipients_text: plainRecipients(3, 9_868_000_000).join('\n'),
      variables: VALUES,
      scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    const id = scheduled.body.data.campaignId;
    const charged = await balance(user);
    // Meta's pause was missed by this campaign (the template moved without a hold), and its time came.
    await server.db('templates').where({ id: template.id }).update({ status: 'PAUSED' });
    const past = new Date(Date.now() - 1_000).toISOString();
    await server.db('campaigns').where({ id }).update({ scheduledAt: past });
    await server.db('messages').where({ campaignId: id }).update({ nextAttemptAt: past });
    await server.services.scheduledCampaigns.startDue();
    expect(await campaignOf(client, id)).toMatchObject({ status: 'paused', pauseReason: 'template_paused' });
    expect(await balance(user)).toBe(charged);

    expect((await statusEvent(template, 'REINSTATED').post()).status).toBe(200);
    expect(await campaignOf(client, id)).toMatchObject({ status: 'scheduled', pauseReason: null });
    await server.services.scheduledCampaigns.startDue();
    const done = await waitForCampaign(client, id, (c) => c.status === 'completed' && c.processed === 3, { timeoutMs: 30_000 });
    expect(done.counts.failed).toBe(0);
    expect(await balance(user)).toBe(charged);
  });

  it('fails the rest of a campaign when Meta disables its template and refunds every unsent message to the paisa, once', { timeout: 180_000 }, async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 100 });
    const template = await metaTemplate(user);
    const endpoint = await statusEndpoint(client);
    const start = await balance(user);
    const accepted = await campaignUnderWay(client, template, 60, 9_865_000_000);
    const priceUnits = Number(((await server.db('campaigns').where({ id: accepted.campaignId }).first('priceUnits')) as { priceUnits: number | string }).priceUnits);
    expect(await balance(user)).toBe(start - 60 * priceUnits);

    const disable = statusEvent(template, 'DISABLED');
    expect((await disable.post()).status).toBe(200);
    const reason = fillMessage(messages.templateHolds.campaignEnded, { name: template.name, status: 'Disabled' });
    // Sends already handed over finish; every other message failed with the reason.
    const ended = await waitForCampaign(client, accepted.campaignId, (c) => c.counts.sending === 0 && c.counts.unknown === 0 && c.counts.queued === 0, { timeoutMs: 30_000 });
    expect(ended).toMatchObject({ status: 'failed', failureReason: reason });
    const sent = await sentCount(accepted.campaignId);
    const failed = Number(((await server.db('messages').where({ campaignId: accepted.campaignId, status: 'failed' }).count({ n: '*' }).first()) as { n: number | string }).n);
    expect(sent + failed).toBe(60);
    expect(failed).toBeGreaterThan(0);
    expect(await balance(user)).toBe(start - sent * priceUnits);
    expect(ended.refunded).toBe(unitsToRupees(failed * priceUnits, 4));

    // Meta's retry, then the same disable from another angle (PENDING_DELETION): nothing more.
    expect((await disable.post()).status).toBe(200);
    expect((await statusEvent(template, 'PENDING_DELETION').post()).status).toBe(200);
    expect(await balance(user)).toBe(start - sent * priceUnits);
    const ledger = (await server.db('credit_transactions').where({ userId: user.id, type: 'REFUND_ADD', referenceId: String(accepted.campaignId) }).sum({ units: 'amount' }).first()) as { units: number | string };
    expect(Number(ledger.units)).toBe(failed * priceUnits);
    const ended_ = await notices(user, 'template_disabled');
    expect(ended_).toHaveLength(1);
    expect(ended_[0]!.message).toBe(
      fillMessage(messages.templateHolds.ended, { name: template.name, status: 'Disabled', campaigns: 1, messages: failed, refund: formatRupees(unitsToRupees(failed * priceUnits, 2)) }),
    );
    expect(await notices(user, 'campaign_failed')).toHaveLength(1);
    const events = await pollUntil(() => Promise.resolve(eventsAt(endpoint)), (list) => list.length >= 1, { what: 'template.status_changed', timeoutMs: 30_000 });
    expect(events[0]!.data).toMatchObject({ status: 'DISABLED', meta_event: 'DISABLED', campaigns: { action: 'failed', campaign_ids: [accepted.campaignId] } });
    const deliveries = Number(((await server.db('webhook_deliveries').where({ eventType: 'template.status_changed' }).whereIn('endpointId', server.db('webhook_endpoints').where({ userId: user.id }).select('id')).count({ n: '*' }).first()) as { n: number | string }).n);
    expect(deliveries).toBe(1);
  });

  it("fails the rest of a campaign when an administrator disables its template, refunds it exactly, and Meta's later approval does not put it back", { timeout: 180_000 }, async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 100 });
    const { client: admin } = await signedInClient(server, { role: 'admin' });
    const template = await metaTemplate(user);
    const start = await balance(user);
    const accepted = await campaignUnderWay(client, template, 60, 9_866_000_000);
    const priceUnits = Number(((await server.db('campaigns').where({ id: accepted.campaignId }).first('priceUnits')) as { priceUnits: number | string }).priceUnits);

    const noReason = await admin.put<{ message: string }>(`/api/admin/templates/${template.id}/status`, { status: 'DISABLED' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toBe(messages.templates.disableReasonRequired);

    const reason = 'Recipients reported it as spam';
    const disabled = await admin.put<{ message: string; data: TTemplate }>(`/api/admin/templates/${template.id}/status`, { status: 'DISABLED', reason });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ message: messages.templates.disabledByAdmin, data: { status: 'DISABLED', rejectionReason: reason } });
    const ended = await waitForCampaign(client, accepted.campaignId, (c) => c.counts.sending === 0 && c.counts.unknown === 0 && c.counts.queued === 0, { timeoutMs: 30_000 });
    expect(ended).toMatchObject({ status: 'failed', failureReason: fillMessage(messages.templateHolds.campaignEndedByAdmin, { name: template.name, reason }) });
    const sent = await sentCount(accepted.campaignId);
    const failed = 60 - sent;
    expect(failed).toBeGreaterThan(0);
    expect(await balance(user)).toBe(start - sent * priceUnits);
    const told = await notices(user, 'template_disabled');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ title: messages.templateHolds.disabledByAdminTitle });
    const audit = await server.db('audit_log').where({ action: 'template.disable', targetId: String(template.id) }).first();
    expect(audit).toBeDefined();

    // Meta still has it approved: its reinstatement (or a sync) leaves the administrator's decision.
    expect((await statusEvent(template, 'REINSTATED').post()).status).toBe(200);
    expect((await server.db('templates').where({ id: template.id }).first('status')) as { status: string }).toEqual({ status: 'DISABLED' });
    expect(await balance(user)).toBe(start - sent * priceUnits);
    // Nothing left to disable.
    const again = await admin.put<{ message: string }>(`/api/admin/templates/${template.id}/status`, { status: 'DISABLED', reason });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(messages.templates.notDisableable);
  });

  it('refuses every kind of send with a template Meta holds before any charge, naming the template and its state', async () => {
    for (const [event, label] of [
      ['PAUSED', 'Paused'],
      ['DISABLED', 'Disabled'],
      ['IN_APPEAL', 'Appeal Requested'],
    ] as const) {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await metaTemplate(user);
      expect((await statusEvent(template, event).post()).status).toBe(200);
      const error = fillMessage(messages.templates.notUsable, { name: template.name, status: label });
      const number = await sandboxNumber(client);
      const quick = { phone_number_id: number.phone_number_id, template_name: template.name, language: template.language, recipients_text: '919876500001', variables: VALUES };
      const answers = [
        await client.post('/api/whatsapp/quick-send', quick),
        await client.post('/api/whatsapp/bulk-quick-send', quick),
        await client.post('/api/whatsapp/quick-send', { ...quick, scheduledAt: new Date(Date.now() + 3_600_000).toISOString() }),
        await client.post('/api/whatsapp/send-custom-messages', {
          templateName: template.name,
          language: template.language,
          phoneNumberId: number.phone_number_id,
          recipientColumn: 'phone',
          variableMappings: { '1': 'name', '2': 'code' },
          data: [{ phone: '919876500002', name: 'Asha', code: 'K-1' }],
        }),
      ];
      for (const answer of answers) expect({ status: answer.status, body: answer.body }).toMatchObject({ status: 404, body: { code: 'template_not_usable', error } });
      const key = await apiKeyFor(client);
      const api = await postApiSend(server.url, key, { username: user.username, templatename: template.name, recipient_number: '919876500003', var1: 'a', var2: 'b' });
      expect(api).toMatchObject({ status: 400, body: { code: 'template_not_usable', error } });
      const batch = await postApiSend(server.url, key, { username: user.username, templatename: template.name, messages: [{ recipient_number: '919876500004', var1: 'a', var2: 'b' }] }, '/api/send/batch');
      expect(batch).toMatchObject({ status: 400, body: { code: 'template_not_usable', error } });
      expect(await balance(user)).toBe(10 * 10_000);
      expect(await server.db('campaigns').where({ userId: user.id }).first('id')).toBeUndefined();
    }
  });

  it('prices the next send by the category Meta moved the template to, keeps the earlier campaign at its price, and tells the owner both prices', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 100 });
    const template = await metaTemplate(user, 'UTILITY');
    const utility = await server.services.pricing.effectiveFor(user.id, 'utility');
    const marketing = await server.services.pricing.effectiveFor(user.id, 'marketing');
    expect(marketing).not.toBe(utility);
    const before = await quickSend(client, { template, recipients: plainRecipients(2, 9_866_000_000), variables: VALUES });
    const afterFirst = await balance(user);

    const change = metaEvent(template, 'template_category_update', { previous_category: 'UTILITY', new_category: 'MARKETING' });
    expect((await change.post()).status).toBe(200);
    expect((await change.post()).status).toBe(200);
    const later = await quickSend(client, { template, recipients: plainRecipients(2, 9_866_100_000), variables: VALUES });

    const price = async (id: number) => (await server.db('campaigns').where({ id }).first('priceUnits', 'category')) as { priceUnits: number | string; category: string };
    expect(await price(before.campaignId)).toMatchObject({ category: 'UTILITY' });
    expect(Number((await price(before.campaignId)).priceUnits)).toBe(utility);
    expect(await price(later.campaignId)).toMatchObject({ category: 'MARKETING' });
    expect(Number((await price(later.campaignId)).priceUnits)).toBe(marketing);
    expect(await balance(user)).toBe(afterFirst - 2 * marketing);

    const shown = (units: number) => formatRupees(unitsToRupees(units, 4), units % 100 === 0 ? 2 : 4);
    const told = await notices(user, 'template_category_changed');
    expect(told).toEqual([
      {
        title: messages.templateHolds.categoryTitle,
        message: fillMessage(messages.templateHolds.category, { name: template.name, from: 'Utility', to: 'Marketing', oldPrice: shown(utility), newPrice: shown(marketing) }),
      },
    ]);
  });

  it("shows Meta's quality, status and pause on the template and in the API's template info", async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 1 });
    const template = await metaTemplate(user);
    const quality = metaEvent(template, 'message_template_quality_update', { previous_quality_score: 'GREEN', new_quality_score: 'YELLOW' });
    expect((await quality.post()).status).toBe(200);
    const info = await client.get<{ success: boolean; requirements: { variable_count: number }; template: Record<string, unknown> }>(`/api/send/template-info/${user.username}/${template.name}`);
    const body = info.body;
    expect(info.status).toBe(200);
    expect(body.requirements.variable_count).toBe(2);
    expect(body.template).toMatchObject({ name: template.name, status: 'APPROVED', quality_rating: 'YELLOW' });
    expect(body.template.quality_updated_at).toBe(new Date(eventTime * 1000).toISOString());

    const usable = await client.get<{ data: TTemplate[] }>('/api/whatsapp/templates');
    expect(usable.body.data.find((t) => t.id === template.id)).toMatchObject({ qualityRating: 'YELLOW' });

    expect((await statusEvent(template, 'PAUSED', { other_info: { title: 'SECOND_PAUSE', description: 'Paused for 6 hours' } }).post()).status).toBe(200);
    const listed = await client.get<{ data: TTemplate }>(`/api/templates/${template.id}`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toMatchObject({
      status: 'PAUSED',
      qualityRating: 'YELLOW',
      metaStatus: 'PAUSED',
      metaStatusAt: new Date(eventTime * 1000).toISOString(),
      pauseTitle: 'SECOND_PAUSE',
      pauseDescription: 'Paused for 6 hours',
    });
    expect(listed.body.data.reviewedAt).toEqual(expect.any(String));
  });

  it('answers a signed change of an unknown field with 200 and lists it in the admin view, newest first, to administrators only', async () => {
    const field = `future_field_${Date.now()}`;
    const body = webhookBody({ id: SIMULATOR_WABA_ID, changes: [{ field, value: { note: 'from Meta', n: 1 } }] });
    expect((await postWebhook(server.url, body, server.config.simulator.appSecret)).status).toBe(200);
    const admin = (await signedInClient(server, { role: 'admin' })).client;
    const page = await admin.get<TUnknownWebhookEventsPage>(`/api/admin/webhook-events/unknown?field=${field}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ success: true, total: 1, page: 1, totalPages: 1 });
    expect(page.body.events[0]).toMatchObject({ field, wabaId: SIMULATOR_WABA_ID });
    expect(JSON.parse(page.body.events[0]!.body)).toEqual({ field, value: { note: 'from Meta', n: 1 } });
    expect(new Date(page.body.events[0]!.receivedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const all = await admin.get<TUnknownWebhookEventsPage>('/api/admin/webhook-events/unknown?page=1&limit=1');
    expect(all.body.events).toHaveLength(1);
    const { client } = await signedInClient(server);
    expect((await client.get('/api/admin/webhook-events/unknown')).status).toBe(403);
  });
});
