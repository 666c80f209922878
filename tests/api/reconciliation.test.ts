/**
 * Meta's bill (docs/reports.md "Meta's bill"): each status's `pricing` is kept on its message,
 * reports show Meta's category beside ours, and the reconciliation gives per account per day the
 * messages we charged by category, those Meta billed by category, those that differ and the free
 * ones. The simulator is told to bill every second message of the sandbox number as MARKETING
 * while the template is UTILITY.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TReconciliationDay, TReconciliationResponse } from '@shared/schemas/numberHealth';
import type { TReportRow } from '@shared/schemas/reports';
import { buildTemplate, signedInClient } from '../../server/test/factories';
import { plainRecipients } from '../../server/test/campaignFlow';
import { campaignSettled, pollUntil, waitForCampaign } from '../../server/test/polling';
import { quickSend, sandboxNumber } from '../../server/test/sending';
import { postWebhook, statusEvent, webhookBody, numberChange } from '../../server/test/webhooks';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';
import { istDay } from '../../server/src/istCalendar';

const DAY_MS = 86_400_000;

/** Every day's figures added up (a run across Indian midnight splits a campaign over two days). */
function total(days: readonly TReconciliationDay[]) {
  const sum = { charged: {} as Record<string, number>, billed: {} as Record<string, number>, differ: 0, free: 0, awaiting: 0 };
  for (const day of days) {
    for (const [k, n] of Object.entries(day.charged)) sum.charged[k] = (sum.charged[k] ?? 0) + n;
    for (const [k, n] of Object.entries(day.billed_by_meta)) sum.billed[k] = (sum.billed[k] ?? 0) + n;
    sum.differ += day.differ;
    sum.free += day.free;
    sum.awaiting += day.awaiting_pricing;
  }
  return sum;
}

describe.skipIf(postgresUnavailable)("Meta's bill reconciled with ours", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('keeps pricing per message, shows both categories and reconciles a campaign Meta billed partly as MARKETING', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 50 });
    const { client: adminClient } = await signedInClient(server, { role: 'admin' });
    const { client: stranger } = await signedInClient(server);
    const number = await sandboxNumber(client);
    const simulator = server.services.simulator!;
    simulator.numbers.setBilling(number.phone_number_id, { category: 'MARKETING', everyNth: 2 });
    const template = await buildTemplate(server, user, { category: 'UTILITY', body: 'Hello {{1}}' });
    const accepted = await quickSend(client, { template, recipients: plainRecipients(6, 9_400_000_000), variables: { '1': 'Asha' } });
    await waitForCampaign(client, accepted.campaignId, campaignSettled, { timeoutMs: 8_000 });
    const priced = async () => (await server.db('messages').where({ campaignId: accepted.campaignId }).whereNotNull('metaCategory')) as { id: number; providerMessageId: string; metaCategory: string; metaBillable: boolean | number; metaPricingModel: string; metaPricingType: string }[];
    const rows = await pollUntil(priced, (list) => list.length === 6, { what: 'pricing on every message', timeoutMs: 8_000 });
    expect(rows.filter((r) => r.metaCategory === 'marketing')).toHaveLength(3);
    expect(rows.filter((r) => r.metaCategory === 'utility')).toHaveLength(3);
    for (const row of rows) expect({ billable: Boolean(row.metaBillable), model: row.metaPricingModel, type: row.metaPricingType }).toEqual({ billable: true, model: 'PMP', type: 'regular' });

    // Reports show Meta's category beside ours.
    const report = await client.get<{ data: { reports: TReportRow[] } }>(`/api/whatsapp/reports?campaignId=${accepted.campaignId}&limit=50`);
    expect(report.status).toBe(200);
    const reportRows = report.body.data.reports.filter((r) => r.campaign_id === accepted.campaignId);
    expect(reportRows).toHaveLength(6);
    expect(reportRows.every((r) => r.category === 'UTILITY')).toBe(true);
    expect(reportRows.filter((r) => r.meta_category === 'MARKETING')).toHaveLength(3);

    // One message Meta reports as free (a customer service window was open): billable false.
    await simulator.whenIdle();
    const free = rows[0]!;
    const freeStatus = { ...statusEvent(free.providerMessageId, 'read', Math.floor(Date.now() / 1000)), pricing: { billable: false, pricing_model: 'PMP', category: 'utility', type: 'free_customer_service' } };
    const posted = await postWebhook(server.url, webhookBody({ id: 'SIMULATOR_WABA', changes: [numberChange(number.phone_number_id, { statuses: [freeStatus] })] }), server.config.simulator.appSecret);
    expect(posted.status).toBe(200);
    await pollUntil(async () => (await server.db('messages').where({ id: free.id }).first('metaBillable')) as { metaBillable: boolean | number | null }, (r) => r.metaBillable !== null && !r.metaBillable, { what: 'free pricing applied' });
    const freeWasMarketing = free.metaCategory === 'marketing';

    const from = istDay(new Date(Date.now() - DAY_MS));
    const to = istDay(new Date(Date.now() + DAY_MS));
    const own = await client.get<TReconciliationResponse>(`/api/reports/reconciliation?from=${from}&to=${to}`);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.days.every((d) => d.user_id === user.id)).toBe(true);
    const mine = total(own.body.days);
    expect(mine.charged).toEqual({ UTILITY: 6 });
    expect(mine.billed).toEqual({ MARKETING: freeWasMarketing ? 2 : 3, UTILITY: freeWasMarketing ? 3 : 2 });
    expect(mine.differ).toBe(freeWasMarketing ? 2 : 3);
    expect(mine.free).toBe(1);
    expect(mine.awaiting).toBe(0);

    // The admin sees the same for that account; others see none of it.
    const forAdmin = await adminClient.get<TReconciliationResponse>(`/api/admin/reconciliation?from=${from}&to=${to}&userId=${user.id}`);
    expect(forAdmin.status).toBe(200);
    expect(total(forAdmin.body.days)).toEqual(mine);
    expect(forAdmin.body.days[0]?.email).toBe(user.email);
    const all = await adminClient.get<TReconciliationResponse>(`/api/admin/reconciliation?from=${from}&to=${to}`);
    expect(all.body.days.some((d) => d.user_id === user.id)).toBe(true);
    const theirs = await stranger.get<TReconciliationResponse>(`/api/reports/reconciliation?from=${from}&to=${to}&userId=${user.id}`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.days.some((d) => d.user_id === user.id)).toBe(false);
    expect((await client.get(`/api/admin/reconciliation?from=${from}&to=${to}`)).status).toBe(403);
    expect((await client.get(`/api/reports/reconciliation?from=${to}&to=${from}`)).status).toBe(400);
    simulator.numbers.setBilling(number.phone_number_id, null);
  });

  it("reports pricing like Meta by default: billable, PMP, the template's own category", async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 50 });
    const template = await buildTemplate(server, user, { category: 'MARKETING', body: 'Hello {{1}}' });
    const accepted = await quickSend(client, { template, recipients: plainRecipients(2, 9_410_000_000), variables: { '1': 'Asha' } });
    await waitForCampaign(client, accepted.campaignId, campaignSettled, { timeoutMs: 8_000 });
    const rows = await pollUntil(
      async () => (await server.db('messages').where({ campaignId: accepted.campaignId }).whereNotNull('metaCategory')) as { metaCategory: string; metaBillable: boolean | number; metaPricingModel: string }[],
      (list) => list.length === 2,
      { what: 'pricing on both messages' },
    );
    expect(rows.map((r) => ({ category: r.metaCategory, billable: Boolean(r.metaBillable), model: r.metaPricingModel }))).toEqual([
      { category: 'marketing', billable: true, model: 'PMP' },
      { category: 'marketing', billable: true, model: 'PMP' },
    ]);
  });
});
