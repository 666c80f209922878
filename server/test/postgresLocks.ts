/** PostgreSQL lock waits made on purpose by the tests of concurrent writes. */
import type { Knex } from 'knex';

/** The server process id of the connection a transaction holds. */
export async function backendPid(trx: Knex.Transaction): Promise<number> {
  return ((await trx.raw('select pg_backend_pid() as pid')) as { rows: { pid: number }[] }).rows[0]!.pid;
}

/** Waits (with a deadline, not a sleep) until some statement is blocked behind a lock `pid` holds. */
export async function waitUntilBlockedBy(db: Knex, pid: number, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const waiting = (await db.raw('select count(*)::int as n from pg_stat_activity where ? = any(pg_blocking_pids(pid))', [pid])) as { rows: { n: number }[] };
    if (waiting.rows[0]!.n > 0) return;
    if (Date.now() > deadline) throw new Error(`${what} never reached the lock`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
