/**
 * One rule turns a spreadsheet row into a message. The same rows go through Customize
 * Message's preview (the renderer's `customPreview`) and through the personalised send; what the
 * preview shows for each row is what the server stores for it, and the rows the preview flags
 * are the rows the send skips.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCampaignAccepted, TSenderNumber } from '@shared/schemas/sending';
import type { TTemplate } from '@shared/types';
import { customPreview, mappingsPayload } from '../../desktop/src/renderer/src/lib/sending/customize';
import type { TestClient } from '../../server/test/client';
import { signedInClient, uniqueName, waitForTemplateStatus } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

describe.skipIf(postgresUnavailable)('a spreadsheet row as a message: preview and send agree', () => {
  let server: TestServer;
  let admin: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    ({ client: admin } = await signedInClient(server, { role: 'admin' }));
  });
  afterAll(async () => {
    await server?.close();
  });

  async function approvedTemplate(client: TestClient): Promise<TTemplate> {
    const created = await client.post<{ data: TTemplate }>('/api/templates', {
      name: uniqueName('rows'),
      category: 'UTILITY',
      language: 'en_US',
      headerType: 'none',
      headerText: '',
      bodyText: 'Hi {{1}}, order {{2}} is due on {{3}}.',
      footerText: '',
      buttons: [],
      variableExamples: {},
      submit_to_whatsapp: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const approved = await admin.put<{ data: TTemplate }>(`/api/admin/templates/${created.body.data.id}/status`, { status: 'APPROVED' });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    // Our approval sends it to Meta (the simulator), whose review approves it.
    await waitForTemplateStatus(server, approved.body.data.id, 'APPROVED');
    return approved.body.data;
  }

  it('stores for every row the values its preview showed, and skips the rows the preview flags', async () => {
    const { client } = await signedInClient(server, { creditRupees: 10 });
    const template = await approvedTemplate(client);
    const number = ((await client.get<{ data: TSenderNumber[] }>('/api/whatsapp/numbers')).body.data[0] as TSenderNumber).phone_number_id;
    // As the screen holds them: JSON from parse-excel, with the shapes a JSON caller can send too.
    const rows: Record<string, unknown>[] = [
      { Phone: 9876520101, Name: '  Asha  ', Order: 1234567, Due: '2025-03-01' },
      { Phone: ' 98765 20102 ', Name: 'Ravi', Order: 'A-2', Due: ' 2025-03-02 ' },
      { Phone: '9876520103', Name: '   ', Order: 'A-3', Due: '2025-03-03' },
      { Phone: 'n/a', Name: 'Kiran', Order: 'A-4', Due: '2025-03-04' },
      { Phone: '919876520105', Name: 'Meena', Order: 12.5, Due: true },
      { Phone: '919876520106', Name: 'Dev', Order: ['A', 6], Due: { on: 'Monday' } },
    ];
    const variables = ['1', '2', '3'];
    const mappings = { '1': 'Name', '2': 'Order', '3': 'Due' };

    const preview = customPreview(rows, 'Phone', variables, mappings, template, rows.length);
    const res = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/send-custom-messages', {
      templateName: template.name,
      language: 'en_US',
      phoneNumberId: number,
      recipientColumn: 'Phone',
      variableMappings: mappingsPayload(mappings, variables),
      data: rows,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const stored = (await server.db('messages').where({ campaignId: res.body.data.campaignId }).select('recipient', 'variables')) as { recipient: string; variables: string }[];
    const sent = Object.fromEntries(stored.map((row) => [row.recipient, JSON.parse(row.variables) as Record<string, string>]));
    const sendable = preview.filter((row) => row.validRecipient && row.missing === null);
    expect(sent).toEqual(Object.fromEntries(sendable.map((row) => [row.recipient, row.values])));
    // The rule itself, spelled out: trimmed text, numbers as written, a boolean as its word, nested JSON as written.
    expect(sent).toEqual({
      '919876520101': { 1: 'Asha', 2: '1234567', 3: '2025-03-01' },
      '919876520102': { 1: 'Ravi', 2: 'A-2', 3: '2025-03-02' },
      '919876520105': { 1: 'Meena', 2: '12.5', 3: 'true' },
      '919876520106': { 1: 'Dev', 2: '["A",6]', 3: '{"on":"Monday"}' },
    });
    expect(preview[0]?.text).toBe('Hi Asha, order 1234567 is due on 2025-03-01.');

    const skipped = res.body.data.skippedRows?.map((row) => [row.row, row.reason]);
    expect(skipped).toEqual(
      preview.filter((row) => !row.validRecipient || row.missing !== null).map((row) => [row.row, row.validRecipient ? 'missing_value' : 'invalid_number']),
    );
    expect(skipped).toEqual([
      [3, 'missing_value'],
      [4, 'invalid_number'],
    ]);
  });
});
