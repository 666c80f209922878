import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { buildCampaign, buildTemplate, buildUser } from '../../server/test/factories';
import { startTestServer, type TestServer } from '../../server/test/server';
import { signWebhookBody } from '../../server/src/sending/providers/webhooks';
import { figureDb, printFigure } from './figures';

const STATUS_EVENTS = 30_000;
const STATUSES_PER_POST = 100;
const INBOUND = 30_000;
/** Incoming messages per signed body: Meta batches a number's notifications under load. */
const INBOUND_PER_POST = 10;
const CONCURRENCY = 8;
/** The target for `inbound_per_second`, on either database. */
const INBOUND_TARGET = 2_000;
/** Meta's media kinds: fetched from Meta afterwards, outside what this figure measures. */
/** Meta's OpenAPI file beside the repository (as server/test/metaOpenApi.ts finds it; that module needs CommonJS). */
const META_OPENAPI = fileURLToPath(new URL('../../../shared/reference/meta-whatsapp-openapi/business-messaging-api_v23.0.yaml', import.meta.url));
const MEDIA_KINDS = new Set(['image', 'video', 'audio', 'document', 'sticker']);

type Message = Record<string, unknown> & { type: string };

/**
 * The message objects of Meta's webhook examples (../shared/reference, `/whatsapp/webhooks`) other
 * than media: text, with context, from an ad, reaction, location, contacts, unsupported, button,
 * list and button replies, order, system. Without the reference file, a text and a button reply.
 */
function incomingKinds(): Message[] {
  if (!existsSync(META_OPENAPI)) return [{ type: 'text', text: { body: 'Yes, send me the price' } }, { type: 'button', button: { text: 'Interested', payload: 'x' } }];
  type Example = { value: { entry: { changes: { value: { messages?: Message[] } }[] }[] } };
  const spec = parse(readFileSync(META_OPENAPI, 'utf8')) as { paths: Record<string, { post: { requestBody: { content: Record<string, { examples: Record<string, Example> }> } } }> };
  const examples = Object.values(spec.paths['/whatsapp/webhooks']!.post.requestBody.content['application/json']!.examples);
  return examples.flatMap((example) => example.value.entry.flatMap((entry) => entry.changes.flatMap((change) => change.value.messages ?? []))).filter((message) => !MEDIA_KINDS.has(message.type));
}

async function postAll(server: TestServer, bodies: readonly string[], secret: string): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++] as string;
        const res = await fetch(`${server.url}/api/webhooks/whatsapp`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signWebhookBody(body, secret) }, body });
        if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${await res.text()}`);
      }
    }),
  );
}

const envelope = (phoneNumberId: string, value: Record<string, unknown>) =>
  JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: 'WABA', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '1555', phone_number_id: phoneNumberId }, ...value } }] }] });

/**
 * The two halves of Meta's webhook, side by side: signed POSTs of status events for messages the
 * provider took (`StatusIngest`), and signed POSTs of incoming messages of mixed kinds from those
 * messages' recipients (`ConversationService`: stored, linked to their campaign, run through the
 * opt-out rule, listed). Each counted from the first POST until every event is applied.
 */
export const ingestBench = {
  name: 'status and inbound ingest',
  async run(): Promise<void> {
    // The pool of a production instance (DATABASE_POOL_MAX default), not the tests' smaller one.
    const server = await startTestServer({ DATABASE_POOL_MAX: '10' });
    try {
      const db = figureDb(server.config.database.kind);
      const user = await buildUser(server, { creditRupees: 1_000 });
      const template = await buildTemplate(server, user, { name: 'bench_ingest', buttons: [{ type: 'QUICK_REPLY', text: 'Interested' }, { type: 'QUICK_REPLY', text: 'Stop promotions', opt_out: true }] });
      const sender = await server.services.senderNumbers.ensureSandbox(user.id);
      const { campaignId } = await buildCampaign(server, user, { template });
      const now = new Date().toISOString();
      const recipient = (i: number) => `91${8_000_000_000 + i}`;
      const rows = Array.from({ length: STATUS_EVENTS }, (_, i) => ({
        campaignId, userId: user.id, recipient: recipient(i), status: 'sent', priceUnits: 0, dedupeKey: `bench${i}`.padEnd(64, '0'),
        providerMessageId: `wamid.bench.${i}`, attempts: 1, refunded: false, createdAt: now, updatedAt: now, sentAt: now,
      }));
      for (let i = 0; i < rows.length; i += 500) await server.db('messages').insert(rows.slice(i, i + 500));
      const secret = server.config.simulator.appSecret;
      const ts = String(Math.floor(Date.now() / 1000));

      const statusBodies: string[] = [];
      for (let i = 0; i < STATUS_EVENTS; i += STATUSES_PER_POST) {
        const statuses = Array.from({ length: STATUSES_PER_POST }, (_, j) => ({ id: `wamid.bench.${i + j}`, status: 'delivered', timestamp: ts, recipient_id: recipient(i + j) }));
        statusBodies.push(envelope(sender.phoneNumberId, { statuses }));
      }
      const statusStarted = performance.now();
      await postAll(server, statusBodies, secret);
      const statusAcked = (performance.now() - statusStarted) / 1000;
      await server.services.engine.ingest.drain();
      for (;;) {
        const left = (await server.db('messages').where('providerMessageId', 'like', 'wamid.bench.%').where({ status: 'sent' }).first('id')) as { id: number } | undefined;
        if (!left) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const statusApplied = (performance.now() - statusStarted) / 1000;
      console.log(`  status ingest ${STATUS_EVENTS.toLocaleString('en-IN')} events (${STATUSES_PER_POST} per POST, ${CONCURRENCY} at once): acknowledged ${Math.round(STATUS_EVENTS / statusAcked)}/s, applied ${Math.round(STATUS_EVENTS / statusApplied)}/s`);

      // Replies from the same recipients: every kind in turn, every third one answering its
      // campaign message by `context.id`, and the quick-reply taps carrying our send reference.
      const kinds = incomingKinds();
      const ids = (await server.db('messages').where({ campaignId }).orderBy('id').select('id')) as { id: number }[];
      const inbound = async (idPrefix: string): Promise<{ acked: number; applied: number; linked: number }> => {
        const inboundBodies: string[] = [];
        for (let i = 0; i < INBOUND; i += INBOUND_PER_POST) {
          const messages = Array.from({ length: INBOUND_PER_POST }, (_, j) => {
            const n = i + j;
            const kind = kinds[n % kinds.length] as Message;
            const message: Message = { ...kind, id: `${idPrefix}${n}`, from: recipient(n), timestamp: ts };
            if (kind.type === 'button') message.button = { text: n % 2 ? 'Interested' : 'Stop promotions', payload: `sandesh:${ids[n]?.id ?? 0}:0123456789abcdef` };
            if (n % 3 === 0) message.context = { from: '1555', id: `wamid.bench.${n}` };
            return message;
          });
          inboundBodies.push(envelope(sender.phoneNumberId, { contacts: messages.map((m) => ({ profile: { name: `Customer ${String(m.from).slice(-4)}` }, wa_id: m.from })), messages }));
        }
        const inboundStarted = performance.now();
        await postAll(server, inboundBodies, secret);
        const inboundAcked = (performance.now() - inboundStarted) / 1000;
        await server.services.conversations.drain();
        for (;;) {
          const left = (await server.db('conversation_messages').where({ userId: user.id }).whereNull('appliedAt').first('id')) as { id: number } | undefined;
          if (!left) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const inboundApplied = (performance.now() - inboundStarted) / 1000;
        const ofRun = () => server.db('conversation_messages').where({ userId: user.id, direction: 'in' }).where('providerMessageId', 'like', `${idPrefix}%`);
        const stored = (await ofRun().count({ n: '*' })) as { n: number | string }[];
        const linked = (await ofRun().whereNotNull('campaignId').count({ n: '*' })) as { n: number | string }[];
        if (Number(stored[0]?.n) !== INBOUND) throw new Error(`${String(stored[0]?.n)} of ${INBOUND} incoming messages stored`);
        return { acked: Math.round(INBOUND / inboundAcked), applied: Math.round(INBOUND / inboundApplied), linked: Number(linked[0]?.n) };
      };
      const plain = await inbound('wamid.in.bench.');
      console.log(
        `  inbound ingest ${INBOUND.toLocaleString('en-IN')} messages of ${kinds.length} kinds, media excluded (${INBOUND_PER_POST} per POST, ${CONCURRENCY} at once): acknowledged ${plain.acked}/s, stored and applied ${plain.applied}/s (${plain.linked.toLocaleString('en-IN')} linked to the campaign)`,
      );
      printFigure({ db, figure: 'inbound_per_second', value: plain.applied, ceiling: INBOUND_TARGET, unit: 'messages/s' });

      // The same again with an integrator's endpoint taking `message.received` and
      // `message.button_clicked` in batches: each applied batch also enqueues its events, and the
      // webhook worker delivers them to a local receiver meanwhile, on the same cores. Its ceiling
      // is the figure above, measured just before on the same server.
      let deliveries = 0;
      const receiver = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          deliveries += 1;
          res.writeHead(200).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      try {
        await server.services.integrations.webhooks.create(user.id, { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/inbound`, events: ['message.received', 'message.button_clicked'], batch: true });
        const withEndpoints = await inbound('wamid.in.bench.endpoint.');
        console.log(`  inbound ingest again with an endpoint taking its events in batches: stored, applied and announced ${withEndpoints.applied}/s (${deliveries.toLocaleString('en-IN')} deliveries received meanwhile)`);
        printFigure({ db, figure: 'inbound_per_second_with_endpoints', value: withEndpoints.applied, ceiling: plain.applied, unit: 'messages/s' });
      } finally {
        await new Promise<void>((resolve) => receiver.close(() => resolve()));
      }
    } finally {
      await server.close();
    }
  },
};
