import { buildUser } from '../../server/test/factories';
import { startTestServer, type TestServer } from '../../server/test/server';
import type { Template, User } from '../../server/src/models';
import { bareInsertSeconds } from './bareInsert';
import { figureDb, printFigure } from './figures';
import { approvedBenchTemplate, withPeakRss } from './support';

/** The targets: acceptance within 3x a bare insert of the same rows, and under 1 GB. */
const BARE_INSERT_FACTOR = 3;
const PEAK_RSS_CEILING_MB = 1000;
/** The fixed acceptance targets, held by the time until every message row is written (staged rows moved). */
const ROWS_WRITTEN_CEILING_SECONDS = { sqlite: 15, postgres: 30 } as const;

/**
 * Accepting one large campaign: pricing, duplicate lookups, one debit and batched message rows.
 * The dispatcher is off so that only acceptance is measured. Peak RSS includes the benchmark's own
 * recipient array (what a parsed upload would hold). Beside each size, the in-run ceiling: the same
 * rows written by a bare insert into a primary-key-only table (bareInsert.ts), after acceptance and
 * outside its peak RSS. The numbers are consecutive, so the recipient index is written in order;
 * a third run takes 1M numbers in scattered order, as a real list comes (`accept_1m_scattered_seconds`).
 * Sends this large are accepted as staged rows: the server's materialiser is stopped and
 * run here after each acceptance, timed on its own (`accept_1m_rows_written_seconds` adds it to the
 * acceptance), so that neither it nor the bare insert runs beside another measurement.
 */
export const acceptanceBench = {
  name: 'campaign acceptance',
  async run(): Promise<void> {
    const server = await startTestServer({ DISPATCH_ENABLED: 'false' });
    await server.services.engine.materialiser.stop();
    try {
      const user = await buildUser(server, { creditRupees: 10_000_000 });
      const template = await approvedBenchTemplate(server, user, 'bench_promo');
      // Its own template: no earlier campaign's keys to load, as for the first million.
      const scatteredTemplate = await approvedBenchTemplate(server, user, 'bench_promo_scattered');
      const sender = await server.services.senderNumbers.ensureSandbox(user.id);
      for (const { size, scattered } of [
        { size: 100_000, scattered: false },
        { size: 1_000_000, scattered: false },
        { size: 1_000_000, scattered: true },
      ]) {
        global.gc?.();
        const result = await acceptOnce(server, { user, template: scattered ? scatteredTemplate : template, senderNumberId: sender.id, size, scattered });
        console.log(
          `  accept ${size.toLocaleString('en-IN').padStart(9)} recipients${scattered ? ' (scattered numbers)' : ''}: ${result.seconds.toFixed(2)} s (${Math.round(result.accepted / result.seconds).toLocaleString('en-IN')}/s), peak RSS ${result.peakMb} MB; ` +
            `bare insert of the same rows ${result.bareSeconds.toFixed(2)} s (${(result.seconds / result.bareSeconds).toFixed(1)}x); ` +
            `message rows written after it ${result.materialiseSeconds.toFixed(2)} s, then indexed for the reports' search ${result.indexSeconds.toFixed(2)} s and recorded as contacts ${result.contactsSeconds.toFixed(2)} s`,
        );
        const db = figureDb(server.config.database.kind);
        if (size === 1_000_000 && scattered) {
          printFigure({ db, figure: 'accept_1m_scattered_seconds', value: result.seconds, ceiling: BARE_INSERT_FACTOR * result.bareSeconds, unit: 's' });
        } else if (size === 1_000_000) {
          printFigure({ db, figure: 'accept_1m_seconds', value: result.seconds, ceiling: BARE_INSERT_FACTOR * result.bareSeconds, unit: 's' });
          printFigure({ db, figure: 'accept_1m_peak_rss_mb', value: result.peakMb, ceiling: PEAK_RSS_CEILING_MB, unit: 'MB' });
          printFigure({ db, figure: 'accept_1m_rows_written_seconds', value: result.seconds + result.materialiseSeconds, ceiling: ROWS_WRITTEN_CEILING_SECONDS[db === 'postgres' ? 'postgres' : 'sqlite'], unit: 's' });
        }
      }
    } finally {
      await server.close();
    }
  },
};

/**
 * One size accepted and then written bare, in a call of its own: the recipients die with it. Held
 * in the loop, the last size's array stayed reachable from the suspended bench's frame through
 * the next size and added about 300 MB to its peak RSS (seen in a heap snapshot).
 */
async function acceptOnce(
  server: TestServer,
  run: { user: User; template: Template; senderNumberId: number; size: number; scattered: boolean },
): Promise<{ seconds: number; accepted: number; peakMb: number; bareSeconds: number; materialiseSeconds: number; indexSeconds: number; contactsSeconds: number }> {
  const { size, scattered } = run;
  const { result, peakMb } = await withPeakRss(async () => {
    // 1,000,003 is prime, so i -> i x 7,919,993 mod it visits a million distinct numbers out of order.
    const number = (i: number) => (scattered ? 7_000_000_000 + ((i * 7_919_993) % 1_000_003) : 6_000_000_000 + size + i);
    const recipients = Array.from({ length: size }, (_, i) => ({ to: `91${number(i)}`, variables: { '1': 'Asha', '2': String(i) } }));
    const started = performance.now();
    const accepted = await server.services.campaignAcceptance.accept({ user: run.user, template: run.template, senderNumberId: run.senderNumberId, name: `bench ${size}${scattered ? ' scattered' : ''}`, source: 'bulk', recipients, invalidCount: 0, inSendDuplicates: 0 });
    return { accepted: accepted.accepted, seconds: (performance.now() - started) / 1000, recipients };
  });
  const materialiseStarted = performance.now();
  await server.services.engine.materialiser.drain();
  const materialiseSeconds = (performance.now() - materialiseStarted) / 1000;
  // The reports' search index takes the new messages in the background (reports/recipientNumbers.ts):
  // let it finish, so that it does not share the machine with the bare insert or the next size.
  const indexStarted = performance.now();
  await server.services.recipientNumbers.drain();
  const indexSeconds = (performance.now() - indexStarted) / 1000;
  // So are the recipients recorded as contacts (contacts/activity.ts), for the same reason.
  const contactsStarted = performance.now();
  await server.services.contactActivity.drain();
  const contactsSeconds = (performance.now() - contactsStarted) / 1000;
  const bareSeconds = await bareInsertSeconds(server, result.recipients);
  return { seconds: result.seconds, accepted: result.accepted, peakMb, bareSeconds, materialiseSeconds, indexSeconds, contactsSeconds };
}
