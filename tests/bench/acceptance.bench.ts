import { buildUser } from '../../server/test/factories';
import { startTestServer } from '../../server/test/server';
import { bareInsertSeconds } from './bareInsert';
import { figureDb, printFigure } from './figures';
import { approvedBenchTemplate, withPeakRss } from './support';

/** The targets: acceptance within 3x a bare insert of the same rows, and under 1 GB. */
const BARE_INSERT_FACTOR = 3;
const PEAK_RSS_CEILING_MB = 1000;

/**
 * Accepting one large campaign: pricing, duplicate lookups, one debit and batched message rows.
 * The dispatcher is off so that only acceptance is measured. Peak RSS includes the benchmark's own
 * recipient array (what a parsed upload would hold). Beside each size, the in-run ceiling: the same
 * rows written by a bare insert into a primary-key-only table (bareInsert.ts), after acceptance and
 * outside its peak RSS.
 */
export const acceptanceBench = {
  name: 'campaign acceptance',
  async run(): Promise<void> {
    const server = await startTestServer({ DISPATCH_ENABLED: 'false' });
    try {
      const user = await buildUser(server, { creditRupees: 10_000_000 });
      const template = await approvedBenchTemplate(server, user, 'bench_promo');
      const sender = await server.services.senderNumbers.ensureSandbox(user.id);
      for (const size of [100_000, 1_000_000]) {
        global.gc?.();
        const { result, peakMb } = await withPeakRss(async () => {
          const recipients = Array.from({ length: size }, (_, i) => ({ to: `91${6_000_000_000 + size + i}`, variables: { '1': 'Asha', '2': String(i) } }));
          const started = performance.now();
          const accepted = await server.services.campaignAcceptance.accept({ user, template, senderNumberId: sender.id, name: `bench ${size}`, source: 'bulk', recipients, invalidCount: 0, inSendDuplicates: 0 });
          return { accepted, seconds: (performance.now() - started) / 1000, recipients };
        });
        const bareSeconds = await bareInsertSeconds(server, result.recipients);
        console.log(
          `  accept ${size.toLocaleString('en-IN').padStart(9)} recipients: ${result.seconds.toFixed(2)} s (${Math.round(result.accepted.accepted / result.seconds).toLocaleString('en-IN')}/s), peak RSS ${peakMb} MB; ` +
            `bare insert of the same rows ${bareSeconds.toFixed(2)} s (${(result.seconds / bareSeconds).toFixed(1)}x)`,
        );
        if (size === 1_000_000) {
          const db = figureDb(server.config.database.kind);
          printFigure({ db, figure: 'accept_1m_seconds', value: result.seconds, ceiling: BARE_INSERT_FACTOR * bareSeconds, unit: 's' });
          printFigure({ db, figure: 'accept_1m_peak_rss_mb', value: peakMb, ceiling: PEAK_RSS_CEILING_MB, unit: 'MB' });
        }
      }
    } finally {
      await server.close();
    }
  },
};
