import type { TCampaign, TCampaignAccepted, TSenderNumber } from '@shared/schemas/sending';
import { plainRecipients } from '../../server/test/campaignFlow';
import type { TestClient } from '../../server/test/client';
import { signedInClient } from '../../server/test/factories';
import { startTestServer } from '../../server/test/server';
import { seedReportRows } from './reports.bench';
import { approvedBenchTemplate } from './support';

const SENDING = 20_000;

async function getOk(client: TestClient, path: string): Promise<void> {
  const res = await client.get(path);
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
}

/**
 * The daily log cleanup of 1,000,000 old message rows (the reports bench's rows, dated
 * January) while another user's campaign of 20,000 sends through the simulator: how long the
 * cleanup takes, and the worst and median latency of a reports page and of the campaign's live
 * counts meanwhile (batches of 2,000 rows, each its own short transaction).
 */
export const cleanupBench = {
  name: 'cleanup',
  async run(): Promise<void> {
    // The probe only reads (GETs are no activity): a session outliving the cleanup keeps it signed in.
    const server = await startTestServer({ SANDBOX_MESSAGES_PER_SECOND: '2000', SESSION_IDLE_TIMEOUT_SECONDS: String(24 * 3600) });
    try {
      const { user: old } = await signedInClient(server);
      const started = performance.now();
      await seedReportRows(server, old);
      console.log(`  seeded 10,00,000 old message rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      // Old messages are in the reports' search index, and their recipients in the contacts, long
      // before they are cleaned up (reports/recipientNumbers.ts, contacts/activity.ts).
      await server.services.recipientNumbers.drain();
      await server.services.contactActivity.drain();

      const { client, user } = await signedInClient(server, { creditRupees: 50_000 });
      const template = await approvedBenchTemplate(server, user, `cleanup_bench_${Date.now()}`);
      const numbers = await client.get<{ data: TSenderNumber[] }>('/api/whatsapp/numbers');
      const sent = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/bulk-quick-send', {
        phone_number_id: numbers.body.data[0]!.phone_number_id,
        template_name: template.name,
        language: 'en_US',
        recipients_text: plainRecipients(SENDING).join('\n'),
        variables: { '1': 'Asha', '2': 'K-1' },
      });
      if (sent.status !== 200) throw new Error(`send answered ${sent.status}`);
      const campaignId = sent.body.data.campaignId;

      const latencies: number[] = [];
      let cleaning = true;
      const probe = (async () => {
        for (let i = 0; cleaning; i++) {
          const t = performance.now();
          await getOk(client, i % 2 === 0 ? '/api/whatsapp/reports?page=1&limit=50' : `/api/campaigns/${campaignId}`);
          latencies.push(performance.now() - t);
        }
      })();
      const cleanupStarted = performance.now();
      const run = await server.services.retention.cleanup({ trigger: 'manual' });
      const cleanupMs = performance.now() - cleanupStarted;
      cleaning = false;
      await probe;
      const campaign = (await client.get<{ data: TCampaign }>(`/api/campaigns/${campaignId}`)).body.data;
      latencies.sort((a, b) => a - b);
      const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
      console.log(`  cleanup: ${run?.messagesDeleted.toLocaleString('en-IN')} messages and ${run?.campaignsDeleted} campaigns deleted in ${(cleanupMs / 1000).toFixed(1)} s`);
      console.log(`  meanwhile the campaign sent ${(campaign.counts.sent + campaign.counts.delivered + campaign.counts.read).toLocaleString('en-IN')} of ${SENDING.toLocaleString('en-IN')}`);
      console.log(`  report and campaign reads during the cleanup: ${latencies.length}, median ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, worst ${at(1).toFixed(1)} ms`);
    } finally {
      await server.close();
    }
  },
};
