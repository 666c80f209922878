/**
 * How queued messages get the queue's jobs, built before everything that queues messages
 * (acceptance, the materialiser, outcomes' retries, the dispatcher's holds) and handed to them:
 * - SQLite: no jobs; the dispatcher's lanes read the messages table (`NO_DISPATCH_JOBS`);
 * - PostgreSQL: pg-boss jobs of message ids, inserted in the transaction that writes the messages
 *   (`PgBossDispatchJobs`), which the pg-boss queue adapter (queues.ts) then works through.
 */
import type { Knex } from 'knex';
import PgBoss from 'pg-boss';
import type { Logger } from '../logger';
import { OutageLog } from '../db/outage';
import { partFromNumbered, type StatementPart } from '../db/singleStatement';

/** A retry written back to the queue: due again at its time. */
export interface RequeuedMessage {
  id: number;
  nextAttemptAt: Date;
}

export interface Enqueuer {
  /** Whether queued messages need jobs (false where the dispatcher polls the table, or before the queue is ready). */
  readonly makesJobs: boolean;
  /** Whether `enqueueStatement` can be part of acceptance's single statement. */
  readonly embedsInStatement: boolean;
  /** Jobs for these queued messages, in the transaction that writes or releases them. */
  enqueue(trx: Knex.Transaction, messageIds: readonly number[]): Promise<void>;
  /** The same jobs' insert, not run, as a part of one statement (only where `embedsInStatement`). */
  enqueueStatement(messageIds: readonly number[]): Promise<StatementPart>;
  /** A job for each retry, due at its time, in the transaction that requeues it. */
  requeue(trx: Knex.Transaction, retries: readonly RequeuedMessage[]): Promise<void>;
  /** Jobs for held messages (a paused or cancelled campaign, a held number), due at `until`. */
  hold(messageIds: readonly number[], until: Date): Promise<void>;
}

/** SQLite: the dispatcher's lanes find queued messages in the table; nothing to make. */
export const NO_DISPATCH_JOBS: Enqueuer = {
  makesJobs: false,
  embedsInStatement: false,
  enqueue: async () => undefined,
  enqueueStatement: async () => {
    throw new Error('the embedded queue makes no jobs to embed in a statement');
  },
  requeue: async () => undefined,
  hold: async () => undefined,
};

export const DISPATCH_QUEUE = 'dispatch-messages';

export interface DispatchJob {
  messageIds: number[];
}

type PgClient = { query(text: string, values: unknown[]): Promise<{ rows: unknown[] }> };

/** pg-boss's schema beside the app's tables (`pgboss` beside `public`). */
export function pgBossSchemaFor(databaseSchema: string | null | undefined): string {
  return `${databaseSchema ?? 'public'}_pgboss`.replace(/^public_pgboss$/, 'pgboss');
}

/** The index `ensureFetchOrderIndex` adds to pg-boss's job table. */
export const FETCH_ORDER_INDEX = 'job_fetch_order';

/**
 * pg-boss (10.x) takes the next job in the order (priority desc, created_on, id), and its own
 * index on waiting jobs is (name, start_after): every fetch read and sorted every waiting job of
 * the queue. A campaign is one job per DISPATCH_BATCH_SIZE messages, so a million recipients
 * wait as tens of thousands of jobs, and each fetch and complete cost PostgreSQL a sort of them
 * all; this index holds the waiting jobs in that order, so a fetch reads the first ones (pg-boss's
 * own issue tracker describes the same, issues 228 and 418 there). On the partitioned job table
 * it covers every queue's
 * partition, present and future. Instances starting together take turns (advisory lock), and an
 * instance that finds it in place takes no lock on the job table.
 */
export async function ensureFetchOrderIndex(db: Knex, schema: string): Promise<void> {
  const exists = async (conn: Knex) => ((await conn('pg_indexes').where({ schemaname: schema, indexname: FETCH_ORDER_INDEX }).first('indexname')) as unknown) !== undefined;
  if (await exists(db)) return;
  await db.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`${schema}.${FETCH_ORDER_INDEX}`]);
    if (await exists(trx)) return;
    await trx.raw(`create index ?? on ??.job (name, priority desc, created_on, id) where state < 'active'`, [FETCH_ORDER_INDEX, schema]);
  });
}

/** pg-boss runs its statements on the caller's connection, inside the caller's transaction. */
export async function transactionExecutor(trx: Knex.Transaction): Promise<PgBoss.Db> {
  const connection = (await (trx.client as unknown as { acquireConnection(): Promise<PgClient> }).acquireConnection()) as PgClient;
  return { executeSql: (text, values) => connection.query(text, values) as Promise<{ rows: never[] }> };
}

/**
 * pg-boss's jobs of message ids. Makes jobs once `prepare` has started pg-boss, until `stop`:
 * before, and after, queued messages are written without jobs, as when no queue was ready.
 */
export class PgBossDispatchJobs implements Enqueuer {
  readonly boss: PgBoss;
  private started = false;
  private embeddable = false;
  private readonly bossErrors: OutageLog;

  constructor(
    private readonly deps: {
      db: Knex;
      url: string;
      schema: string;
      /** One job per this many message ids (DISPATCH_BATCH_SIZE), leased this long. */
      settings: { batchSize: number; leaseSeconds: number };
      log: Logger;
    },
  ) {
    this.boss = new PgBoss({ connectionString: deps.url, schema: deps.schema, max: 4, application_name: 'sandesh-dispatch' });
    // pg-boss reports its pool's lost idle connections and its maintenance's failures here; an
    // EventEmitter without a listener for 'error' would throw them instead.
    this.bossErrors = new OutageLog(deps.log, 'pg-boss');
    this.boss.on('error', (error: Error) => void this.bossErrors.failed(error));
  }

  get makesJobs(): boolean {
    return this.started;
  }

  get embedsInStatement(): boolean {
    return this.started && this.embeddable;
  }

  get schema(): string {
    return this.deps.schema;
  }

  async prepare(): Promise<void> {
    if (this.started) return;
    await this.boss.start();
    await this.boss.createQueue(DISPATCH_QUEUE);
    await ensureFetchOrderIndex(this.deps.db, this.deps.schema);
    this.started = true;
    // pg-boss's own insert, written out rather than run, as a part of acceptance's single
    // statement. Tried once here: a pg-boss whose insert cannot be embedded leaves acceptance on
    // its transaction.
    try {
      await this.enqueueStatement([1]);
      this.embeddable = true;
    } catch (error) {
      this.embeddable = false;
      this.deps.log.warn({ err: error }, 'pg-boss insert cannot be part of one statement; acceptance writes in a transaction');
    }
  }

  async stop(): Promise<void> {
    const started = this.started;
    this.started = false;
    this.embeddable = false;
    if (started) await this.boss.stop({ graceful: true, timeout: 10_000, wait: true });
  }

  /** One job per dispatcher batch (DISPATCH_BATCH_SIZE message ids). */
  jobsFor(messageIds: readonly number[], startAfter?: Date): PgBoss.JobInsert<DispatchJob>[] {
    const { leaseSeconds, batchSize } = this.deps.settings;
    const jobs: PgBoss.JobInsert<DispatchJob>[] = [];
    for (let start = 0; start < messageIds.length; start += batchSize) {
      jobs.push({
        name: DISPATCH_QUEUE,
        data: { messageIds: messageIds.slice(start, start + batchSize) },
        expireInSeconds: leaseSeconds,
        retryLimit: 20,
        retryDelay: 5,
        ...(startAfter ? { startAfter } : {}),
      });
    }
    return jobs;
  }

  async enqueue(trx: Knex.Transaction, messageIds: readonly number[]): Promise<void> {
    if (!this.started || messageIds.length === 0) return;
    await this.boss.insert(this.jobsFor(messageIds), { db: await transactionExecutor(trx) });
  }

  /** Jobs due now outside any transaction (a resumed campaign). */
  async insertNow(messageIds: readonly number[]): Promise<void> {
    await this.boss.insert(this.jobsFor(messageIds));
  }

  async enqueueStatement(messageIds: readonly number[]): Promise<StatementPart> {
    let written: StatementPart | null = null;
    const writer: PgBoss.Db = {
      executeSql: async (text, values) => {
        if (written) throw new Error('pg-boss wrote more than one statement for an insert');
        written = partFromNumbered(text, values ?? []);
        return { rows: [] };
      },
    };
    await this.boss.insert(this.jobsFor(messageIds), { db: writer });
    if (!written) throw new Error('pg-boss wrote no statement for an insert');
    return written;
  }

  async requeue(trx: Knex.Transaction, retries: readonly RequeuedMessage[]): Promise<void> {
    if (!this.started) return;
    for (const retry of retries) await this.boss.insert(this.jobsFor([retry.id], retry.nextAttemptAt), { db: await transactionExecutor(trx) });
  }

  // Messages of a paused or cancelled campaign go back to the queue: they need a job to be seen again.
  async hold(messageIds: readonly number[], until: Date): Promise<void> {
    if (!this.started) return;
    await this.boss.insert(this.jobsFor(messageIds, until));
  }
}
