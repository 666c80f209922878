/**
 * Sync from Meta and delete at Meta (docs/decisions/2026-12-07-template-sync-from-meta.md): every
 * page of the business account's list is read, approved templates unknown here are imported,
 * known ones take Meta's status, category and quality, and the counts say what happened. The
 * businesses here manage their templates at "Meta" through WHATSAPP_API_BASE, which points at the
 * embedded simulator: each has a business account of its own there.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import type { TTemplateSyncResponse } from '@shared/types';
import type { Template, User } from '../../server/src/models';
import { WEBHOOK_PATH } from '../../server/src/sending/engine';
import type { TestClient } from '../../server/test/client';
import { buildTemplate, buildUser, signedInClient } from '../../server/test/factories';
import { apiKeyFor, postApiSend } from '../../server/test/sending';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';
import { simulatorWabaId } from '../../server/src/templates/templateEvents';
import { SIMULATOR_ACCESS_TOKEN } from '../../server/src/sending/providerRegistry';
import { createDatabase } from '../../server/src/db/knex';
import { createLogger } from '../../server/src/logger';
import { TemplateSync } from '../../server/src/templates/sync';
import { DailyTemplateSync } from '../../server/src/templates/dailySync';
import type { SimulatorTemplates } from '../../server/src/simulator/templates';

/** A port nobody listens on now, so the server can be told its own address before it starts. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const body = (text: string) => [{ type: 'BODY', text }];

describe.skipIf(postgresUnavailable)('Sync from Meta and delete at Meta', () => {
  let server: TestServer;
  let admin: TestClient;
  let meta: SimulatorTemplates;
  beforeAll(async () => {
    const port = await freePort();
    server = await startTestServer({ PORT: String(port), WHATSAPP_API_BASE: `http://127.0.0.1:${port}/simulator` });
    admin = (await signedInClient(server, { role: 'admin' })).client;
    meta = server.services.simulator!.templates;
  });
  afterAll(async () => {
    await server?.close();
  });

  let sequence = 0;
  interface Business {
    user: User;
    client: TestClient;
    wabaId: string;
  }

  /** A customer whose templates live in a business account of their own at "Meta". */
  async function business(): Promise<Business> {
    sequence += 1;
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const tag = `${Date.now() % 1e9}${sequence}`;
    const saved = await admin.put(`/api/admin/users/${user.id}/business-info`, {
      businessName: `Shop ${tag}`,
      whatsappNumber: '+91 98000 12345',
      whatsappNumberId: `2${tag}`,
      wabaId: `waba${tag}`,
      accessToken: SIMULATOR_ACCESS_TOKEN,
      appSecret: `app-secret-${tag}`,
      isActive: true,
    });
    expect(saved.status).toBe(200);
    return { user, client, wabaId: `waba${tag}` };
  }

  interface Row {
    id: number;
    name: string;
    language: string;
    status: string;
    category: string;
    qualityRating: string | null;
    providerTemplateId: string | null;
    metaStatus: string | null;
    importedAt: string | Date | null;
    components: string | unknown[];
    variableExamples: string | Record<string, string>;
  }
  const rowsOf = async (userId: number) => (await server.db('templates').where({ userId }).orderBy('id')) as Row[];
  const json = <T>(value: string | T): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

  it('reads every page, imports approved templates, updates known ones and counts each; a second sync changes nothing', async () => {
    const owner = await business();
    // Approved here and submitted to Meta, whose review webhook never came: still in review here.
    const simulator = server.services.simulator!;
    simulator.setWebhook(null);
    let inReview: Template;
    try {
      inReview = await buildTemplate(server, owner.user, { status: 'PENDING', category: 'MARKETING', body: 'Hello {{1}}' });
      expect((await admin.put(`/api/admin/templates/${inReview.id}/status`, { status: 'APPROVED' })).status).toBe(200);
      await meta.whenReviewed();
    } finally {
      simulator.setWebhook({ url: `${server.url}${WEBHOOK_PATH}`, appSecret: server.config.simulator.appSecret });
    }
    const inReviewRow = (await rowsOf(owner.user.id)).find((row) => row.id === inReview.id)!;
    expect(inReviewRow).toMatchObject({ status: 'PENDING' });
    expect(meta.list(owner.wabaId).find((t) => t.id === inReviewRow.providerTemplateId)).toMatchObject({ status: 'APPROVED' });
    // Approved here before templates were submitted by Sandesh; Meta has since paused it, made it UTILITY and rated it RED.
    const legacy = await buildTemplate(server, owner.user, { status: 'DRAFT', category: 'MARKETING', body: 'Sale on {{1}}' });
    await server.db('templates').where({ id: legacy.id }).update({ status: 'APPROVED', reviewedAt: new Date().toISOString(), submittedAt: new Date().toISOString() });
    // 101 approved templates made in WhatsApp Manager: with the one above, more than Meta's page of 100.
    for (let i = 0; i < 101; i++) meta.seed(owner.wabaId, { name: `manager_${i}`, language: 'en_US', category: 'UTILITY', components: body(`Order ${i} for {{1}} ships today`) });
    meta.seed(owner.wabaId, { name: 'still_in_review', language: 'en_US', category: 'UTILITY', status: 'PENDING', components: body('Soon') });
    meta.seed(owner.wabaId, { name: 'a_carousel', language: 'en_US', category: 'MARKETING', components: [...body('Look'), { type: 'CAROUSEL', cards: [] }] });
    // On the second page.
    const legacyAtMeta = meta.seed(owner.wabaId, { name: legacy.name, language: 'en_US', category: 'UTILITY', status: 'PAUSED', quality: 'RED', components: body('Sale on {{1}}') });
    meta.seed(owner.wabaId, {
      name: 'named_with_button',
      language: 'hi',
      category: 'MARKETING',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Hi {{1}}', example: { header_text: ['Asha'] } },
        { type: 'BODY', text: 'Your code {{code}} is ready', example: { body_text_named_params: [{ param_name: 'code', example: 'DIWALI' }] } },
        { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Open', url: 'https://shop.example/o/{{1}}', example: ['https://shop.example/o/77'] }] },
      ],
    });

    // What follows a template's state (its campaigns, the owner's notices) is told of the sync's moves.
    const statusMoves: { templateId: number; from: string; to: string; metaEvent: string }[] = [];
    const categoryMoves: { templateId: number; from: string; to: string }[] = [];
    server.services.templateSync.onTemplateStatus = async (_id, move) => void statusMoves.push(move);
    server.services.templateSync.onTemplateCategory = async (move) => void categoryMoves.push(move);
    let first: Awaited<ReturnType<typeof owner.client.post<TTemplateSyncResponse>>>;
    try {
      first = await owner.client.post<TTemplateSyncResponse>('/api/templates/sync');
    } finally {
      server.services.templateSync.onTemplateStatus = undefined;
      server.services.templateSync.onTemplateCategory = undefined;
    }
    expect(statusMoves).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ templateId: inReview.id, from: 'PENDING', to: 'APPROVED', metaEvent: 'APPROVED' }),
        expect.objectContaining({ templateId: legacy.id, from: 'APPROVED', to: 'PAUSED', metaEvent: 'PAUSED' }),
      ]),
    );
    expect(statusMoves).toHaveLength(2);
    expect(categoryMoves).toEqual([expect.objectContaining({ templateId: legacy.id, from: 'MARKETING', to: 'UTILITY' })]);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ imported: 102, updated: 2, unchanged: 1, failed: 1 });
    expect(first.body.message).toBe(fillMessage(messages.templateSync.result, { imported: '102', updated: '2', unchanged: '1', failed: '1' }));

    const rows = await rowsOf(owner.user.id);
    expect(rows).toHaveLength(104);
    const byName = new Map(rows.map((row) => [row.name, row]));
    expect(byName.get(legacy.name)).toMatchObject({ status: 'PAUSED', metaStatus: 'PAUSED', category: 'UTILITY', qualityRating: 'RED', providerTemplateId: legacyAtMeta.id, importedAt: null });
    expect(byName.get(inReview.name)).toMatchObject({ status: 'APPROVED', metaStatus: 'APPROVED', importedAt: null });
    expect(byName.get('manager_100')).toMatchObject({ status: 'APPROVED', category: 'UTILITY', metaStatus: 'APPROVED' });
    expect(byName.get('manager_100')!.importedAt).not.toBeNull();
    expect(byName.has('still_in_review')).toBe(false);
    expect(byName.has('a_carousel')).toBe(false);
    const named = byName.get('named_with_button')!;
    expect(named.language).toBe('hi');
    expect(json(named.components)).toEqual([
      { type: 'HEADER', format: 'TEXT', text: 'Hi {{1}}' },
      { type: 'BODY', text: 'Your code {{code}} is ready' },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Open', url: 'https://shop.example/o/{{1}}' }] },
    ]);
    expect(json(named.variableExamples)).toEqual({ header_1: 'Asha', code: 'DIWALI', button_0_url: '77' });

    const second = await owner.client.post<TTemplateSyncResponse>('/api/templates/sync');
    expect(second.body.data).toEqual({ imported: 0, updated: 0, unchanged: 105, failed: 1 });
    expect(await rowsOf(owner.user.id)).toHaveLength(104);

    // Meta reinstates the paused one: the next sync puts it back in use.
    meta.alter(legacyAtMeta.id, { status: 'APPROVED', quality: 'GREEN' });
    const third = await owner.client.post<TTemplateSyncResponse>('/api/templates/sync');
    expect(third.body.data).toEqual({ imported: 0, updated: 1, unchanged: 104, failed: 1 });
    expect((await rowsOf(owner.user.id)).find((row) => row.id === legacy.id)).toMatchObject({ status: 'APPROVED', qualityRating: 'GREEN' });
  });

  it('makes an imported template usable for a send at once', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const name = `sandbox_made_${Date.now() % 1e9}`;
    meta.seed(simulatorWabaId(user.id), { name, language: 'en_US', category: 'UTILITY', components: body('Your parcel {{1}} is on its way') });
    const synced = await client.post<TTemplateSyncResponse>('/api/templates/sync');
    expect(synced.status).toBe(200);
    expect(synced.body.data.imported).toBeGreaterThanOrEqual(1);
    const key = await apiKeyFor(client);
    const sent = await postApiSend<{ success: boolean }>(server.url, key, { username: user.username, templatename: name, recipient_number: '919876520077', var1: 'PX-1' });
    expect(sent.status).toBe(200);
    expect(sent.body.success).toBe(true);
  });

  it('lets an administrator sync a user, audited, and refuses anyone else', async () => {
    const owner = await business();
    meta.seed(owner.wabaId, { name: 'by_the_admin', language: 'en_US', category: 'MARKETING', components: body('Hi') });
    const refused = await owner.client.post(`/api/admin/users/${owner.user.id}/templates/sync`);
    expect(refused.status).toBe(403);
    const synced = await admin.post<TTemplateSyncResponse>(`/api/admin/users/${owner.user.id}/templates/sync`);
    expect(synced.status).toBe(200);
    expect(synced.body.data).toEqual({ imported: 1, updated: 0, unchanged: 0, failed: 0 });
    const audit = (await server.db('audit_log').where({ action: 'template.sync', targetId: String(owner.user.id) })) as { details: string | Record<string, number> }[];
    expect(audit).toHaveLength(1);
    expect(json(audit[0]!.details)).toEqual({ imported: 1, updated: 0, unchanged: 0, failed: 0 });
    const listed = await admin.get<{ templates: { name: string; status: string; importedAt: string | null }[] }>(`/api/admin/users/${owner.user.id}/templates`);
    expect(listed.body.templates).toEqual([expect.objectContaining({ name: 'by_the_admin', status: 'APPROVED', importedAt: expect.any(String) })]);
    expect((await admin.post(`/api/admin/users/999999/templates/sync`)).status).toBe(404);
  });

  it('reads Meta once for two syncs of the same user at once, both answered with its counts', async () => {
    const owner = await business();
    for (let i = 0; i < 3; i++) meta.seed(owner.wabaId, { name: `twice_${i}`, language: 'en_US', category: 'UTILITY', components: body('Hi') });
    const [own, admins] = await Promise.all([
      owner.client.post<TTemplateSyncResponse>('/api/templates/sync'),
      admin.post<TTemplateSyncResponse>(`/api/admin/users/${owner.user.id}/templates/sync`),
    ]);
    expect(own.body.data).toEqual({ imported: 3, updated: 0, unchanged: 0, failed: 0 });
    expect(admins.body.data).toEqual(own.body.data);
    expect(await rowsOf(owner.user.id)).toHaveLength(3);
  });

  it('answers a clear error for an account with no business account to read from', async () => {
    const user = await buildUser(server);
    const now = new Date().toISOString();
    await server.db('whatsapp_numbers').insert({ userId: user.id, provider: 'cloud_api', phoneNumberId: `9${Date.now() % 1e9}`, displayNumber: '+91 98000 00000', label: 'Old', messagesPerSecond: 10, isSandbox: false, isActive: true, createdAt: now, updatedAt: now });
    const answer = await admin.post<{ error: string; code: string }>(`/api/admin/users/${user.id}/templates/sync`);
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: 'template_account_missing', error: messages.templateSync.noAccount });
  });

  it('changes nothing when Meta fails part way through the list, and says so', async () => {
    const owner = await business();
    for (let i = 0; i < 101; i++) meta.seed(owner.wabaId, { name: `outage_${i}`, language: 'en_US', category: 'UTILITY', components: body('Hi') });
    meta.fault(owner.wabaId, { failPagesAfterFirst: true });
    const answer = await owner.client.post<{ error: string; code: string }>('/api/templates/sync');
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ code: 'template_sync_unavailable', error: messages.templateSync.unavailable });
    expect(await rowsOf(owner.user.id)).toHaveLength(0);
    meta.fault(owner.wabaId, null);
    expect((await owner.client.post<TTemplateSyncResponse>('/api/templates/sync')).body.data).toEqual({ imported: 101, updated: 0, unchanged: 0, failed: 0 });
  });

  it('runs the daily sync once between two instances sharing the database, and again the next day', async () => {
    const owner = await business();
    meta.seed(owner.wabaId, { name: 'healed_daily', language: 'en_US', category: 'UTILITY', components: body('Hi') });
    let clock = new Date('2031-03-03T22:00:00.000Z'); // 03:30 in India: before the hour
    const now = () => clock;
    const logger = createLogger(server.config);
    const pools = [createDatabase(server.config.database), createDatabase(server.config.database)];
    try {
      const instances = pools.map((db) => {
        const sync = new TemplateSync({ db, accounts: server.services.templateAccounts, api: server.services.templateApi, audit: server.services.audit, log: logger, now });
        return new DailyTemplateSync({ db, sync, hourIst: 4, log: logger, now });
      });
      expect(await Promise.all(instances.map((i) => i.tick()))).toEqual([null, null]);

      clock = new Date('2031-03-03T22:31:00.000Z'); // 04:01 in India, 4 March
      const runs = (await Promise.all(instances.map((i) => i.tick()))).filter((run) => run !== null);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ runKey: 'daily:2031-03-04', accountsFailed: 0 });
      expect(runs[0]!.imported).toBeGreaterThanOrEqual(1);
      expect((await rowsOf(owner.user.id)).map((row) => row.name)).toEqual(['healed_daily']);
      expect(await server.db('template_sync_runs').where({ runKey: 'daily:2031-03-04' }).select('id')).toHaveLength(1);

      clock = new Date('2031-03-04T12:00:00.000Z');
      expect(await Promise.all(instances.map((i) => i.tick()))).toEqual([null, null]);

      clock = new Date('2031-03-04T23:00:00.000Z'); // 04:30 in India, 5 March
      const next = (await Promise.all(instances.map((i) => i.tick()))).filter((run) => run !== null);
      expect(next).toHaveLength(1);
      expect(next[0]).toMatchObject({ runKey: 'daily:2031-03-05', imported: 0 });
    } finally {
      await Promise.all(pools.map((db) => db.destroy()));
    }
  });

  it('deletes a template at Meta in its own language only, then here', async () => {
    const owner = await business();
    // Submitted to Meta by the administrator's approval; the same name exists there in Hindi too.
    const template = await buildTemplate(server, owner.user, { body: 'Bye {{1}}' });
    const english = meta.list(owner.wabaId).find((t) => t.name === template.name)!;
    expect(english).toBeDefined();
    const hindi = meta.seed(owner.wabaId, { name: template.name, language: 'hi', category: 'MARKETING', components: body('Alvida {{1}}') });
    const answer = await owner.client.delete(`/api/templates/${template.id}`);
    expect(answer.status).toBe(200);
    expect(await server.db('templates').where({ id: template.id }).first()).toBeUndefined();
    const left = meta.list(owner.wabaId).map((t) => t.id);
    expect(left).not.toContain(english.id);
    expect(left).toContain(hindi.id);
  });

  it('keeps a template here when Meta refuses to delete it, with a catalogue error', async () => {
    const owner = await business();
    const template = await buildTemplate(server, owner.user);
    const atMeta = meta.list(owner.wabaId).find((t) => t.name === template.name)!;
    expect(atMeta).toBeDefined();
    meta.fault(owner.wabaId, { refuseDelete: { name: template.name, message: 'This template is used by an active campaign' } });
    const answer = await owner.client.delete<{ error: string; code: string }>(`/api/templates/${template.id}`);
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({
      code: 'template_delete_refused',
      error: fillMessage(messages.templateSync.deleteRefused, { name: template.name, reason: 'This template is used by an active campaign' }),
    });
    expect(await server.db('templates').where({ id: template.id }).first()).toBeDefined();
    expect(meta.list(owner.wabaId).map((t) => t.id)).toContain(atMeta.id);
  });

  it('deletes here a template Meta never had, and a draft without asking Meta', async () => {
    const owner = await business();
    const pending = await buildTemplate(server, owner.user, { status: 'PENDING' });
    const draft = await buildTemplate(server, owner.user, { status: 'DRAFT' });
    // Meta is down: the draft's delete never asks it.
    meta.fault(owner.wabaId, { failPagesAfterFirst: true });
    expect((await owner.client.delete(`/api/templates/${draft.id}`)).status).toBe(200);
    meta.fault(owner.wabaId, null);
    expect((await owner.client.delete(`/api/templates/${pending.id}`)).status).toBe(200);
    expect(await rowsOf(owner.user.id)).toHaveLength(0);
  });
});
