/**
 * The right message to the right number for the right count. Each block reproduces one
 * defect once found in sending through the HTTP API, on SQLite and on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageFigures, type MessageStatusCounts } from '@shared/figures';
import { messages } from '@shared/messages';
import type { TAccountOverview, TReportsPage, TReportsSummary, TTimelinePoint } from '@shared/schemas/reports';
import type { TCampaign, TCampaignAccepted, TCostPreview } from '@shared/schemas/sending';
import type { User } from '../../server/src/models';
import type { TestClient } from '../../server/test/client';
import { buildCampaign, buildTemplate, signedInClient, type BuildMessageOptions } from '../../server/test/factories';
import { waitForCampaign } from '../../server/test/polling';
import { apiKeyFor, postApiSend, sandboxNumber } from '../../server/test/sending';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

describe.skipIf(postgresUnavailable)('send paths', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const keyFor = (client: TestClient) => apiKeyFor(client);
  const sendApi = <T = Record<string, unknown>>(key: string, body: unknown, path = '/api/send') => postApiSend<T>(server.url, key, body, path);

  async function recipientsOf(campaignId: number): Promise<string[]> {
    const rows = (await server.db('messages').where({ campaignId }).orderBy('recipient').select('recipient')) as { recipient: string }[];
    return rows.map((r) => r.recipient);
  }

  describe('1. one phone rule on every path', () => {
    it('adds 91 to a bare Indian mobile in quick send, de-duplicating it against the same number written with 91', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user);
      const number = await sandboxNumber(client);
      const res = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/quick-send', {
        phone_number_id: number.phone_number_id,
        template_name: template.name,
        language: 'en_US',
        recipients_text: '9876520004\n919876520004\n09876520005\n0091 98765 20006\n0123456789',
        variables: { '1': 'Asha', '2': 'A-17' },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ accepted: 3, duplicates: 1, invalid: 1 });
      expect(await recipientsOf(res.body.data.campaignId)).toEqual(['919876520004', '919876520005', '919876520006']);
    });

    it('adds 91 to a spreadsheet column of bare mobiles in a personalised send', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user);
      const number = await sandboxNumber(client);
      const res = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/send-custom-messages', {
        templateName: template.name,
        language: 'en_US',
        phoneNumberId: number.phone_number_id,
        recipientColumn: 'Phone',
        variableMappings: { '1': 'Name', '2': 'Order' },
        data: [
          { Phone: 9876520014, Name: 'Meena', Order: 'O-1' },
          { Phone: '98765 20015', Name: 'Ravi', Order: 'O-2' },
        ],
      });
      expect(res.status).toBe(200);
      expect(await recipientsOf(res.body.data.campaignId)).toEqual(['919876520014', '919876520015']);
    });

    it('adds 91 in the API single and batch calls, and in the recipient import', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user);
      const key = await keyFor(client);
      const single = await sendApi<{ campaign_id: number }>(key, { username: user.username, templatename: template.name, recipient_number: '9876520024', var1: 'a', var2: 'b' });
      expect(single.status).toBe(200);
      expect(await recipientsOf(single.body.campaign_id)).toEqual(['919876520024']);
      const batch = await sendApi<{ data: TCampaignAccepted }>(
        key,
        { username: user.username, templatename: template.name, messages: [{ recipient_number: '9876520025', var1: 'a', var2: 'b' }, { recipient_number: '+91 98765 20026', var1: 'c', var2: 'd' }] },
        '/api/send/batch',
      );
      expect(batch.status).toBe(200);
      expect(await recipientsOf(batch.body.data.campaignId)).toEqual(['919876520025', '919876520026']);

      const form = new FormData();
      form.append('file', new Blob(['Phone\n9876520027\n919876520027\n12\n']), 'list.csv');
      const imported = await client.post<{ data: { valid_numbers: string[]; invalid_count: number } }>('/api/whatsapp/import-recipients', form);
      expect(imported.status).toBe(200);
      expect(imported.body.data.valid_numbers).toEqual(['919876520027']);
    });
  });

  describe('6. API answers say what happened', () => {
    it('answers a blocked duplicate with its own message and charged: false', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user);
      const key = await keyFor(client);
      const body = { username: user.username, templatename: template.name, recipient_number: '919876520031', var1: 'a', var2: 'b' };
      const first = await sendApi<{ message: string; status: string; charged: boolean }>(key, body);
      expect(first.body).toMatchObject({ message: messages.publicApi.sent, status: 'queued', charged: true });
      const again = await sendApi<{ message: string; status: string; charged: boolean }>(key, body);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ message: messages.publicApi.duplicateBlocked, status: 'duplicate', charged: false });
    });

    it('sends a message sent many times at once once, and answers the rest duplicate without charging them', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user);
      const key = await keyFor(client);
      const balanceOf = async () => Number(((await server.db('users').where({ id: user.id }).first('creditBalance')) as { creditBalance: number | string }).creditBalance);
      const before = await balanceOf();
      const body = (recipient: string) => ({ username: user.username, templatename: template.name, recipient_number: recipient, var1: 'a', var2: 'b' });
      // Six copies of one message among six others, all at once: the group commit takes them in
      // rounds side by side, and no two copies may be judged before either is committed.
      const sends = Array.from({ length: 12 }, (_, i) => sendApi<{ status: string; charged: boolean }>(key, body(i % 2 === 0 ? '919876520033' : `9198765201${String(i).padStart(2, '0')}`)));
      const answers = await Promise.all(sends);
      expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
      const copies = answers.filter((_, i) => i % 2 === 0).map((answer) => answer.body.status);
      expect(copies.filter((status) => status === 'queued')).toHaveLength(1);
      expect(copies.filter((status) => status === 'duplicate')).toHaveLength(5);
      expect(answers.filter((_, i) => i % 2 === 1).map((answer) => answer.body.status)).toEqual(Array(6).fill('queued'));
      const rows = (await server.db('messages').where({ userId: user.id }).select('recipient', 'status', 'priceUnits')) as { recipient: string; status: string; priceUnits: number | string }[];
      expect(rows.filter((row) => row.recipient === '919876520033' && row.status !== 'duplicate')).toHaveLength(1);
      const charged = rows.filter((row) => row.status !== 'duplicate').reduce((sum, row) => sum + Number(row.priceUnits), 0);
      expect(charged).toBeGreaterThan(0);
      expect(before - (await balanceOf())).toBe(charged);
    });

    it('answers an unknown template with 400, as the API documentation says', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const key = await keyFor(client);
      const single = await sendApi<{ error: string; code: string }>(key, { username: user.username, templatename: 'no_such_template', recipient_number: '919876520032' });
      expect(single.status).toBe(400);
      expect(single.body).toMatchObject({ error: messages.templates.notFound, code: 'template_not_found' });
      const batch = await sendApi(key, { username: user.username, templatename: 'no_such_template', messages: [{ recipient_number: '919876520032' }] }, '/api/send/batch');
      expect(batch.status).toBe(400);
    });

    it('sends an image-header template through the API with its stored image', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user, { headerType: 'image' });
      const key = await keyFor(client);
      const res = await sendApi<{ campaign_id: number }>(key, { username: user.username, templatename: template.name, recipient_number: '919876520033', var1: 'a', var2: 'b' });
      expect(res.status).toBe(200);
      const campaign = (await server.db('campaigns').where({ id: res.body.campaign_id }).first('headerMediaType', 'headerMediaPath')) as { headerMediaType: string; headerMediaPath: string | null };
      expect(campaign).toMatchObject({ headerMediaType: 'image', headerMediaPath: expect.any(String) });
      await waitForCampaign(client, res.body.campaign_id, (c) => c.processed === 1 && c.counts.failed === 0);
    });

    it('refuses clearly an image-header template that has no stored image', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user, { headerType: 'image' });
      // A template from before header files were stored: the image header has no file.
      await server.db('templates').where({ id: template.id }).update({ headerMediaPath: null });
      const key = await keyFor(client);
      const res = await sendApi<{ error: string; code: string }>(key, { username: user.username, templatename: template.name, recipient_number: '919876520034', var1: 'a', var2: 'b' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('header_media_missing');
    });
  });

  describe('3. cancelled is not failed', () => {
    it('stores what a cancel stopped as cancelled: its own report status, counts and export, out of failures and resend', { timeout: 60_000 }, async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 500 });
      const template = await buildTemplate(server, user);
      const number = await sandboxNumber(client);
      const recipients = Array.from({ length: 300 }, (_, i) => String(9_876_600_100 + i)).join('\n');
      const accepted = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/quick-send', {
        phone_number_id: number.phone_number_id,
        template_name: template.name,
        language: 'en_US',
        recipients_text: recipients,
        variables: { '1': 'Asha', '2': 'A-17' },
      });
      expect(accepted.status).toBe(200);
      const id = accepted.body.data.campaignId;
      expect((await client.post(`/api/campaigns/${id}/cancel`)).status).toBe(200);
      const settled = await waitForCampaign(client, id, (c) => c.counts.queued === 0 && c.counts.sending === 0);
      const cancelled = settled.counts.cancelled;
      expect(cancelled).toBeGreaterThan(0);
      expect(settled).toMatchObject({ status: 'cancelled', cancelled });
      expect(settled.counts.failed).toBe(0);
      expect(await server.db('messages').where({ campaignId: id, status: 'failed' })).toHaveLength(0);

      const summary = (await client.get<{ data: TReportsSummary }>('/api/whatsapp/reports/summary')).body.data;
      expect(summary).toMatchObject({ cancelled, failed: 0 });
      // Cancelled messages are not in the rates' denominator.
      expect(summary.deliveryRate).toBe(messageFigures({ sent: summary.sent - summary.delivered, delivered: summary.delivered - summary.read, read: summary.read }).deliveryRate);

      const filtered = await client.get<{ data: TReportsPage }>('/api/whatsapp/reports?status=cancelled&limit=500');
      expect(filtered.status).toBe(200);
      expect(filtered.body.data.total).toBe(cancelled);
      expect(filtered.body.data.reports.every((r) => r.status === 'cancelled' && r.error_message === messages.campaigns.cancelledBeforeSending)).toBe(true);
      const csv = await client.get<string>('/api/whatsapp/reports?status=cancelled&export=csv');
      const text = String(csv.body);
      expect(text).toContain(messages.reports.statuses.cancelled);
      expect(text).not.toContain(messages.reports.statuses.failed);

      const resend = await client.post(`/api/campaigns/${id}/resend-failed`);
      expect(resend.body).toMatchObject({ error: messages.campaigns.nothingToResend });

      const timeline = (await client.get<{ data: TTimelinePoint[] }>('/api/campaigns/timeline?days=2')).body.data;
      expect(timeline.reduce((sum, point) => sum + point.failed, 0)).toBe(0);
    });
  });

  describe('4. one definition of each figure', () => {
    /** A finished campaign whose messages are in the given states (failures refused by the provider, never sent). */
    async function seed(user: User, statuses: BuildMessageOptions['status'][]): Promise<number> {
      const { campaignId } = await buildCampaign(server, user, { name: 'Figures', source: 'bulk', status: 'completed', messages: statuses.map((status) => ({ status, providerMessageId: null })) });
      return campaignId;
    }

    it('gives the dashboard, the reports summary, the campaign card counts and the chart the same figures from the same rows', async () => {
      const { client, user } = await signedInClient(server);
      const counts: MessageStatusCounts = { sent: 2, delivered: 3, read: 70, failed: 2, cancelled: 5, duplicate: 1, suppressed: 1 };
      const statuses = Object.entries(counts).flatMap(([status, n]) => Array.from({ length: n }, () => status as BuildMessageOptions['status']));
      const campaignId = await seed(user, statuses);
      const expected = messageFigures(counts);
      // A read message was delivered: delivered 73, not 3.
      expect(expected).toMatchObject({ sent: 75, delivered: 73, read: 70, failed: 3, attempted: 77 });

      const summary = (await client.get<{ data: TReportsSummary }>('/api/whatsapp/reports/summary')).body.data;
      expect(summary).toMatchObject({ total: expected.total, sent: expected.sent, delivered: expected.delivered, read: expected.read, failed: expected.failed, cancelled: expected.cancelled, deliveryRate: expected.deliveryRate, readRate: expected.readRate });

      // Messages This Month counts as the reports' total does: every message, blocked duplicates,
      // opt-outs and cancelled ones included (these rows are all of this month).
      const overview = (await client.get<{ data: TAccountOverview }>('/api/dashboard/overview')).body.data;
      expect(overview).toMatchObject({ deliveryRate: expected.deliveryRate, readRate: expected.readRate, messagesThisMonth: expected.total });
      expect(overview.messagesThisMonth).toBe(summary.total);

      const campaign = (await client.get<{ data: TCampaign }>(`/api/campaigns/${campaignId}`)).body.data;
      expect(messageFigures(campaign.counts)).toEqual(expected);

      const timeline = (await client.get<{ data: TTimelinePoint[] }>('/api/campaigns/timeline?days=2')).body.data;
      const total = (key: 'sent' | 'delivered' | 'read' | 'failed') => timeline.reduce((sum, point) => sum + point[key], 0);
      expect({ sent: total('sent'), delivered: total('delivered'), read: total('read') }).toEqual({ sent: expected.sent, delivered: expected.delivered, read: expected.read });
      expect(total('failed')).toBe(counts.failed);
    });
  });

  describe('5. the quoted cost is the charged cost', () => {
    it('previews a quick send over the whole list with the rules of acceptance, listing every skipped row, and charges exactly that', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user);
      const number = await sandboxNumber(client);
      const send = (recipients_text: string, dry_run: boolean) =>
        client.post<{ preview: TCostPreview; data: TCampaignAccepted }>('/api/whatsapp/quick-send', {
          phone_number_id: number.phone_number_id,
          template_name: template.name,
          language: 'en_US',
          recipients_text,
          variables: { '1': 'Asha', '2': 'A-17' },
          dry_run,
        });
      // An earlier send of the same message to …041 (Duplicate Blocked now), and an opt-out of …042.
      expect((await send('919876520041', false)).status).toBe(200);
      await server.db('suppressions').insert({ userId: user.id, recipient: '919876520042', reason: 'test', createdAt: new Date().toISOString() });

      const list = '9876520040\nabc\n919876520041\n919876520042\n+91 98765 20040\n9876520043\n9876520044';
      const preview = await send(list, true);
      expect(preview.status).toBe(200);
      expect(preview.body.preview).toMatchObject({ recipients: 7, billable: 3, invalid: 1, suppressed: 1, duplicates: 2, totalCost: 2.4, exact: true, skippedCount: 4 });
      expect(preview.body.preview.skippedRows?.map((r) => [r.row, r.value, r.reason])).toEqual([
        [2, 'abc', 'invalid_number'],
        [3, '919876520041', 'duplicate_blocked'],
        [4, '919876520042', 'opted_out'],
        [5, '+91 98765 20040', 'duplicate_in_list'],
      ]);
      // Nothing was accepted by the preview.
      expect(await server.db('campaigns').where({ userId: user.id })).toHaveLength(1);

      const sent = await send(list, false);
      expect(sent.status).toBe(200);
      expect(sent.body.data).toMatchObject({ accepted: preview.body.preview.billable, totalCost: preview.body.preview.totalCost, skippedCount: 4 });
    });

    it('previews a personalised send with rows missing a mapped value, as acceptance skips them', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user);
      const number = await sandboxNumber(client);
      const body = {
        templateName: template.name,
        language: 'en_US',
        phoneNumberId: number.phone_number_id,
        recipientColumn: 'Phone',
        variableMappings: { '1': 'Name', '2': 'Order' },
        data: [
          { Phone: '9876520050', Name: 'Meena', Order: 'O-1' },
          { Phone: '9876520051', Name: '', Order: 'O-2' },
          { Phone: '98765', Name: 'Ravi', Order: 'O-3' },
          { Phone: '9876520050', Name: 'Meena', Order: 'O-1' },
        ],
      };
      const preview = await client.post<{ preview: TCostPreview }>('/api/whatsapp/send-custom-messages', { ...body, dry_run: true });
      expect(preview.status).toBe(200);
      expect(preview.body.preview).toMatchObject({ recipients: 4, billable: 1, totalCost: 0.8, exact: true });
      expect(preview.body.preview.skippedRows?.map((r) => [r.row, r.reason])).toEqual([
        [2, 'missing_value'],
        [3, 'invalid_number'],
        [4, 'duplicate_in_list'],
      ]);
      expect(preview.body.preview.skippedRows?.[0]?.message).toContain('{{1}}');
      const sent = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/send-custom-messages', body);
      expect(sent.body.data).toMatchObject({ accepted: 1, totalCost: 0.8 });
    });

    it('lists the skipped rows with their reasons in the API batch answer', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user);
      const key = await keyFor(client);
      const res = await sendApi<{ data: TCampaignAccepted }>(
        key,
        {
          username: user.username,
          templatename: template.name,
          messages: [
            { recipient_number: '9876520060', var1: 'a', var2: 'b' },
            { recipient_number: '12', var1: 'a', var2: 'b' },
            { recipient_number: '919876520060', var1: 'a', var2: 'b' },
          ],
        },
        '/api/send/batch',
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ accepted: 1, skippedCount: 2 });
      expect(res.body.data.skippedRows).toEqual([
        { row: 2, value: '12', reason: 'invalid_number', message: expect.stringContaining(messages.phone.invalid.too_short) },
        { row: 3, value: '919876520060', reason: 'duplicate_in_list', message: expect.stringContaining('1') },
      ]);
    });
  });

  describe('2. variables keyed by component', () => {
    it('fills the header, the body and a URL button from their own API fields, and names them so in the template details', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user, {
        headerType: 'text',
        headerText: 'Offer for {{1}}',
        body: 'Namaste {{1}}!',
        buttons: [{ type: 'URL', text: 'Open offer', url: 'https://shop.example/{{1}}' }],
      });
      const details = await client.post<{ data: { variables: { index: string; placeholder: string }[] } }>('/api/whatsapp/template-details', { template_name: template.name, language: 'en_US' });
      expect(details.body.data.variables.map((v) => [v.index, v.placeholder])).toEqual([
        ['header_1', 'Header {{1}}'],
        ['1', '{{1}}'],
        ['button_0_url', 'Button 1 link {{1}}'],
      ]);

      const key = await keyFor(client);
      const res = await sendApi<{ campaign_id: number }>(key, {
        username: user.username,
        templatename: template.name,
        recipient_number: '919876520071',
        var1: 'Meena',
        header_var1: 'Diwali',
        button_0_url: 'meena-offer',
      });
      expect(res.status).toBe(200);
      const stored = (await server.db('messages').where({ campaignId: res.body.campaign_id }).first('variables')) as { variables: string };
      expect(JSON.parse(stored.variables)).toEqual({ header_1: 'Diwali', '1': 'Meena', button_0_url: 'meena-offer' });
      await waitForCampaign(client, res.body.campaign_id, (c) => c.processed === 1);
      const seen = await client.get<{ data: { text: string }[] }>('/simulator/messages?to=919876520071');
      expect(seen.body.data[0]?.text).toBe('Offer for Diwali\n\nNamaste Meena!');

      // Each component's field is required on its own.
      const noButton = await sendApi<{ field: string }>(key, { username: user.username, templatename: template.name, recipient_number: '919876520072', var1: 'Meena', header_var1: 'Diwali' });
      expect(noButton.status).toBe(400);
      expect(noButton.body.field).toBe('button_0_url');
    });

    it('keeps an existing template working: its shared examples are copied under the component keys', async () => {
      const { user } = await signedInClient(server);
      const template = await buildTemplate(server, user, { headerType: 'text', headerText: 'Hi {{1}}', body: 'Body {{1}}', buttons: [{ type: 'URL', text: 'Go', url: 'https://x.example/{{1}}' }] });
      // As stored before keying: one example for every {{1}}.
      await server.db('templates').where({ id: template.id }).update({ variableExamples: JSON.stringify({ '1': 'Asha' }) });
      const { up } = await import('../../server/src/db/migrations/20261124100400_key_template_examples_by_component');
      await up(server.db);
      const row = (await server.db('templates').where({ id: template.id }).first('variableExamples')) as { variableExamples: string };
      expect(JSON.parse(row.variableExamples)).toEqual({ '1': 'Asha', header_1: 'Asha', button_0_url: 'Asha' });
    });
  });
});
