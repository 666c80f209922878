import type { TContactBulkResponse, TSegment, TSegmentCount } from '@shared/schemas/contacts';
import { CONTACTS } from '@shared/constants';
import { signedInClient } from '../../server/test/factories';
import { approvedTemplate, keyedClient } from '../../server/test/integrators';
import { startTestServer } from '../../server/test/server';
import { figureDb, printFigure } from './figures';
import { measure, report } from './measure';
import { withPeakRss } from './support';

const FULL = 1_000_000;
/** CONTACTS_BENCH_ROWS: fewer contacts for a quick look; the 1M figures print only for the full run. */
const ROWS = Number(process.env.CONTACTS_BENCH_ROWS ?? FULL);
const IMPORT_CEILING_SECONDS = { sqlite: 30, postgres: 45 } as const;
const PEAK_RSS_CEILING_MB = 1024;
const SEGMENT_COUNT_P95_CEILING_MS = 500;
/** A send to the whole book is held to the fixed 1M acceptance targets (acceptance.bench.ts). */
const ACCEPT_1M_CEILING_SECONDS = { sqlite: 15, postgres: 30 } as const;
const ACCEPT_1M_PEAK_RSS_CEILING_MB = 1000;
const CITIES = ['Pune', 'Mumbai', 'Delhi', 'Chennai', 'Kolkata', 'Bengaluru', 'Hyderabad', 'Jaipur', 'Lucknow', 'Surat'];

/** Contact `i` with ten attributes (text, number and date) and one of five tags. */
function benchContact(i: number) {
  return {
    phone: `91${String(6_000_000_000 + i)}`,
    name: `Customer ${i}`,
    attributes: {
      first_name: `Name${i % 5000}`,
      city: CITIES[i % CITIES.length]!,
      orders: i % 50,
      spend: (i % 1000) * 10,
      joined: `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
      plan: i % 3 === 0 ? 'gold' : 'silver',
      language: i % 2 ? 'hi' : 'en',
      pincode: String(400000 + (i % 900)),
      source: i % 4 === 0 ? 'store' : 'web',
      score: i % 100,
    },
    tags: [`tag${i % 5}`],
  };
}

/**
 * A contact book of 1,000,000 contacts with ten attributes each, imported through
 * `POST /api/contacts/bulk` ten thousand at a time (time and peak RSS of the whole process, server
 * included), then three two-condition segments counted 20 times each, then a template sent to a
 * segment of every contact through `POST /api/send/batch` with two `attr:` variables, until the
 * campaign is accepted (its message rows are then written by the materialiser, stopped during the
 * send as in the acceptance bench and timed apart).
 */
export const contactsBench = {
  name: 'contacts',
  async run(): Promise<void> {
    const server = await startTestServer({ DISPATCH_ENABLED: 'false' });
    await server.services.engine.materialiser.stop();
    try {
      const db = figureDb(server.services.database.kind);
      const { client, user } = await signedInClient(server, { creditRupees: 10_000_000 });
      const started = performance.now();
      const { peakMb } = await withPeakRss(async () => {
        for (let start = 0; start < ROWS; start += CONTACTS.bulkMax) {
          const batch = Array.from({ length: Math.min(CONTACTS.bulkMax, ROWS - start) }, (_, k) => benchContact(start + k));
          const response = await client.post<TContactBulkResponse>('/api/contacts/bulk', { contacts: batch });
          if (response.status !== 200 || response.body.invalid.length > 0) throw new Error(`bulk answered ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
        }
      });
      const seconds = (performance.now() - started) / 1000;
      console.log(`  imported ${ROWS.toLocaleString('en-IN')} contacts with 10 attributes in ${seconds.toFixed(1)} s (${Math.round(ROWS / seconds).toLocaleString('en-IN')} a second), peak RSS ${peakMb} MB`);
      if (ROWS === FULL) {
        printFigure({ db, figure: 'contacts_import_1m_seconds', value: Number(seconds.toFixed(2)), ceiling: IMPORT_CEILING_SECONDS[db === 'postgres' ? 'postgres' : 'sqlite'], unit: 's' });
        printFigure({ db, figure: 'contacts_import_1m_peak_rss_mb', value: peakMb, ceiling: PEAK_RSS_CEILING_MB, unit: 'MB' });
      }

      const filters = [
        { name: 'city and tag', filter: { tags_all: ['tag0'], attributes: [{ name: 'city', op: 'eq', value: 'Pune' }] } },
        { name: 'two attributes', filter: { attributes: [{ name: 'plan', op: 'eq', value: 'gold' }, { name: 'orders', op: 'after', value: 40 }] } },
        { name: 'contains and tag', filter: { tags_any: ['tag2', 'tag3'], attributes: [{ name: 'first_name', op: 'contains', value: 'name12' }] } },
      ];
      let worst = 0;
      for (const { name, filter } of filters) {
        const segment = await client.post<TSegment>('/api/segments', { name, filter });
        if (segment.status !== 201) throw new Error(`segment answered ${segment.status}`);
        let counted: TSegmentCount | null = null;
        const figures = await measure(20, 1, async () => {
          const response = await client.get<TSegmentCount>(`/api/segments/${segment.body.id}/count`);
          if (response.status !== 200) throw new Error(`count answered ${response.status}`);
          counted = response.body;
        });
        report(`segment count (${name}) -> ${JSON.stringify(counted)}`, figures);
        worst = Math.max(worst, figures.p95);
      }
      if (ROWS === FULL) printFigure({ db, figure: 'segment_count_1m_ms', value: Number(worst.toFixed(2)), ceiling: SEGMENT_COUNT_P95_CEILING_MS, unit: 'ms' });

      const template = await approvedTemplate(server, user, 'Hi {{1}}, the {{2}} store has your offer');
      const { api } = await keyedClient(server, client);
      const everyone = await client.post<TSegment>('/api/segments', { name: 'every tag', filter: { tags_any: ['tag0', 'tag1', 'tag2', 'tag3', 'tag4'] } });
      if (everyone.status !== 201) throw new Error(`segment answered ${everyone.status}`);
      global.gc?.();
      const sendStarted = performance.now();
      const { result: sent, peakMb: sendPeakMb } = await withPeakRss(() =>
        api.post<{ data: { campaignId: number } }>('/api/send/batch', {
          username: user.username,
          templatename: template.name,
          segment_id: everyone.body.id,
          variables: { '1': 'attr:first_name', '2': 'attr:city' },
          fallbacks: { '1': 'Customer' },
        }),
      );
      const sendSeconds = (performance.now() - sendStarted) / 1000;
      if (sent.status !== 200) throw new Error(`send answered ${sent.status}: ${JSON.stringify(sent.body).slice(0, 300)}`);
      const accepted = Number(((await server.db('campaigns').where('id', sent.body.data.campaignId).first('total_recipients')) as { totalRecipients: number | string }).totalRecipients);
      if (accepted !== ROWS) throw new Error(`the send to the segment took ${accepted} recipients, not ${ROWS}`);
      const writeStarted = performance.now();
      await server.services.engine.materialiser.drain();
      const writeSeconds = (performance.now() - writeStarted) / 1000;
      console.log(
        `  send to a segment of ${ROWS.toLocaleString('en-IN')} contacts with two attribute variables: accepted in ${sendSeconds.toFixed(2)} s, peak RSS ${sendPeakMb} MB; message rows written after it ${writeSeconds.toFixed(2)} s`,
      );
      if (ROWS === FULL) {
        const ceiling = ACCEPT_1M_CEILING_SECONDS[db === 'postgres' ? 'postgres' : 'sqlite'];
        printFigure({ db, figure: 'segment_send_1m_seconds', value: Number(sendSeconds.toFixed(2)), ceiling, unit: 's' });
        printFigure({ db, figure: 'segment_send_1m_peak_rss_mb', value: sendPeakMb, ceiling: ACCEPT_1M_PEAK_RSS_CEILING_MB, unit: 'MB' });
        printFigure({ db, figure: 'segment_send_1m_rows_written_seconds', value: Number((sendSeconds + writeSeconds).toFixed(2)), ceiling, unit: 's' });
      }
    } finally {
      await server.close();
    }
  },
};
