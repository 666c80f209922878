/**
 * `npm run bench`: prints figures, asserts nothing. Each bench starts a real server (SQLite in a
 * temporary folder; PostgreSQL too when TEST_DATABASE_URL or BENCH_DATABASE_URL is set).
 * Later capabilities add their benches to the list below.
 */
import { acceptanceBench } from './acceptance.bench';
import { dispatchBench } from './dispatch.bench';
import { publicApiBench } from './publicApi.bench';
import { authBench } from './auth.bench';
import { walletBench } from './wallet.bench';
import { reportsBench } from './reports.bench';

const only = process.env.BENCH_ONLY?.split(',');
const benches = [authBench, walletBench, acceptanceBench, dispatchBench, publicApiBench, reportsBench].filter((b) => !only || only.some((name) => b.name.includes(name)));

for (const bench of benches) {
  for (const kind of ['sqlite', 'postgres'] as const) {
    const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (kind === 'postgres' && !url) {
      console.log(`\n${bench.name} [postgres]: skipped (set TEST_DATABASE_URL or BENCH_DATABASE_URL)`);
      continue;
    }
    process.env.TEST_DB = kind;
    if (url) process.env.TEST_DATABASE_URL = url;
    console.log(`\n${bench.name} [${kind}]`);
    await bench.run();
  }
}
