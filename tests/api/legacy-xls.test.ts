/**
 * Legacy .xls workbooks (spec 002 lists the type) are read wherever .xlsx is: the send screens'
 * parse, the recipient import and a resumable upload that a send then names, read through SheetJS
 * 0.20.3 in the parse worker. A file that is not a readable workbook gets catalogue words, never a 500.
 * Fixtures are written by SheetJS itself (server/test/legacyXls.ts), never committed.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import type { TCostPreview } from '@shared/schemas/sending';
import { ZUploadCompleted, ZUploadCreated } from '@shared/schemas/uploads';
import type { TErrorResponse } from '@shared/types';
import type { TestClient } from '../../server/test/client';
import { buildTemplate, signedInClient } from '../../server/test/factories';
import { xlsOf, xlsWorkbook } from '../../server/test/legacyXls';
import { sandboxNumber } from '../../server/test/sending';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const PART_SIZE = 16 * 1024;

function sheetForm(name: string, content: Buffer): FormData {
  const data = new FormData();
  data.append('file', new Blob([new Uint8Array(content)]), name);
  return data;
}

const recipients = (count: number) => [
  ['Phone', 'Name', 'Joined'],
  ...Array.from({ length: count }, (_, i) => [919810000000 + i, `Name ${i}`, new Date(Date.UTC(2024, 4, 1 + (i % 28)))]),
];

describe.skipIf(postgresUnavailable)('legacy .xls workbooks', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ UPLOAD_PART_SIZE: '16kb', UPLOAD_MAX_MB: '64' });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Uploads `content` in parts and completes it, answering the completion. */
  async function upload(client: TestClient, content: Buffer, filename: string) {
    const created = await client.post('/api/uploads', { filename, size: content.length, sha256: createHash('sha256').update(content).digest('hex') });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { id, partCount } = ZUploadCreated.parse(created.body);
    for (let n = 1; n <= partCount; n += 1) {
      const part = await client.put(`/api/uploads/${id}/parts/${n}`, new Uint8Array(content.subarray((n - 1) * PART_SIZE, n * PART_SIZE)));
      expect(part.status).toBe(200);
    }
    return client.post(`/api/uploads/${id}/complete`);
  }

  it('reads the first sheet of an .xls in parse-excel: long numbers as digits, dates as the sheet shows them', { timeout: 120_000 }, async () => {
    const { client } = await signedInClient(server);
    const content = xlsWorkbook([
      { name: 'Recipients', rows: [['Phone', 'Name', 'Joined', 'Note'], [919876543210, 'Asha', new Date(Date.UTC(2024, 4, 6)), null], [447700900123456, '', null, 'x']] },
      { name: 'Other', rows: [['Nope']] },
    ]);
    const answer = await client.post<{ data: { rows: Record<string, string>[]; columns: string[]; totalRows: number; truncated: boolean } }>(
      '/api/whatsapp/parse-excel',
      sheetForm('recipients.xls', content),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toEqual({
      columns: ['Phone', 'Name', 'Joined', 'Note'],
      rows: [
        { Phone: '919876543210', Name: 'Asha', Joined: '2024-05-06', Note: '' },
        { Phone: '447700900123456', Name: '', Joined: '', Note: 'x' },
      ],
      totalRows: 2,
      truncated: false,
    });
  });

  it('imports the numbers of an .xls in import-recipients', { timeout: 120_000 }, async () => {
    const { client } = await signedInClient(server);
    const answer = await client.post<{ data: { valid_numbers: string[]; valid_count: number } }>('/api/whatsapp/import-recipients', sheetForm('numbers.XLS', xlsOf(recipients(3))));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.valid_numbers).toEqual(['919810000000', '919810000001', '919810000002']);
  });

  it('completes a resumable upload of an .xls and prices a send from it', { timeout: 120_000 }, async () => {
    const { client, user } = await signedInClient(server);
    const content = xlsOf(recipients(2_000));
    expect(content.length).toBeGreaterThan(PART_SIZE);
    const completed = await upload(client, content, 'recipients.xls');
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    const summary = ZUploadCompleted.parse(completed.body);
    expect(summary.rows).toBe(2_000);
    expect(summary.columns).toEqual(['Phone', 'Name', 'Joined']);
    expect(summary.sample[2]).toEqual({ Phone: '919810000002', Name: 'Name 2', Joined: '2024-05-03' });

    const template = await buildTemplate(server, user, { body: 'Hello {{1}}, since {{2}}' });
    const number = await sandboxNumber(client);
    const preview = await client.post<{ preview: TCostPreview } & TErrorResponse>('/api/whatsapp/bulk-customize-send', {
      templateName: template.name,
      language: 'en_US',
      phoneNumberId: number.phone_number_id,
      recipientColumn: 'Phone',
      variableMappings: { '1': 'Name', '2': 'Joined' },
      uploadId: summary.id,
      dry_run: true,
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.preview).toMatchObject({ recipients: 2_000, billable: 2_000, exact: true });
  });

  it('answers a malformed .xls with catalogue words and 400, never a 500', { timeout: 120_000 }, async () => {
    const { client } = await signedInClient(server);
    const good = xlsOf(recipients(50));
    const truncated = good.subarray(0, 700);
    const garbled = Buffer.concat([good.subarray(0, 8), Buffer.alloc(4_000, 0xee)]);
    for (const [name, content] of [
      ['truncated.xls', truncated],
      ['garbled.xls', garbled],
    ] as const) {
      const parsed = await client.post('/api/whatsapp/parse-excel', sheetForm(name, content));
      expect(parsed.status, name).toBe(400);
      expect(parsed.body, name).toMatchObject({ error: messages.sending.fileUnreadable, field: 'file' });
      const imported = await client.post('/api/whatsapp/import-recipients', sheetForm(name, content));
      expect(imported.status, name).toBe(400);
      expect(imported.body, name).toMatchObject({ error: messages.sending.fileUnreadable });
    }
    const completed = await upload(client, garbled, 'garbled.xls');
    expect(completed.status).toBe(400);
    expect(completed.body).toMatchObject({ error: messages.sending.fileUnreadable, field: 'file' });
  });
});
