import { freePort } from '../../server/test/campaignFlow';
import { buildUser } from '../../server/test/factories';
import { startTestServer } from '../../server/test/server';
import { simulatorCeiling, startSimulatorProcess, stopProcess } from './dispatch.bench';
import { figureDb, printFigure } from './figures';
import { approvedBenchTemplate } from './support';

/** Meta's rate for a number at the HIGH throughput level. */
const PER_NUMBER = 1_000;
const NUMBERS = 4;
const PER_CAMPAIGN = 5_000;

/**
 * One instance sending one campaign from each of four numbers at 1,000 messages/s each (the
 * simulator, in its own process, holds each number to that rate as Meta holds a HIGH number):
 * the figure is every message over the span from the first send to the last. Its ceiling is the
 * smaller of the four limits together (4,000/s) and the simulator's own no-op ceiling measured in
 * this run. The numbers are sandbox numbers given the HIGH rate through SANDBOX_MESSAGES_PER_SECOND,
 * the rate a Cloud API number takes from its throughput level (docs/sending.md).
 */
export const fourNumbersBench = {
  name: 'four numbers at 1,000/s',
  async run(): Promise<void> {
    const simulatorPort = await freePort();
    const server = await startTestServer({ SANDBOX_MESSAGES_PER_SECOND: String(PER_NUMBER), SIMULATOR_URL: `http://127.0.0.1:${simulatorPort}`, DATABASE_POOL_MAX: '10' });
    const database: Record<string, string> =
      server.config.database.kind === 'sqlite'
        ? { DATA_DIR: server.dataDir }
        : { DATABASE_URL: server.config.database.url, ...(server.config.database.schema ? { DATABASE_SCHEMA: server.config.database.schema } : {}) };
    const simulator = await startSimulatorProcess(simulatorPort, `${server.url}/api/webhooks/whatsapp`, database, PER_NUMBER);
    try {
      const senders = [];
      for (let n = 0; n < NUMBERS; n++) {
        const user = await buildUser(server, { creditRupees: 1_000_000 });
        const template = await approvedBenchTemplate(server, user, `bench_four_${n}`);
        const number = await server.services.senderNumbers.ensureSandbox(user.id);
        senders.push({ user, template, number });
      }
      const first = senders[0]!;
      const ceiling = await simulatorCeiling(server, database, first.template, first.number.phoneNumberId);
      console.log(`  the simulator's own ceiling (no-op client, no per-number limit): ${Math.round(ceiling)}/s; ${NUMBERS} numbers at ${PER_NUMBER}/s each`);
      const campaigns: number[] = [];
      const started = performance.now();
      for (const [n, sender] of senders.entries()) {
        const recipients = Array.from({ length: PER_CAMPAIGN }, (_, i) => ({ to: `91${7_100_000_000 + n * 1_000_000 + i}`, variables: { '1': 'Ravi', '2': String(i) } }));
        const accepted = await server.services.campaignAcceptance.accept({ user: sender.user, template: sender.template, senderNumberId: sender.number.id, name: `bench four ${n}`, source: 'bulk', recipients, invalidCount: 0, inSendDuplicates: 0 });
        campaigns.push(accepted.campaignId);
      }
      server.services.engine.notifyAccepted();
      // One index probe per look, as the single-number bench does.
      for (;;) {
        const left = await server.db('messages').whereIn('campaignId', campaigns).whereIn('status', ['queued', 'sending']).first('id');
        if (!left) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const sentSeconds = (performance.now() - started) / 1000;
      const span = (await server.db('messages').whereIn('campaignId', campaigns).min({ first: 'sentAt' }).max({ last: 'sentAt' })) as { first: string | Date; last: string | Date }[];
      const steadySeconds = (new Date(span[0]!.last).getTime() - new Date(span[0]!.first).getTime()) / 1000;
      const total = NUMBERS * PER_CAMPAIGN;
      const retried = (await server.db('messages').whereIn('campaignId', campaigns).where('attempts', '>', 1).count({ n: '*' })) as { n: number | string }[];
      const spans = (await server.db('messages').whereIn('campaignId', campaigns).groupBy('campaignId').orderBy('campaignId').select('campaignId').min({ first: 'sentAt' }).max({ last: 'sentAt' })) as { first: string | Date; last: string | Date }[];
      const origin = new Date(span[0]!.first).getTime();
      console.log(`  each number's first and last send, in seconds from the first: ${spans.map((s) => `${((new Date(s.first).getTime() - origin) / 1000).toFixed(1)}–${((new Date(s.last).getTime() - origin) / 1000).toFixed(1)}`).join(', ')}`);
      const tr = (globalThis as unknown as { TRACE?: number[][] }).TRACE ?? [];
      const avg = (i: number) => (tr.reduce((a, t) => a + t[i]!, 0) / tr.length).toFixed(1);
      console.log(`  TRACE batches ${tr.length} contexts ${avg(0)} sends ${avg(1)} written ${avg(2)} size ${avg(3)}`);
      const mt = (globalThis as unknown as { MT?: number[] }).MT ?? [0,0,0,0,1];
      console.log(`  MT per message ms: bucket ${(mt[0]!/mt[4]!).toFixed(1)} window ${(mt[1]!/mt[4]!).toFixed(1)} handoff ${(mt[2]!/mt[4]!).toFixed(1)} http ${(mt[3]!/mt[4]!).toFixed(1)}`);
      const rates = senders.map((s) => server.services.engine.dispatcher.sendRate(s.number.id));
      console.log(`  ${total.toLocaleString('en-IN')} messages from ${NUMBERS} numbers: all sent in ${sentSeconds.toFixed(2)} s (acceptance included); first to last send ${Math.round(total / steadySeconds)}/s; ${Number(retried[0]?.n ?? 0)} retried after 130429; bucket rates ${rates.map((r) => (r === null ? '-' : Math.round(r))).join(', ')}/s`);
      printFigure({ db: figureDb(server.config.database.kind), figure: 'dispatch_4_numbers_per_second', value: Math.round(total / steadySeconds), ceiling: Math.round(Math.min(NUMBERS * PER_NUMBER, ceiling)), unit: 'messages/s' });
    } finally {
      await stopProcess(simulator);
      await server.close();
    }
  },
};
