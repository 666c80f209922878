/**
 * The two ways work reaches the dispatcher (ARCHITECTURE "Queue adapters"):
 * - embedded (SQLite, one process): lanes claim queued rows straight from the messages table;
 * - PostgreSQL: pg-boss jobs carrying batches of message ids, inserted in the accepting
 *   transaction, so any number of instances share the work; a claim only takes rows still
 *   `queued` (or `sending` with a lapsed lease), so a job seen twice never sends twice.
 */
import type { Knex } from 'knex';
import PgBoss from 'pg-boss';
import type { Logger } from '../logger';
import type { CampaignAcceptance } from './campaignAcceptance';
import { toClaimed, type MessageDispatcher } from './dispatcher';
import type { MessageOutcomes } from './messageOutcomes';

export interface DispatchQueue {
  readonly kind: 'embedded' | 'pg-boss';
  /** Before the server takes requests: whatever acceptance needs (pg-boss's enqueue hook). */
  prepare(): Promise<void>;
  /** Start sending. */
  start(): Promise<void>;
  /** New work was accepted: look now rather than at the next poll. */
  notify(): void;
  /** A resumed campaign: its queued messages (held while it was paused) are due now. Answers how many. */
  requeueCampaign(campaignId: number): Promise<number>;
  stop(): Promise<void>;
}

const IDLE_POLL_MS = 250;
const LEASE_SWEEP_MS = 5_000;

export class EmbeddedDispatchQueue implements DispatchQueue {
  readonly kind = 'embedded' as const;
  private running = false;
  private lanes: Promise<void>[] = [];
  private wakers: (() => void)[] = [];
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: { db: Knex; dispatcher: MessageDispatcher; log: Logger }) {}

  async prepare(): Promise<void> {
    // The dispatcher polls the messages table; acceptance needs nothing from it.
  }

  async start(): Promise<void> {
    if (this.running) return;
    // One process owns the embedded database: whatever it left `sending` died with it.
    await this.deps.db('messages').where({ status: 'sending' }).update({ status: 'queued', nextAttemptAt: new Date().toISOString(), leaseUntil: null });
    this.running = true;
    const lanes = this.deps.dispatcher.settings.workers;
    this.lanes = Array.from({ length: lanes }, (_, lane) => this.lane(lane));
    this.sweepTimer = setInterval(() => void this.reclaimLapsedLeases(), LEASE_SWEEP_MS);
    this.sweepTimer.unref();
  }

  notify(): void {
    for (const wake of this.wakers.splice(0)) wake();
  }

  async requeueCampaign(campaignId: number): Promise<number> {
    const count = await this.deps.db('messages').where({ campaignId, status: 'queued' }).update({ nextAttemptAt: new Date().toISOString() });
    this.notify();
    return count;
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.notify();
    await Promise.all(this.lanes);
    this.lanes = [];
  }

  private async claim(): Promise<ReturnType<typeof toClaimed>[]> {
    const { settings } = this.deps.dispatcher;
    const now = new Date();
    const nowIso = now.toISOString();
    const lease = new Date(now.getTime() + settings.leaseSeconds * 1000).toISOString();
    // Index order on (status, next_attempt_at): no sort over a large backlog.
    const rows = (await this.deps.db.raw(
      `update messages set status = 'sending', lease_until = ?, attempts = attempts + 1, updated_at = ?
        where id in (select id from messages where status = 'queued' and next_attempt_at <= ? order by next_attempt_at limit ?)
        returning id, campaign_id, recipient, variables, attempts`,
      [lease, nowIso, nowIso, settings.batchSize],
    )) as Record<string, unknown>[];
    return rows.map(toClaimed);
  }

  private async lane(index: number): Promise<void> {
    while (this.running) {
      try {
        const claimed = await this.claim();
        if (claimed.length > 0) {
          await this.deps.dispatcher.dispatch(claimed);
          continue;
        }
      } catch (error) {
        this.deps.log.error({ err: error, lane: index }, 'dispatch lane failed; retrying');
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, IDLE_POLL_MS);
        this.wakers.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private async reclaimLapsedLeases(): Promise<void> {
    const nowIso = new Date().toISOString();
    try {
      await this.deps.db('messages').where({ status: 'sending' }).where('leaseUntil', '<', nowIso).update({ status: 'queued', nextAttemptAt: nowIso, leaseUntil: null });
    } catch (error) {
      this.deps.log.warn({ err: error }, 'lease sweep failed');
    }
  }
}

export const DISPATCH_QUEUE = 'dispatch-messages';
const SWEEP_MS = 15_000;
/** Jobs per pg-boss insert when a resumed campaign is queued again (one statement each). */
const REQUEUE_JOBS_PER_INSERT = 500;

interface DispatchJob {
  messageIds: number[];
}

type PgClient = { query(text: string, values: unknown[]): Promise<{ rows: unknown[] }> };

/** pg-boss runs its statements on the caller's connection, inside the caller's transaction. */
async function transactionExecutor(trx: Knex.Transaction): Promise<PgBoss.Db> {
  const connection = (await (trx.client as unknown as { acquireConnection(): Promise<PgClient> }).acquireConnection()) as PgClient;
  return { executeSql: (text, values) => connection.query(text, values) as Promise<{ rows: never[] }> };
}

export class PgBossDispatchQueue implements DispatchQueue {
  readonly kind = 'pg-boss' as const;
  private readonly boss: PgBoss;
  private sweepTimer: NodeJS.Timeout | null = null;
  private started = false;
  private working = false;

  constructor(
    private readonly deps: {
      db: Knex;
      url: string;
      schema: string;
      dispatcher: MessageDispatcher;
      acceptance: CampaignAcceptance;
      outcomes: MessageOutcomes;
      log: Logger;
      /** False on API-only instances: they enqueue but do not send. */
      work: boolean;
    },
  ) {
    this.boss = new PgBoss({ connectionString: deps.url, schema: deps.schema, max: 4, application_name: 'sandesh-dispatch' });
    this.boss.on('error', (error: Error) => deps.log.error({ err: error }, 'pg-boss error'));
  }

  /** One job per dispatcher batch (DISPATCH_BATCH_SIZE message ids). */
  private jobsFor(messageIds: readonly number[], startAfter?: Date): PgBoss.JobInsert<DispatchJob>[] {
    const { leaseSeconds, batchSize } = this.deps.dispatcher.settings;
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

  async prepare(): Promise<void> {
    if (this.started) return;
    await this.boss.start();
    await this.boss.createQueue(DISPATCH_QUEUE);
    this.started = true;
    this.deps.acceptance.setEnqueueHook(async (trx, ids) => {
      await this.boss.insert(this.jobsFor(ids), { db: await transactionExecutor(trx) });
    });
    this.deps.outcomes.setRequeueHook(async (trx, retries) => {
      for (const retry of retries) await this.boss.insert(this.jobsFor([retry.id], retry.nextAttemptAt), { db: await transactionExecutor(trx) });
    });
    // Messages of a paused or cancelled campaign go back to the queue: they need a job to be seen again.
    this.deps.dispatcher.setHoldHook(async (ids, until) => {
      await this.boss.insert(this.jobsFor(ids, until));
    });
  }

  async start(): Promise<void> {
    await this.prepare();
    if (!this.deps.work || this.working) return;
    this.working = true;
    const workers = this.deps.dispatcher.settings.workers;
    for (let i = 0; i < workers; i++) {
      // pg-boss rests a worker for the polling interval after every fetch, even one that found a
      // job: that alone capped an instance at workers × batch size per 0.5 s (800 messages/s),
      // whatever the numbers' limits. A worker that just finished a job looks again at once.
      let workerId: string | null = null;
      workerId = await this.boss.work<DispatchJob>(DISPATCH_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async (jobs) => {
        for (const job of jobs) await this.process(job.data.messageIds);
        if (workerId) this.boss.notifyWorker(workerId);
      });
    }
    this.sweepTimer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.sweepTimer.unref();
    // A restart after a crash recovers at once instead of at the first interval.
    void this.sweep();
  }

  notify(): void {
    // pg-boss polls; new jobs are seen within its polling interval.
  }

  /**
   * Held messages of a paused campaign have jobs only for later: new jobs make them due now (a
   * claim takes only rows still `queued`, so the later jobs then find nothing to do).
   */
  async requeueCampaign(campaignId: number): Promise<number> {
    const rows = (await this.deps.db('messages').where({ campaignId, status: 'queued' }).select('id')) as { id: number | string }[];
    const ids = rows.map((row) => Number(row.id));
    const { batchSize } = this.deps.dispatcher.settings;
    const idsPerInsert = batchSize * REQUEUE_JOBS_PER_INSERT;
    for (let start = 0; start < ids.length; start += idsPerInsert) await this.boss.insert(this.jobsFor(ids.slice(start, start + idsPerInsert)));
    return ids.length;
  }

  private async process(messageIds: readonly number[]): Promise<void> {
    const { leaseSeconds } = this.deps.dispatcher.settings;
    const now = new Date();
    const lease = new Date(now.getTime() + leaseSeconds * 1000).toISOString();
    const result = (await this.deps.db.raw(
      `update messages set status = 'sending', lease_until = ?, attempts = attempts + 1, updated_at = ?
        where id = any(?) and (status = 'queued' or (status = 'sending' and lease_until < ?))
        returning id, campaign_id, recipient, variables, attempts`,
      [lease, now.toISOString(), messageIds as number[], now.toISOString()],
    )) as { rows: Record<string, unknown>[] };
    if (result.rows.length === 0) return;
    await this.deps.dispatcher.dispatch(result.rows.map(toClaimed));
  }

  /**
   * Safety net for instances that died holding a claim: messages whose lease lapsed go back into
   * jobs (their pg-boss job also expires and is retried; whichever comes first wins the claim).
   */
  private async sweep(): Promise<void> {
    try {
      // A job an instance had fetched but not yet claimed when it died leaves its messages
      // `queued`, out of reach of the lease check below, and pg-boss itself expires active jobs
      // only at its maintenance (every 2 minutes). Expiring them here retries them sooner.
      await this.boss.expire();
      const nowIso = new Date().toISOString();
      const rows = (await this.deps.db('messages').where({ status: 'sending' }).where('leaseUntil', '<', nowIso).limit(10_000).select('id')) as { id: number }[];
      if (rows.length > 0) await this.boss.insert(this.jobsFor(rows.map((r) => Number(r.id))));
    } catch (error) {
      this.deps.log.warn({ err: error }, 'dispatch sweep failed');
    }
  }

  async stop(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.deps.acceptance.setEnqueueHook(null);
    this.deps.outcomes.setRequeueHook(null);
    this.deps.dispatcher.setHoldHook(null);
    if (this.started) await this.boss.stop({ graceful: true, timeout: 10_000, wait: true });
    this.started = false;
    this.working = false;
  }
}
