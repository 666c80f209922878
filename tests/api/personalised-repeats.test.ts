/**
 * A second order to the same customer is its own message: in a personalised send a row repeats an
 * earlier one only when its number and every value do. Repeats are not sent, not charged, and are
 * listed with their row among the rows not sent; the 24-hour Duplicate Blocked rule compares the
 * values too. Through the public batch API and the app's personalised send, on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import type { TCampaignAccepted, TCostPreview } from '@shared/schemas/sending';
import type { TestClient } from '../../server/test/client';
import { buildTemplate, signedInClient } from '../../server/test/factories';
import { apiKeyFor, postApiSend, sandboxNumber } from '../../server/test/sending';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

describe.skipIf(postgresUnavailable)('personalised rows repeat only in number and every value', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const repeatMessage = (row: number) => fillMessage(messages.sending.skipped.duplicate_in_list, { row });

  /** The campaign's messages as stored: recipient, values, status and price. */
  async function storedMessages(campaignId: number): Promise<{ recipient: string; variables: unknown; status: string; priceUnits: number }[]> {
    const rows = (await server.db('messages').where({ campaignId }).orderBy('id').select('recipient', 'variables', 'status', 'priceUnits')) as {
      recipient: string;
      variables: string | object;
      status: string;
      priceUnits: number | string;
    }[];
    return rows.map((row) => ({
      recipient: row.recipient,
      variables: typeof row.variables === 'string' ? (JSON.parse(row.variables) as unknown) : row.variables,
      status: row.status,
      priceUnits: Number(row.priceUnits),
    }));
  }

  async function campaignCost(campaignId: number): Promise<{ billableCount: number; totalCostUnits: number; priceUnits: number }> {
    const row = (await server.db('campaigns').where({ id: campaignId }).first('billableCount', 'totalCostUnits', 'priceUnits')) as Record<string, number | string>;
    return { billableCount: Number(row.billableCount), totalCostUnits: Number(row.totalCostUnits), priceUnits: Number(row.priceUnits) };
  }

  describe('POST /api/send/batch', () => {
    const batch = async (client: TestClient, username: string, templatename: string, rows: Record<string, string>[]) =>
      postApiSend<{ data: TCampaignAccepted }>(server.url, await apiKeyFor(client), { username, templatename, messages: rows }, '/api/send/batch');

    it('sends and charges two orders to the same number with different values', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user);
      const res = await batch(client, user.username, template.name, [
        { recipient_number: '919876530001', var1: 'Asha', var2: 'ORD-1003' },
        { recipient_number: '9876530001', var1: 'Asha', var2: 'ORD-1004' },
      ]);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({ accepted: 2, duplicates: 0, repeats: 0, skippedCount: 0 });
      const stored = await storedMessages(res.body.data.campaignId);
      // Both are on their way (the dispatcher may already have taken them), each at the message's price.
      expect(stored.map((m) => [m.recipient, m.variables, m.status === 'duplicate', m.priceUnits > 0])).toEqual([
        ['919876530001', { '1': 'Asha', '2': 'ORD-1003' }, false, true],
        ['919876530001', { '1': 'Asha', '2': 'ORD-1004' }, false, true],
      ]);
      const cost = await campaignCost(res.body.data.campaignId);
      expect(cost).toMatchObject({ billableCount: 2, totalCostUnits: 2 * cost.priceUnits });
    });

    it('sends a row repeating number and values once, lists the repeat with its row and does not charge it', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user);
      const res = await batch(client, user.username, template.name, [
        { recipient_number: '919876530011', var1: 'Asha', var2: 'ORD-1003' },
        { recipient_number: '919876530012', var1: 'Ravi', var2: 'ORD-2001' },
        { recipient_number: '+91 98765 30011', var1: 'Asha', var2: 'ORD-1003' },
      ]);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({ accepted: 2, duplicates: 1, repeats: 1, skippedCount: 1 });
      expect(res.body.data.skippedRows).toEqual([{ row: 3, value: '+91 98765 30011', reason: 'duplicate_in_list', message: repeatMessage(1) }]);
      expect((await storedMessages(res.body.data.campaignId)).map((m) => m.recipient)).toEqual(['919876530011', '919876530012']);
      const cost = await campaignCost(res.body.data.campaignId);
      expect(cost).toMatchObject({ billableCount: 2, totalCostUnits: 2 * cost.priceUnits });
    });

    it('does not block a second order within the duplicate window, and blocks the same order sent again', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user);
      const first = await batch(client, user.username, template.name, [{ recipient_number: '919876530021', var1: 'Asha', var2: 'ORD-1003' }]);
      expect(first.body.data).toMatchObject({ accepted: 1 });
      const again = await batch(client, user.username, template.name, [
        { recipient_number: '919876530021', var1: 'Asha', var2: 'ORD-1004' },
        { recipient_number: '919876530021', var1: 'Asha', var2: 'ORD-1003' },
      ]);
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body.data).toMatchObject({ accepted: 1, duplicates: 1, repeats: 0 });
      expect(again.body.data.skippedRows?.map((row) => [row.row, row.reason])).toEqual([[2, 'duplicate_blocked']]);
      expect((await storedMessages(again.body.data.campaignId)).map((m) => [m.variables, m.status === 'duplicate', m.priceUnits])).toEqual([
        [{ '1': 'Asha', '2': 'ORD-1004' }, false, expect.any(Number)],
        [{ '1': 'Asha', '2': 'ORD-1003' }, true, 0],
      ]);
    });
  });

  describe('POST /api/whatsapp/send-custom-messages', () => {
    async function customSend(client: TestClient, templateName: string, data: Record<string, unknown>[], dryRun: boolean) {
      const number = await sandboxNumber(client);
      return client.post<{ data: TCampaignAccepted; preview: TCostPreview }>('/api/whatsapp/send-custom-messages', {
        templateName,
        language: 'en_US',
        phoneNumberId: number.phone_number_id,
        recipientColumn: 'Phone',
        variableMappings: { '1': 'Name', '2': 'Order' },
        data,
        dry_run: dryRun,
      });
    }

    it('previews and sends both orders to one number, and lists only the row repeating number and values, with its row', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user);
      const data = [
        { Phone: '9876530031', Name: 'Asha', Order: 'ORD-1003' },
        { Phone: '9876530031', Name: 'Asha', Order: 'ORD-1004' },
        { Phone: '919876530031', Name: ' Asha ', Order: 'ORD-1003' },
        { Phone: '9876530032', Name: 'Ravi', Order: 'ORD-2001' },
      ];
      const preview = await customSend(client, template.name, data, true);
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      expect(preview.body.preview).toMatchObject({ recipients: 4, billable: 3, duplicates: 1, repeats: 1, skippedCount: 1, exact: true });
      const listed = [{ row: 3, value: '919876530031', reason: 'duplicate_in_list', message: repeatMessage(1) }];
      expect(preview.body.preview.skippedRows).toEqual(listed);

      const sent = await customSend(client, template.name, data, false);
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      expect(sent.body.data).toMatchObject({ accepted: 3, repeats: 1, totalCost: preview.body.preview.totalCost, skippedRows: listed });
      const stored = await storedMessages(sent.body.data.campaignId);
      expect(stored.map((m) => [m.recipient, m.variables])).toEqual([
        ['919876530031', { '1': 'Asha', '2': 'ORD-1003' }],
        ['919876530031', { '1': 'Asha', '2': 'ORD-1004' }],
        ['919876530032', { '1': 'Ravi', '2': 'ORD-2001' }],
      ]);
      const cost = await campaignCost(sent.body.data.campaignId);
      expect(cost).toMatchObject({ billableCount: 3, totalCostUnits: 3 * cost.priceUnits });
    });
  });
});
