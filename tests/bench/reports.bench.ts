import type { User } from '../../server/src/models';
import { SESSION_COOKIE } from '../../server/src/middleware/auth';
import type { TestClient } from '../../server/test/client';
import { signedInClient } from '../../server/test/factories';
import { startTestServer, type TestServer } from '../../server/test/server';
import { figureDb, printFigure } from './figures';
import { measure, report, type Figures } from './measure';
import { withPeakRss } from './support';

const CAMPAIGNS = 40;
const PER_CAMPAIGN = 24_990;
const RARE_ROWS = 400;
const TOTAL = CAMPAIGNS * PER_CAMPAIGN + RARE_ROWS;
const STATUSES = [
  [55, 'read'],
  [75, 'delivered'],
  [83, 'sent'],
  [90, 'failed'],
  [93, 'suppressed'],
  [96, 'duplicate'],
  [98, 'queued'],
  [100, 'sending'],
] as const;

/** A spread of statuses that SQL and JS compute alike from the row number. */
function statusOf(i: number): string {
  const bucket = (i * 2_654_435_761) % 100;
  return (STATUSES.find(([upTo]) => bucket < upTo) as (typeof STATUSES)[number])[1];
}
/** Indian mobile numbers spread over the whole range, so that a prefix matches rows all through the list. */
function recipientOf(i: number): string {
  return `91${7_000_000_000 + ((i * 2_654_435_761) % 2_999_999_999)}`;
}
/** The targets: every report request's p95, and the CSV export of 1M rows with the memory it adds. */
const REPORTS_P95_CEILING_MS = 100;
const EXPORT_CSV_CEILING_SECONDS = 15;
const EXPORT_ADDED_CEILING_MB = 200;

const statusSql = `case ${STATUSES.map(([upTo, status]) => `when (g.i * 2654435761) % 100 < ${upTo} then '${status}'`).join(' ')} end`;

interface SeedCampaign {
  id: number;
  createdAt: string;
  first: number;
  rows: number;
}

/** Campaign rows through knex; messages through the driver (a prepared statement on SQLite, generate_series on PostgreSQL). */
export async function seedReportRows(server: TestServer, user: User): Promise<void> {
  const sender = await server.services.senderNumbers.ensureSandbox(user.id);
  const campaigns: SeedCampaign[] = [];
  let first = 0;
  for (let c = 0; c <= CAMPAIGNS; c++) {
    const rare = c === CAMPAIGNS;
    const rows = rare ? RARE_ROWS : PER_CAMPAIGN;
    // Every 12 hours from 1 January; the rare template's campaign sits among the early ones.
    const createdAt = new Date(Date.UTC(2026, 0, 1) + (rare ? 5.5 : c) * 12 * 3_600_000).toISOString();
    const [inserted] = (await server
      .db('campaigns')
      .insert({
        userId: user.id, senderNumberId: sender.id, name: `Bench ${c}`, source: 'bulk', templateName: rare ? 'bench_rare' : `bench_tpl_${c % 4}`, templateLanguage: 'en_US',
        category: 'MARKETING', priceUnits: 8000, status: 'completed', totalRecipients: rows, billableCount: rows, totalCostUnits: rows * 8000, createdAt, updatedAt: createdAt,
      })
      .returning('id')) as ({ id: number } | number)[];
    campaigns.push({ id: typeof inserted === 'object' ? inserted.id : (inserted as number), createdAt, first, rows });
    first += rows;
  }
  const plus = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();
  const pool = server.db.client as unknown as { acquireConnection(): Promise<unknown>; releaseConnection(c: unknown): Promise<void> };
  const connection = await pool.acquireConnection();
  try {
    if (server.config.database.kind === 'sqlite') {
      const sqlite = connection as { prepare(sql: string): { run(...p: unknown[]): unknown }; transaction(fn: () => void): () => void };
      const insert = sqlite.prepare(
        `insert into messages (campaign_id, user_id, recipient, status, price_units, dedupe_key, provider_message_id, error_message, attempts, refunded, created_at, updated_at, sent_at, delivered_at, read_at)
         values (?, ?, ?, ?, 8000, ?, ?, ?, 1, 0, ?, ?, ?, ?, ?)`,
      );
      sqlite.transaction(() => {
        for (const campaign of campaigns) {
          for (let i = campaign.first; i < campaign.first + campaign.rows; i++) {
            const status = statusOf(i);
            const reached = status === 'sent' || status === 'delivered' || status === 'read';
            const error = status === 'failed' ? 'Message undeliverable' : status === 'suppressed' ? 'Recipient opted out' : status === 'duplicate' ? 'Duplicate Blocked' : null;
            insert.run(
              campaign.id, user.id, recipientOf(i), status, i.toString(16).padStart(16, '0'), reached ? `wamid.bench.${i}` : null, error,
              campaign.createdAt, campaign.createdAt, reached ? plus(campaign.createdAt, 1) : null,
              status === 'delivered' || status === 'read' ? plus(campaign.createdAt, 2) : null, status === 'read' ? plus(campaign.createdAt, 30) : null,
            );
          }
        }
      })();
    } else {
      const pg = connection as { query(text: string, values?: unknown[]): Promise<unknown> };
      for (const campaign of campaigns) {
        await pg.query(
          `insert into messages (campaign_id, user_id, recipient, status, price_units, dedupe_key, provider_message_id, error_message, attempts, refunded, created_at, updated_at, sent_at, delivered_at, read_at)
           select $1, $2, '91' || (7000000000 + (g.i * 2654435761) % 2999999999)::text, s.status, 8000, lpad(to_hex(g.i), 16, '0'),
                  case when s.status in ('sent', 'delivered', 'read') then 'wamid.bench.' || g.i end,
                  case s.status when 'failed' then 'Message undeliverable' when 'suppressed' then 'Recipient opted out' when 'duplicate' then 'Duplicate Blocked' end,
                  1, false, $3::timestamptz, $3::timestamptz,
                  case when s.status in ('sent', 'delivered', 'read') then $3::timestamptz + interval '1 minute' end,
                  case when s.status in ('delivered', 'read') then $3::timestamptz + interval '2 minutes' end,
                  case when s.status = 'read' then $3::timestamptz + interval '30 minutes' end
             from generate_series($4::bigint, $5::bigint) as g(i), lateral (select ${statusSql} as status) s`,
          [campaign.id, user.id, campaign.createdAt, campaign.first, campaign.first + campaign.rows - 1],
        );
      }
      // What autovacuum does shortly after a bulk insert: statistics, and a visibility map for index-only scans.
      await pg.query('vacuum analyze messages');
      await pg.query('vacuum analyze campaigns');
    }
  } finally {
    await pool.releaseConnection(connection);
  }
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

async function getOk(client: TestClient, path: string): Promise<{ data: { total?: number } }> {
  const res = await client.get<{ data: { total?: number } }>(path);
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Downloads an export, counting its bytes without keeping them. */
async function download(server: TestServer, client: TestClient, query: string): Promise<number> {
  const res = await fetch(`${server.url}/api/whatsapp/reports${query}`, { headers: { Cookie: `${SESSION_COOKIE}=${client.cookie(SESSION_COOKIE)}` } });
  if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}`);
  let bytes = 0;
  for await (const chunk of res.body) bytes += (chunk as Uint8Array).byteLength;
  return bytes;
}

/**
 * Reports on 1,000,000 message rows of one user (40 campaigns of 24,990 and a rare template of
 * 400): list latency (first page, deep pages, filters), summary, and CSV and Excel exports of all
 * rows with their time and the process's peak RSS (server and client share the process).
 */
export const reportsBench = {
  name: 'reports',
  async run(): Promise<void> {
    const server = await startTestServer({ DISPATCH_ENABLED: 'false' });
    try {
      const { client, user } = await signedInClient(server);
      const db = figureDb(server.config.database.kind);
      // Every measured report request; the figure is the worst p95 among them.
      const measured: { label: string; figures: Figures }[] = [];
      const track = (label: string, figures: Figures) => {
        report(label, figures);
        measured.push({ label: label.trim(), figures });
      };
      const seeded = await timed(() => seedReportRows(server, user));
      console.log(`  seeded ${TOTAL.toLocaleString('en-IN')} message rows in ${(seeded.ms / 1000).toFixed(1)} s`);
      // What the server's workers do right after a send (reports/recipientNumbers.ts, contacts/activity.ts),
      // then autovacuum on PostgreSQL: measured while they ran, the reads queued behind their batches.
      const moved = await timed(() => server.services.recipientNumbers.drain());
      if (server.config.database.kind === 'postgresql') await server.db.raw('vacuum analyze recipient_numbers');
      console.log(`  their numbers moved into the search index in ${(moved.ms / 1000).toFixed(1)} s`);
      const recorded = await timed(() => server.services.contactActivity.drain());
      console.log(`  their recipients recorded as contacts in ${(recorded.ms / 1000).toFixed(1)} s`);

      const first = await timed(() => getOk(client, '/api/whatsapp/reports'));
      if (first.result.data.total !== TOTAL) throw new Error(`total ${first.result.data.total}, expected ${TOTAL}`);
      console.log(`  first request, total ${TOTAL.toLocaleString('en-IN')}: ${first.ms.toFixed(1)} ms`);
      track('list page 1', await measure(200, 1, async () => void (await getOk(client, '/api/whatsapp/reports?page=1&limit=50'))));
      const deepFirst = await timed(() => getOk(client, '/api/whatsapp/reports?page=10000&limit=50'));
      console.log(`  first deep page (10,000; builds the position snapshot): ${deepFirst.ms.toFixed(1)} ms`);
      track('list deep pages (random 201..20,000)', await measure(200, 1, async () => void (await getOk(client, `/api/whatsapp/reports?page=${201 + Math.floor(Math.random() * 19_800)}&limit=50`))));
      track('list pages 10,000.. in order (Next)', await measure(200, 1, async (i) => void (await getOk(client, `/api/whatsapp/reports?page=${10_000 + i}&limit=50`))));
      track('list deep pages, 4 at once', await measure(200, 4, async () => void (await getOk(client, `/api/whatsapp/reports?page=${201 + Math.floor(Math.random() * 19_800)}&limit=50`))));

      const filters: [string, string][] = [
        ['status=failed', 'status=failed'],
        ['status=pending', 'status=pending'],
        ['template (25%)', 'template=bench_tpl_1'],
        ['template (rare, old)', 'template=bench_rare'],
        ['recipient prefix (common)', 'recipientNumber=%2B9171'],
        ['recipient prefix (one number)', `recipientNumber=${recipientOf(123_456)}`],
        ['date range (3 days)', 'dateFrom=2026-01-08&dateTo=2026-01-10'],
        ['template + status + dates', 'template=bench_tpl_2&status=read&dateFrom=2026-01-05&dateTo=2026-01-15'],
      ];
      for (const [label, query] of filters) {
        const cold = await timed(() => getOk(client, `/api/whatsapp/reports?${query}`));
        const total = cold.result.data.total ?? 0;
        console.log(`  ${label}: ${total.toLocaleString('en-IN')} rows, first request ${cold.ms.toFixed(1)} ms`);
        track(`  ${label}, page 1`, await measure(100, 1, async () => void (await getOk(client, `/api/whatsapp/reports?${query}&page=1`))));
        const pages = Math.ceil(total / 50);
        if (pages > 250) track(`  ${label}, deep pages`, await measure(100, 1, async () => void (await getOk(client, `/api/whatsapp/reports?${query}&page=${201 + Math.floor(Math.random() * (pages - 200))}`))));
      }

      const summaryCold = await timed(() => getOk(client, '/api/whatsapp/reports/summary'));
      console.log(`  summary, counted: ${summaryCold.ms.toFixed(1)} ms`);
      track('summary (cached up to 15 s)', await measure(100, 1, async () => void (await getOk(client, '/api/whatsapp/reports/summary'))));
      track('templates', await measure(100, 1, async () => void (await getOk(client, '/api/whatsapp/reports/templates'))));
      const worst = measured.reduce((a, b) => (b.figures.p95 > a.figures.p95 ? b : a));
      console.log(`  worst p95 of the ${measured.length} report requests measured: ${worst.figures.p95.toFixed(1)} ms (${worst.label})`);
      printFigure({ db, figure: 'reports_p95_ms', value: Number(worst.figures.p95.toFixed(2)), ceiling: REPORTS_P95_CEILING_MS, unit: 'ms' });


      for (const [label, query] of [
        ['CSV', '?export=csv'],
        ['Excel', '?export=excel'],
      ] as const) {
        global.gc?.();
        const baseline = Math.round(process.memoryUsage().rss / 1024 / 1024);
        const { result, peakMb } = await withPeakRss(() => timed(() => download(server, client, query)));
        const addedMb = peakMb - baseline;
        if (label === 'CSV') {
          printFigure({ db, figure: 'export_csv_1m_seconds', value: result.ms / 1000, ceiling: EXPORT_CSV_CEILING_SECONDS, unit: 's' });
          printFigure({ db, figure: 'export_csv_1m_added_mb', value: addedMb, ceiling: EXPORT_ADDED_CEILING_MB, unit: 'MB' });
        }
        console.log(
          `  export ${label} of ${TOTAL.toLocaleString('en-IN')} rows: ${(result.ms / 1000).toFixed(1)} s, ${(result.result / 1024 / 1024).toFixed(1)} MB, ` +
            `${Math.round(TOTAL / (result.ms / 1000)).toLocaleString('en-IN')} rows/s, peak RSS ${peakMb} MB (${baseline} MB before, ${addedMb} MB added)`,
        );
      }
    } finally {
      await server.close();
    }
  },
};
