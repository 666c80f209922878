/**
 * WhatsApp's limits on a variable's value (shared/parameterLimits.ts), held at acceptance: a value
 * too long for its place, or holding a line break or tab, is refused with the catalogue's reason
 * before anything is charged. A quick send and the public API (single, batch, scheduled) are
 * refused whole; a personalised send's row breaking a limit is invalid, listed with why, counted
 * with the invalid rows and not charged. On SQLite and PostgreSQL.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import { parameterRule } from '@shared/parameterLimits';
import { createSpreadsheetCheck } from '@shared/spreadsheetCheck';
import { ZUploadCompleted, ZUploadCreated } from '@shared/schemas/uploads';
import type { TTemplateComponent } from '@shared/types';
import type { TCampaignAccepted, TCostPreview } from '@shared/schemas/sending';
import type { TestClient } from '../../server/test/client';
import { buildTemplate, signedInClient } from '../../server/test/factories';
import { apiKeyFor, postApiSend, sandboxNumber } from '../../server/test/sending';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

describe.skipIf(postgresUnavailable)("WhatsApp's parameter limits at acceptance", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const refused = messages.sending.parameterRefused;
  const campaignsOf = async (userId: number) => Number(((await server.db('campaigns').where({ userId }).count({ n: '*' })) as { n: number | string }[])[0]?.n);

  /** A template with a text header and a URL button, so its body is not its only component. */
  const fullTemplate = (client: { user: Parameters<typeof buildTemplate>[1] }) =>
    buildTemplate(server, client.user, { headerType: 'text', headerText: 'Order {{1}}', body: 'Hi {{1}}, your order {{2}} ships today', buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.example.in/t/{{1}}' }] });

  describe('quick send', () => {
    async function quickSend(client: TestClient, templateName: string, variables: Record<string, string>, extra: Record<string, unknown> = {}) {
      const number = await sandboxNumber(client);
      return client.post<{ data: TCampaignAccepted; preview: TCostPreview; error?: string }>('/api/whatsapp/quick-send', {
        phone_number_id: number.phone_number_id,
        template_name: templateName,
        language: 'en_US',
        recipients_text: '919833370001\n919833370002',
        variables,
        ...extra,
      });
    }

    it('refuses a header value over 60, a body value over 1,024 beside other components and a line break, charging nothing', async () => {
      const signedIn = await signedInClient(server, { creditRupees: 10 });
      const { client, user } = signedIn;
      const template = await fullTemplate(signedIn);
      const fine = { header_1: 'A-1', '1': 'Asha', '2': 'A-1', button_0_url: 'A-1' };
      const before = await server.services.wallet.balance(user.id);

      const header = await quickSend(client, template.name, { ...fine, header_1: 'H'.repeat(61) });
      expect(header.status).toBe(400);
      expect(header.body.error).toBe(fillMessage(refused.too_long, { label: 'Header {{1}}', length: '61', limit: '60' }));

      const body = await quickSend(client, template.name, { ...fine, '2': 'B'.repeat(1025) });
      expect(body.status).toBe(400);
      expect(body.body.error).toBe(fillMessage(refused.too_long, { label: '{{2}}', length: '1,025', limit: '1,024' }));

      const newline = await quickSend(client, template.name, { ...fine, '1': 'Asha\nRao' });
      expect(newline.body.error).toBe(fillMessage(refused.control_character, { label: '{{1}}' }));

      // A scheduled send is held to the same limits when it is accepted, not when it goes.
      const later = await quickSend(client, template.name, { ...fine, '1': 'Asha\tRao' }, { scheduledAt: new Date(Date.now() + 3_600_000).toISOString() });
      expect(later.status).toBe(400);
      expect(later.body.error).toBe(fillMessage(refused.control_character, { label: '{{1}}' }));

      expect(await server.services.wallet.balance(user.id)).toBe(before);
      expect(await campaignsOf(user.id)).toBe(0);
      // At the limits exactly, the same send is accepted.
      const atLimits = await quickSend(client, template.name, { ...fine, header_1: 'H'.repeat(60), '2': 'B'.repeat(1024) });
      expect(atLimits.status, JSON.stringify(atLimits.body)).toBe(200);
      expect(atLimits.body.data).toMatchObject({ accepted: 2 });
    });

    it('takes 32,768 characters when the body is the only component, and refuses 200,000', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user);
      const preview = await quickSend(client, template.name, { '1': 'Asha', '2': 'x'.repeat(32_768) }, { dry_run: true });
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      const huge = await quickSend(client, template.name, { '1': 'Asha', '2': 'x'.repeat(200_000) });
      expect(huge.status).toBe(400);
      expect(huge.body.error).toBe(fillMessage(refused.too_long, { label: '{{2}}', length: '2,00,000', limit: '32,768' }));
      expect(await campaignsOf(user.id)).toBe(0);
    });
  });

  describe('personalised send', () => {
    it('previews a row breaking a limit as invalid with why, and sends the rest charging only them', async () => {
      const signedIn = await signedInClient(server, { creditRupees: 10 });
      const { client, user } = signedIn;
      const template = await fullTemplate(signedIn);
      const number = await sandboxNumber(client);
      const data = [
        { Phone: '9833370011', Name: 'Asha', Order: 'A-1' },
        { Phone: '9833370012', Name: 'N'.repeat(61), Order: 'A-2' },
        { Phone: '9833370013', Name: 'Ravi', Order: 'line\tbreak' },
        { Phone: '9833370014', Name: 'Meena', Order: 'A-4' },
      ];
      const send = (dryRun: boolean) =>
        client.post<{ data: TCampaignAccepted; preview: TCostPreview }>('/api/whatsapp/send-custom-messages', {
          templateName: template.name,
          language: 'en_US',
          phoneNumberId: number.phone_number_id,
          recipientColumn: 'Phone',
          variableMappings: { header_1: 'Name', '1': 'Name', '2': 'Order', button_0_url: 'Order' },
          data,
          dry_run: dryRun,
        });
      const listed = [
        { row: 2, value: '9833370012', reason: 'invalid_value', message: fillMessage(messages.sending.skipped.invalid_value, { why: fillMessage(refused.too_long, { label: 'Header {{1}}', length: '61', limit: '60' }), column: 'Name' }) },
        { row: 3, value: '9833370013', reason: 'invalid_value', message: fillMessage(messages.sending.skipped.invalid_value, { why: fillMessage(refused.control_character, { label: '{{2}}' }), column: 'Order' }) },
      ];
      const preview = await send(true);
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      expect(preview.body.preview).toMatchObject({ recipients: 4, billable: 2, invalid: 2, skippedCount: 2, exact: true });
      expect(preview.body.preview.skippedRows).toEqual(listed);

      const before = await server.services.wallet.balance(user.id);
      const sent = await send(false);
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      expect(sent.body.data).toMatchObject({ accepted: 2, skippedRows: listed });
      const campaign = (await server.db('campaigns').where({ id: sent.body.data.campaignId }).first('billableCount', 'invalidCount', 'totalCostUnits', 'priceUnits')) as Record<string, number | string>;
      expect([Number(campaign.billableCount), Number(campaign.invalidCount)]).toEqual([2, 2]);
      expect(Number(campaign.totalCostUnits)).toBe(2 * Number(campaign.priceUnits));
      expect(await server.services.wallet.balance(user.id)).toBe(before - 2 * Number(campaign.priceUnits));
      const recipients = (await server.db('messages').where({ campaignId: sent.body.data.campaignId }).orderBy('id').pluck('recipient')) as string[];
      expect(recipients).toEqual(['919833370011', '919833370014']);
    });
  });

  describe('a send from an uploaded file', () => {
    /** Uploads `content` in one part and completes it; answers the upload's id. */
    async function uploadFile(client: TestClient, content: Buffer, filename: string): Promise<string> {
      const created = await client.post('/api/uploads', { filename, size: content.length, sha256: createHash('sha256').update(content).digest('hex') });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const { id } = ZUploadCreated.parse(created.body);
      expect((await client.put(`/api/uploads/${id}/parts/1`, new Uint8Array(content))).status).toBe(200);
      const completed = await client.post(`/api/uploads/${id}/complete`);
      expect(completed.status, JSON.stringify(completed.body)).toBe(200);
      return ZUploadCompleted.parse(completed.body).id;
    }

    it('counts a row with an over-long header value invalid in the preview, with the reason the local check gave, and charges only the rest', async () => {
      const signedIn = await signedInClient(server, { creditRupees: 10 });
      const { client, user } = signedIn;
      const template = await fullTemplate(signedIn);
      const number = await sandboxNumber(client);
      const header = ['Phone', 'Name', 'Order'];
      const rows = [
        ['9833370031', 'Asha', 'A-1'],
        ['9833370032', 'N'.repeat(61), 'A-2'],
        ['9833370033', 'Meena', 'A-3'],
      ];
      const variableMappings = { header_1: 'Name', '1': 'Name', '2': 'Order', button_0_url: 'Order' };
      // The apps' check over the same rows, with the template's limits, as the screens run it before upload.
      const check = createSpreadsheetCheck(header, { recipientColumn: 'Phone', variableMappings, parameterRule: parameterRule(template.components as TTemplateComponent[]) });
      rows.forEach((cells, i) => check.addRow(cells, i + 2));
      const local = check.result();
      expect(local).toMatchObject({ validRows: 2, invalidRows: 1 });
      const reason = fillMessage(messages.sending.skipped.invalid_value, { why: fillMessage(refused.too_long, { label: 'Header {{1}}', length: '61', limit: '60' }), column: 'Name' });
      expect(local.invalidSample).toEqual([{ line: 3, value: '9833370032', reason }]);

      const uploadId = await uploadFile(client, Buffer.from([header, ...rows].map((cells) => cells.join(',')).join('\r\n')), 'orders.csv');
      const send = (dryRun: boolean) =>
        client.post<{ data: TCampaignAccepted; preview: TCostPreview }>('/api/whatsapp/bulk-customize-send', {
          templateName: template.name,
          language: 'en_US',
          phoneNumberId: number.phone_number_id,
          recipientColumn: 'Phone',
          variableMappings,
          uploadId,
          dry_run: dryRun,
        });
      const preview = await send(true);
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      expect(preview.body.preview).toMatchObject({ recipients: 3, billable: 2, invalid: 1 });
      expect(preview.body.preview.skippedRows).toEqual([{ row: 2, value: '9833370032', reason: 'invalid_value', message: reason }]);

      const before = await server.services.wallet.balance(user.id);
      const sent = await send(false);
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      expect(sent.body.data).toMatchObject({ accepted: 2 });
      const campaign = (await server.db('campaigns').where({ id: sent.body.data.campaignId }).first('priceUnits')) as { priceUnits: number | string };
      expect(await server.services.wallet.balance(user.id)).toBe(before - 2 * Number(campaign.priceUnits));
    });
  });

  describe('POST /api/send', () => {
    it('refuses a value over its limit (single, scheduled, batch) with the field and the reason, charging nothing', async () => {
      const signedIn = await signedInClient(server, { creditRupees: 10 });
      const { client, user } = signedIn;
      const template = await fullTemplate(signedIn);
      const key = await apiKeyFor(client);
      const fine = { username: user.username, templatename: template.name, recipient_number: '919833370021', header_var1: 'A-1', var1: 'Asha', var2: 'A-1', button_0_url: 'A-1' };
      const before = await server.services.wallet.balance(user.id);

      const body = await postApiSend<{ error: string; field?: string }>(server.url, key, { ...fine, var2: 'B'.repeat(1025) });
      expect(body.status).toBe(400);
      expect(body.body.error).toBe(fillMessage(refused.too_long, { label: '{{2}}', length: '1,025', limit: '1,024' }));

      const prefix = 'https://shop.example.in/t/'.length;
      const link = await postApiSend<{ error: string }>(server.url, key, { ...fine, button_0_url: 'u'.repeat(2001 - prefix) });
      expect(link.status).toBe(400);
      expect(link.body.error).toBe(fillMessage(refused.url_too_long, { label: 'Button 1 link {{1}}', length: '2,001', limit: '2,000' }));

      const scheduled = await postApiSend<{ error: string }>(server.url, key, { ...fine, var1: 'Asha\nRao', scheduled_at: new Date(Date.now() + 3_600_000).toISOString() });
      expect(scheduled.status).toBe(400);
      expect(scheduled.body.error).toBe(fillMessage(refused.control_character, { label: '{{1}}' }));

      const { recipient_number: _one, username, templatename, ...values } = fine;
      const batch = await postApiSend<{ error: string }>(
        server.url,
        key,
        { username, templatename, messages: [{ recipient_number: '919833370022', ...values }, { recipient_number: '919833370023', ...values, header_var1: 'H'.repeat(61) }] },
        '/api/send/batch',
      );
      expect(batch.status).toBe(400);
      expect(batch.body.error).toBe(fillMessage(refused.too_long, { label: 'Header {{1}}', length: '61', limit: '60' }));

      expect(await server.services.wallet.balance(user.id)).toBe(before);
      expect(await campaignsOf(user.id)).toBe(0);
      const ok = await postApiSend(server.url, key, { ...fine, button_0_url: 'u'.repeat(2000 - prefix) });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    });
  });
});
