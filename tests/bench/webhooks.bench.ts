import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildUser } from '../../server/test/factories';
import { startTestServer } from '../../server/test/server';
import { approvedBenchTemplate, withPeakRss } from './support';

const LIMIT = 1000;
const MESSAGES = Number(process.env.BENCH_WEBHOOK_MESSAGES ?? 100_000);

/**
 * Signed delivery webhooks while a campaign dispatches to the in-process simulator at
 * 1,000 messages/s: a local receiver behind two endpoints, one taking batches of every message
 * event (sent, delivered, read), one taking each `message.sent` as its own POST. Prints the
 * dispatcher's rate against its limit, and the webhook deliveries per second meanwhile.
 */
export const webhooksBench = {
  name: 'webhook deliveries',
  async run(): Promise<void> {
    let posts = 0;
    let events = 0;
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
        posts += 1;
        events += Array.isArray(body) ? body.length : 1;
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const server = await startTestServer({ SANDBOX_MESSAGES_PER_SECOND: String(LIMIT), SIMULATOR_SENT_MS: '20', SIMULATOR_DELIVERED_MS: '100', SIMULATOR_READ_MS: '300' });
    try {
      const user = await buildUser(server, { creditRupees: 1_000_000 });
      const template = await approvedBenchTemplate(server, user, 'bench_webhooks');
      const sender = await server.services.senderNumbers.ensureSandbox(user.id);
      const webhooks = server.services.integrations.webhooks;
      await webhooks.create(user.id, { url: `${receiverUrl}/batched`, events: ['message.sent', 'message.delivered', 'message.read'], batch: true });
      await webhooks.create(user.id, { url: `${receiverUrl}/each`, events: ['message.sent'] });
      // ...0001 numbers are never read: avoid them so every message has three events.
      const recipients = Array.from({ length: MESSAGES }, (_, i) => ({ to: `91${7_100_000_000 + i * 10 + 3}`, variables: { '1': 'Ravi', '2': String(i) } }));
      const expectedEvents = MESSAGES * 3 + MESSAGES;
      const { result, peakMb } = await withPeakRss(async () => {
        const started = performance.now();
        const campaign = await server.services.campaignAcceptance.accept({ user, template, senderNumberId: sender.id, name: 'bench webhooks', source: 'bulk', recipients, invalidCount: 0, inSendDuplicates: 0 });
        server.services.engine.notifyAccepted();
        let sentAt = 0;
        let eventsAtSent = 0;
        for (;;) {
          if (!sentAt) {
            const rows = (await server.db('messages').where({ campaignId: campaign.campaignId }).whereIn('status', ['queued', 'sending']).count({ n: '*' })) as { n: number | string }[];
            // A send this large is staged: its rows are queued messages until written.
            const staged = (await server.db('campaigns').where({ id: campaign.campaignId }).first('stagedRecipients')) as { stagedRecipients: number | string } | undefined;
            if (Number(rows[0]?.n) === 0 && Number(staged?.stagedRecipients ?? 0) === 0) {
              sentAt = performance.now();
              eventsAtSent = events;
            }
          }
          if (sentAt && events >= expectedEvents) break;
          if (performance.now() - started > 30 * 60_000) throw new Error(`only ${events} of ${expectedEvents} events delivered in 30 minutes`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const span = (await server.db('messages').where({ campaignId: campaign.campaignId }).min({ first: 'sentAt' }).max({ last: 'sentAt' })) as { first: string | Date; last: string | Date }[];
        const steadySeconds = (new Date(span[0]!.last).getTime() - new Date(span[0]!.first).getTime()) / 1000;
        return { sendSeconds: (sentAt - started) / 1000, totalSeconds: (performance.now() - started) / 1000, steadySeconds, eventsAtSent };
      });
      const rate = MESSAGES / result.sendSeconds;
      console.log(
        `  dispatch ${MESSAGES.toLocaleString('en-IN')} with 2 webhook endpoints (limit ${LIMIT}/s): sent in ${result.sendSeconds.toFixed(2)} s = ${Math.round(rate)}/s (${((rate / LIMIT) * 100).toFixed(1)}% of the limit; first to last send ${Math.round(MESSAGES / result.steadySeconds)}/s = ${((MESSAGES / result.steadySeconds / LIMIT) * 100).toFixed(1)}%)`,
      );
      console.log(
        `  webhook events delivered to a local receiver: ${result.eventsAtSent.toLocaleString('en-IN')} while dispatching (${Math.round(result.eventsAtSent / result.sendSeconds)}/s), all ${expectedEvents.toLocaleString('en-IN')} in ${result.totalSeconds.toFixed(2)} s = ${Math.round(expectedEvents / result.totalSeconds)} events/s in ${posts.toLocaleString('en-IN')} POSTs (${Math.round(posts / result.totalSeconds)}/s), peak RSS ${peakMb} MB`,
      );
    } finally {
      await server.close();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  },
};
