/**
 * `npm run bench`: prints figures, asserts nothing. Each bench starts a real server (SQLite in a
 * temporary folder; PostgreSQL too: BENCH_DATABASE_URL or TEST_DATABASE_URL, else the machine's
 * own at 127.0.0.1:5432 when it answers, as `npm test` does).
 * Each bench and database runs in a fresh process, so peak memory figures are its own.
 * `BENCH_ONLY=dispatch,reports npm run bench` runs the benches whose names contain those words.
 * Lines `bench <db> <figure> <value> ceiling <value> ratio <value>` (figures.ts) are for scripts:
 * `npm run bench | grep '^bench '`.
 * Benches that touch no database (first load, local spreadsheets) run once.
 */
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { LOCAL_POSTGRES, localPostgresAnswers } from '../../scripts/local-postgres.mjs';
import { acceptanceBench } from './acceptance.bench';
import { authBench } from './auth.bench';
import { cleanupBench } from './cleanup.bench';
import { contactsBench } from './contacts.bench';
import { dispatchBench } from './dispatch.bench';
import { firstLoadBench } from './firstLoad.bench';
import { fourNumbersBench } from './fourNumbers.bench';
import { ingestBench } from './ingest.bench';
import { localSpreadsheetsBench } from './localSpreadsheets.bench';
import { publicApiBench } from './publicApi.bench';
import { reportsBench } from './reports.bench';
import { scaleOutBench } from './scaleOut.bench';
import { uploadSendBench } from './uploadSend.bench';
import { walletBench } from './wallet.bench';
import { webhooksBench } from './webhooks.bench';

/**
 * Writes out what the benches before left in PostgreSQL's buffers, before the next one starts,
 * on either database (the disk and the cores are shared). A two-instance run leaves about a
 * gigabyte of changes, which PostgreSQL writes out over the next minutes
 * (checkpoint_completion_target): the public API bench after it measured 930 requests a second
 * with the disk busy under it, 3,070-3,362 on a quiet disk. Each bench pays for its own writes
 * only. Needs a superuser or pg_checkpoint; without, the run goes on as before.
 */
async function checkpoint(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    await client.query('checkpoint');
  } catch (error) {
    console.log(`  (no checkpoint before this bench: ${error instanceof Error ? error.message : String(error)})`);
  } finally {
    await client.end().catch(() => {});
  }
}

/** `databases`: the runs a bench needs (default both; a bench without a database names one). */
interface Bench {
  name: string;
  run(): Promise<void>;
  databases?: readonly ('sqlite' | 'postgres')[];
}

const benches: Bench[] = [authBench, walletBench, acceptanceBench, dispatchBench, fourNumbersBench, scaleOutBench, publicApiBench, reportsBench, cleanupBench, ingestBench, webhooksBench, uploadSendBench, contactsBench];
/** Benches that touch no database run once, labelled by what they measure. */
const machineBenches = [
  { bench: firstLoadBench, label: 'web' },
  { bench: localSpreadsheetsBench, label: 'local' },
] as const;
const child = process.env.BENCH_CHILD;
const given = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
// Only the parent probes; its children inherit the address it chose through TEST_DATABASE_URL.
const url = given ?? (!child && localPostgresAnswers() ? LOCAL_POSTGRES : undefined);
if (!child && !given) {
  console.log(url ? `TEST_DATABASE_URL is not set: the PostgreSQL runs use the local PostgreSQL at ${url}.` : 'TEST_DATABASE_URL is not set and no PostgreSQL answers at 127.0.0.1:5432: the PostgreSQL runs skip.');
}
if (child) {
  const [name, kind] = child.split('|') as [string, 'sqlite' | 'postgres' | 'web' | 'local'];
  const bench = [...benches, ...machineBenches.map((m) => m.bench)].find((b) => b.name === name);
  if (!bench) throw new Error(`unknown bench ${name}`);
  if (kind === 'sqlite' || kind === 'postgres') process.env.TEST_DB = kind;
  if (url) process.env.TEST_DATABASE_URL = url;
  await bench.run();
} else {
  const only = process.env.BENCH_ONLY?.split(',');
  const chosen = (bench: { name: string }) => !only || only.some((word) => bench.name.includes(word));
  const runChild = (name: string, kind: string) => {
    const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'tests/bench/run.ts'], { stdio: 'inherit', env: { ...process.env, ...(url ? { TEST_DATABASE_URL: url } : {}), BENCH_CHILD: `${name}|${kind}` } });
    if (run.status !== 0) console.log(`  (this bench stopped with exit code ${run.status})`);
  };
  for (const { bench, label } of machineBenches.filter((m) => chosen(m.bench))) {
    console.log(`\n${bench.name} [${label}]`);
    runChild(bench.name, label);
  }
  for (const bench of benches.filter(chosen)) {
    for (const kind of ['sqlite', 'postgres'] as const) {
      if (bench.databases && !bench.databases.includes(kind)) {
        console.log(`\n${bench.name} [${kind}]: skipped (${bench.databases.join(' and ')} only)`);
        continue;
      }
      if (kind === 'postgres' && !url) {
        console.log(`\n${bench.name} [postgres]: skipped (no PostgreSQL: set BENCH_DATABASE_URL or TEST_DATABASE_URL, or run one at 127.0.0.1:5432)`);
        continue;
      }
      console.log(`\n${bench.name} [${kind}]`);
      if (url) await checkpoint(url);
      runChild(bench.name, kind);
    }
  }
}
