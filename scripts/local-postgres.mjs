// The machine's own PostgreSQL (trust auth, database `test`), used by `npm test` and `npm run
// bench` when TEST_DATABASE_URL is not set, so that both run on both databases where one answers.
import { spawnSync } from 'node:child_process';

export const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/test';

/** Whether LOCAL_POSTGRES answers a query within a few seconds (a child process, so it can block). */
export function localPostgresAnswers() {
  const probe = spawnSync(
    process.execPath,
    ['-e', `const { Client } = require('pg'); const c = new Client({ connectionString: process.argv[1], connectionTimeoutMillis: 3000 }); c.connect().then(() => c.query('select 1')).then(() => process.exit(0), () => process.exit(1));`, LOCAL_POSTGRES],
    { stdio: 'ignore', timeout: 10_000 },
  );
  return probe.status === 0;
}
