/**
 * PostgreSQL plans every statement by its tables' statistics, which ANALYZE writes and autovacuum
 * keeps current by default. With autovacuum off (it is off on these machines' PostgreSQL, and an
 * operator may turn it off) no table is ever analysed, and the planner guesses. The public send
 * API felt it first: for its Duplicate Blocked probe, a never-analysed `messages` gave
 * the user's report index the same estimated cost as the (user, recipient) index, the planner
 * took the report index, and it filtered every message of the user for each recipient, a round
 * growing with the table to many times what the recipient index takes.
 *
 * Where autovacuum is off, this worker analyses the schema's tables by autovacuum's own rule for
 * analysis (rows changed since the last one at least 50 plus a tenth of the table), a table never
 * analysed as soon as it passes that, any other at most once a minute (autovacuum's naptime) unless
 * it has since doubled, one instance of a schema at a time (an advisory lock held for the turn).
 *
 * The doubling is what a young, fast-growing table needs. A plan PostgreSQL keeps (a prepared
 * statement's, a foreign key's check) is made on the table's size at its last analysis and is
 * only made again when the table is analysed. `campaigns`, analysed near empty as the public API's
 * load began, grew tenfold in the minute after, and every message's check of its campaign stayed a
 * scan of the whole table, and the API's throughput fell with it
 * (docs/decisions/2026-12-05-plans-kept-for-a-young-table.md).
 * Analysed once it has doubled, a table is analysed a few times while young and as rarely as
 * before once grown; a table whose rows only change (a wallet's) never doubles.
 *
 * Where autovacuum is on it
 * does nothing: statistics are PostgreSQL's own job there. Vacuum stays the operator's (docs/operations.md:
 * keep autovacuum on); ANALYZE takes no lock that writes wait for.
 */
import type { Knex } from 'knex';
import type { Logger } from '../logger';
import { OutageLog } from './outage';
import { PollingWorker } from '../pollingWorker';

/**
 * How often the tables' change counts are read: a table never analysed gets its first statistics
 * within this of passing the threshold (a fresh install's first sends plan on them).
 */
const CHECK_MS = 1_000;
/** autovacuum_analyze_threshold and autovacuum_analyze_scale_factor's defaults. */
const ANALYZE_THRESHOLD_ROWS = 50;
const ANALYZE_SCALE_FACTOR = 0.1;
/** A table analysed before is analysed again at most this often (autovacuum_naptime's default). */
const REANALYZE_MIN_SECONDS = 60;
/**
 * A table holding at least this many times its rows at its last analysis is analysed again at
 * once, however recently it was analysed (see the module's comment).
 */
const GROWN_FACTOR = 2;
/**
 * The advisory lock one instance holds while it analyses, with the schema's hash as its second
 * key: instances of one deployment share a schema; deployments in other schemas do not wait.
 */
export const TABLE_STATISTICS_LOCK = 7_204_117;

/**
 * The schema's tables that autovacuum would analyse now, where autovacuum is off: none where it
 * is on. `reltuples` is -1 for a table never analysed (PostgreSQL 14 and later). Read from
 * `pg_class` and the statistics functions for this schema alone: `pg_stat_user_tables` builds a
 * row for every table of the database (slow where the tests' schemas come and go).
 */
const DUE_TABLES_SQL = `select c.relname as name from pg_class c
  where current_setting('autovacuum') = 'off'
    and c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p')
    and pg_stat_get_mod_since_analyze(c.oid) >= ${ANALYZE_THRESHOLD_ROWS} + ${ANALYZE_SCALE_FACTOR} * greatest(c.reltuples, 0)
    and (c.reltuples < 0
      or pg_stat_get_live_tuples(c.oid) >= ${GROWN_FACTOR} * c.reltuples
      or coalesce(greatest(pg_stat_get_last_analyze_time(c.oid), pg_stat_get_last_autoanalyze_time(c.oid)), '-infinity')
        < coalesce(?::timestamptz, now()) - interval '${REANALYZE_MIN_SECONDS} seconds')
  order by c.relname`;

export class TableStatistics extends PollingWorker {
  private readonly failures: OutageLog;

  /**
   * `clock` stands in for the database's own clock in the minute's rule, so that a test reads the
   * rule at a moment it chooses rather than at whatever moment a loaded machine reaches it.
   */
  constructor(private readonly deps: { db: Knex; log: Logger; checkMs?: number; clock?: () => Date }) {
    super(deps.checkMs ?? CHECK_MS);
    this.failures = new OutageLog(deps.log, 'analysing tables');
  }

  /**
   * One turn: analyses the tables that are due, unless another instance is doing so. Answers the
   * tables analysed (none where autovacuum is on).
   */
  async analyzeDue(): Promise<string[]> {
    // Most turns find nothing due: one statement, and only then the lock and a second look.
    const { rows: due } = (await this.deps.db.raw(DUE_TABLES_SQL, [this.now()])) as { rows: { name: string }[] };
    if (due.length === 0) return [];
    return this.deps.db.transaction(async (trx) => {
      const { rows: locked } = (await trx.raw('select pg_try_advisory_xact_lock(?, hashtext(current_schema())) as locked', [TABLE_STATISTICS_LOCK])) as { rows: { locked: boolean }[] };
      if (locked[0]?.locked !== true) return [];
      // Another instance may have analysed them since the first look.
      const { rows } = (await trx.raw(DUE_TABLES_SQL, [this.now()])) as { rows: { name: string }[] };
      const names = rows.map((row) => row.name);
      for (const name of names) await trx.raw('analyze ??', [name]);
      return names;
    });
  }

  /** The moment the minute's rule is read at: null for the database's own clock. */
  private now(): string | null {
    return this.deps.clock ? this.deps.clock().toISOString() : null;
  }

  protected async run(): Promise<void> {
    try {
      const { rows } = (await this.deps.db.raw("select current_setting('autovacuum') as autovacuum")) as { rows: { autovacuum: string }[] };
      if (rows[0]?.autovacuum === 'off') {
        this.deps.log.warn('autovacuum is off on this PostgreSQL server: the server analyses its own tables, and nothing vacuums them (keep autovacuum on in production)');
      }
    } catch (error) {
      this.deps.log.error({ err: error }, 'reading the autovacuum setting failed');
    }
    while (this.running) {
      try {
        const analyzed = await this.analyzeDue();
        if (analyzed.length > 0) this.deps.log.debug({ tables: analyzed }, 'tables analysed');
        this.failures.recovered();
      } catch (error) {
        await this.pause.wait(Math.max(this.pause.ms, this.failures.failed(error)));
        continue;
      }
      await this.pause.wait();
    }
  }
}
