/**
 * The two ways work reaches the dispatcher (ARCHITECTURE "Queue adapters"):
 * - embedded (SQLite, one process): lanes claim queued rows straight from the messages table;
 * - PostgreSQL: pg-boss jobs carrying batches of message ids, inserted in the accepting
 *   transaction, so any number of instances share the work.
 * Either way a claim takes only rows still `queued` (or `sending` under a lapsed lease and never
 * handed to the provider) and writes a fresh fencing token on them, so a job seen twice, retried
 * after expiry or run beside a stalled worker never sends twice (see dispatcher.ts).
 *
 * Every path that puts a message back, and why it cannot give one message two owners:
 * - lease sweep: unhanded rows under a lapsed lease are claimable again (the old worker's token
 *   no longer matches, so its handoff and its writes fail); handed ones go to `unknown`;
 * - pg-boss retry or expiry: the job's claim finds its rows leased (renewed while in flight) or
 *   already finished, and takes nothing;
 * - held and throttled messages, pause: requeued only while still carrying the token and never
 *   handed, with the token cleared;
 * - resume: new jobs for `queued` rows only; the old jobs then find nothing;
 * - restart: `sending` rows left by a dead process are requeued if never handed, else `unknown`;
 * - unknown past DISPATCH_UNKNOWN_SETTLE_SECONDS: requeued with the token cleared, so a late
 *   answer of the old send no longer writes.
 */
import type { Knex } from 'knex';
import type PgBoss from 'pg-boss';
import type { Logger } from '../logger';
import { OutageLog } from '../db/outage';
import { IdlePause } from '../pollingWorker';
import { newClaimToken, parseSendReference, sendReference, toClaimed } from './claims';
import type { MessageDispatcher } from './dispatcher';
import { settleReferences } from './messageOutcomes';
import { DISPATCH_QUEUE, type DispatchJob, type PgBossDispatchJobs } from './dispatchJobs';
import type { MessageRow } from '../db/rows/messages';
import type { DispatchStore } from './dispatchStore/store';

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
/** Running campaigns a lane looks through for due work while some number is busy. */
const CAMPAIGNS_PER_TURN = 200;
const LEASE_SWEEP_MS = 5_000;
/** How long Meta retries a status webhook: past it, no status of a send can arrive any more. */
const PROVIDER_STATUS_RETRY_MS = 7 * 24 * 3600_000;

export class EmbeddedDispatchQueue implements DispatchQueue {
  readonly kind = 'embedded' as const;
  private running = false;
  private lanes: Promise<void>[] = [];
  private wakers: (() => void)[] = [];
  private sweepTimer: NodeJS.Timeout | null = null;
  /** The campaign a lane last took work of while some number was busy (the turn moves on from it). */
  private lastServedCampaign = 0;
  private readonly laneFailures: OutageLog;
  private readonly sweepFailures: OutageLog;

  constructor(private readonly deps: { db: Knex; store: DispatchStore; dispatcher: MessageDispatcher; log: Logger }) {
    this.laneFailures = new OutageLog(deps.log, 'a dispatch lane');
    this.sweepFailures = new OutageLog(deps.log, 'the lease sweep');
  }

  async prepare(): Promise<void> {
    // The dispatcher polls the messages table; acceptance needs nothing from it.
  }

  async start(): Promise<void> {
    if (this.running) return;
    // One process owns the embedded database: whatever it left `sending` died with it. Messages
    // it had handed to the provider may have gone out: they wait for a status, not a resend.
    await recoverAbandoned(this.deps.db, this.deps.store, this.deps.dispatcher.settings.unknownSettleSeconds, true);
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

  /**
   * The oldest due messages, unless some number is busy (its batches here already hold a moment
   * of its sending time): then the due messages of the next running campaign, in turn, whose
   * number is not busy. Oldest first alone gave every lane the first campaign's number, and
   * numbers went out one after another at one number's rate.
   */
  private async claim(): Promise<ReturnType<typeof toClaimed>[]> {
    const busy = this.deps.dispatcher.busyNumbers();
    if (busy.size === 0) return this.claimOldest();
    // Round robin: from the campaign after the last one served, then from the first.
    const runningAfter = async (after: number) =>
      ((await this.deps.db('campaigns').where({ status: 'running' }).where('id', '>', after).whereNotIn('senderNumberId', [...busy]).orderBy('id').limit(CAMPAIGNS_PER_TURN).select('id')) as { id: number | string }[]).map(
        (row) => Number(row.id),
      );
    const order = await runningAfter(this.lastServedCampaign);
    if (order.length < CAMPAIGNS_PER_TURN && this.lastServedCampaign > 0) order.push(...(await runningAfter(0)).filter((id) => id <= this.lastServedCampaign));
    for (const campaignId of order) {
      const rows = await this.claimOf(campaignId);
      if (rows.length > 0) {
        this.lastServedCampaign = campaignId;
        return rows;
      }
    }
    return [];
  }

  private claimStatement(selection: string): { sql: string; lease: string; nowIso: string; token: string } {
    const now = new Date();
    return {
      sql: `update messages set status = 'sending', claim_token = ?, handed_at = null, lease_until = ?, attempts = attempts + 1, updated_at = ?
        where id in (${selection})
        returning id, campaign_id, recipient, variables, attempts, claim_token`,
      lease: new Date(now.getTime() + this.deps.dispatcher.settings.leaseSeconds * 1000).toISOString(),
      nowIso: now.toISOString(),
      token: newClaimToken(),
    };
  }

  private async claimOldest(): Promise<ReturnType<typeof toClaimed>[]> {
    // Index order on (status, next_attempt_at): no sort over a large backlog.
    const { sql, lease, nowIso, token } = this.claimStatement(`select id from messages where status = 'queued' and next_attempt_at <= ? order by next_attempt_at limit ?`);
    const rows = (await this.deps.db.raw(sql, [token, lease, nowIso, nowIso, this.deps.dispatcher.settings.batchSize])) as Record<string, unknown>[];
    return rows.map(toClaimed);
  }

  private async claimOf(campaignId: number): Promise<ReturnType<typeof toClaimed>[]> {
    // The campaign's own index (campaign_id, status): a campaign with nothing due costs one probe.
    const { sql, lease, nowIso, token } = this.claimStatement(
      `select id from messages indexed by messages_campaign_status_index where campaign_id = ? and status = 'queued' and next_attempt_at <= ? limit ?`,
    );
    const rows = (await this.deps.db.raw(sql, [token, lease, nowIso, campaignId, nowIso, this.deps.dispatcher.settings.batchSize])) as Record<string, unknown>[];
    return rows.map(toClaimed);
  }

  private async lane(index: number): Promise<void> {
    while (this.running) {
      let pauseMs = IDLE_POLL_MS;
      try {
        const claimed = await this.claim();
        this.laneFailures.recovered();
        if (claimed.length > 0) {
          await this.deps.dispatcher.dispatch(claimed);
          // Its number may no longer be busy: lanes waiting for work look again.
          this.notify();
          continue;
        }
      } catch (error) {
        pauseMs = Math.max(IDLE_POLL_MS, this.laneFailures.failed(error, { lane: index }));
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pauseMs);
        this.wakers.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private async reclaimLapsedLeases(): Promise<void> {
    try {
      const moved = await recoverAbandoned(this.deps.db, this.deps.store, this.deps.dispatcher.settings.unknownSettleSeconds, false);
      if (moved.requeued > 0) this.notify();
      this.sweepFailures.recovered();
    } catch (error) {
      this.sweepFailures.failed(error);
    }
  }
}

/**
 * Claims no live worker renews any more, and sends nobody could settle:
 * - `sending` rows handed to the provider under a lapsed lease (or, at an embedded start, all of
 *   them) become `unknown` until the settle window ends: the provider may have taken them;
 * - unhanded `sending` rows under a lapsed lease (at an embedded start, all of them) are queued
 *   again with their token cleared: a worker still running cannot hand them over any more;
 * - `unknown` rows whose window passed without a status carrying our reference are queued again,
 *   their token cleared so that a late answer of the old send cannot write.
 */
export async function recoverAbandoned(db: Knex, store: DispatchStore, settleSeconds: number, atStart: boolean): Promise<{ requeued: number; requeuedIds: number[] }> {
  const now = new Date();
  const nowIso = now.toISOString();
  const handed = db('messages').where({ status: 'sending' }).whereNotNull('handedAt');
  if (!atStart) handed.where('leaseUntil', '<', nowIso);
  // The provider retries a status webhook that found no server with pauses that grow (Meta's
  // double, for up to 7 days), so after an outage the next try comes up to about as long after
  // the restart as the outage lasted. A send handed over before a crash therefore waits for its
  // status at least as long as it has already waited, not just the settle window: a send out of
  // reach for an hour gets an hour for its status to arrive before it goes out again.
  const oldest = (await handed.clone().min({ at: 'handedAt' }).first()) as { at: string | Date | null } | undefined;
  const waitedMs = oldest?.at ? now.getTime() - new Date(oldest.at).getTime() : 0;
  const settleMs = Math.min(Math.max(settleSeconds * 1000, waitedMs), PROVIDER_STATUS_RETRY_MS);
  const settleBy = new Date(now.getTime() + settleMs).toISOString();
  await store.updateHanded(db, handed, { status: 'unknown', nextAttemptAt: settleBy, leaseUntil: null, updatedAt: nowIso });
  const unhanded = db('messages').where({ status: 'sending' }).whereNull('handedAt');
  if (!atStart) unhanded.where('leaseUntil', '<', nowIso);
  const lapsed = ((await unhanded.clone().limit(10_000).select('id')) as Pick<MessageRow, 'id'>[]).map((row) => Number(row.id));
  const dueRows = (await db('messages').where({ status: 'unknown' }).where('nextAttemptAt', '<=', nowIso).limit(10_000).select('id', 'claimToken')) as Pick<MessageRow, 'id' | 'claimToken'>[];
  // A status carrying the reference may be stored and not applied yet (ingestion behind): it
  // settles the message instead of a second send.
  const references = dueRows.flatMap((row) => (row.claimToken ? [sendReference({ id: Number(row.id), claimToken: row.claimToken })] : []));
  const stored: { id: number; claimToken: string; providerMessageId: string; at: Date }[] = [];
  for (let start = 0; start < references.length; start += 900) {
    const events = (await db('status_events').whereIn('callbackData', references.slice(start, start + 900)).select('callbackData', 'providerMessageId', 'occurredAt')) as { callbackData: string; providerMessageId: string; occurredAt: string | Date }[];
    for (const event of events) {
      const reference = parseSendReference(event.callbackData);
      if (reference) stored.push({ ...reference, providerMessageId: event.providerMessageId, at: new Date(event.occurredAt) });
    }
  }
  if (stored.length > 0) await settleReferences(db, stored);
  const due = dueRows.map((row) => Number(row.id));
  const requeuedIds: number[] = [];
  for (const [ids, status] of [
    [lapsed, 'sending'],
    [due, 'unknown'],
  ] as const) {
    for (let start = 0; start < ids.length; start += 900) {
      const chunk = ids.slice(start, start + 900);
      const query = db('messages').whereIn('id', chunk).where({ status });
      // Re-checked in the update itself: a live worker may have renewed or handed them meanwhile.
      if (status === 'unknown') query.where('nextAttemptAt', '<=', nowIso);
      else {
        query.whereNull('handedAt');
        if (!atStart) query.where('leaseUntil', '<', nowIso);
      }
      const changed = await query.update({ status: 'queued', nextAttemptAt: nowIso, leaseUntil: null, claimToken: null, handedAt: null, updatedAt: nowIso });
      if (changed > 0) requeuedIds.push(...chunk);
    }
  }
  return { requeued: requeuedIds.length, requeuedIds };
}

const SWEEP_MS = 15_000;
/** A pg-boss worker's pause after finding no job. */
const WORKER_POLL_MS = 500;
/** Jobs a pg-boss worker looks at for one of a number that is not busy. */
const JOBS_LOOKED_AT_WHILE_BUSY = 10;
/** A worker's pause after finding only busy numbers' jobs grows by this with each in a row... */
const DEFER_PAUSE_STEP_MS = 10;
/** ...up to this. */
const DEFER_PAUSE_MAX_MS = 250;
/** Jobs per pg-boss insert when a resumed campaign is queued again (one statement each). */
const REQUEUE_JOBS_PER_INSERT = 500;

export class PgBossDispatchQueue implements DispatchQueue {
  readonly kind = 'pg-boss' as const;
  private readonly boss: PgBoss;
  private sweepTimer: NodeJS.Timeout | null = null;
  private started = false;
  private working = false;
  private workers: Promise<void>[] = [];
  /** The workers' pause between empty fetches, cut short on stop. */
  private readonly idle = new IdlePause(WORKER_POLL_MS);
  private readonly workFailures: OutageLog;
  private readonly sweepFailures: OutageLog;

  constructor(
    private readonly deps: {
      db: Knex;
      store: DispatchStore;
      /** The jobs acceptance, outcomes and the dispatcher make; this adapter works through them. */
      jobs: PgBossDispatchJobs;
      dispatcher: MessageDispatcher;
      log: Logger;
      /** False on API-only instances: they enqueue but do not send. */
      work: boolean;
    },
  ) {
    this.boss = deps.jobs.boss;
    this.workFailures = new OutageLog(deps.log, 'dispatching a pg-boss job');
    this.sweepFailures = new OutageLog(deps.log, 'the dispatch sweep');
  }

  async prepare(): Promise<void> {
    if (this.started) return;
    await this.deps.jobs.prepare();
    this.started = true;
  }

  async start(): Promise<void> {
    await this.prepare();
    if (!this.deps.work || this.working) return;
    this.working = true;
    const workers = this.deps.dispatcher.settings.workers;
    this.workers = Array.from({ length: workers }, () => this.workLoop());
    // Often enough that an unknown send is retried soon after its settle window ends.
    const { unknownSettleSeconds } = this.deps.dispatcher.settings;
    this.sweepTimer = setInterval(() => void this.sweep(), Math.max(1_000, Math.min(SWEEP_MS, unknownSettleSeconds * 500)));
    this.sweepTimer.unref();
    // A restart after a crash recovers at once instead of at the first interval.
    void this.sweep();
  }

  /**
   * One worker: fetch a job, dispatch its messages, complete it. Not pg-boss's `work`: its
   * handler wrapper completes or fails the job without awaiting it, so a connection lost at that
   * moment (a failover, a restart) became an unhandled rejection that ended the process. Here
   * every step is awaited and caught: a job that could not be completed or failed stays active,
   * expires (the sweep expires jobs early) and is retried, and its claim then finds its messages
   * finished or leased. A worker that just finished a job looks again at once; pg-boss rested it
   * for the polling interval even after a find, which capped an instance at workers × batch size
   * per interval.
   */
  private async workLoop(): Promise<void> {
    let deferredInARow = 0;
    while (this.working) {
      // While a number is busy, a look at several jobs finds one of another number.
      const busy = this.deps.dispatcher.busyNumbers();
      let jobs: PgBoss.Job<DispatchJob>[];
      try {
        jobs = await this.boss.fetch<DispatchJob>(DISPATCH_QUEUE, { batchSize: busy.size > 0 ? JOBS_LOOKED_AT_WHILE_BUSY : 1 });
      } catch (error) {
        await this.idle.wait(this.workFailures.failed(error));
        continue;
      }
      if (jobs.length === 0) {
        await this.idle.wait(this.workFailures.failing ? this.workFailures.pauseMs() : WORKER_POLL_MS);
        continue;
      }
      let job: PgBoss.Job<DispatchJob> | undefined = jobs[0];
      try {
        if (busy.size > 0) {
          job = await this.firstOfIdleNumber(jobs, busy);
          const others = jobs.filter((other) => other !== job);
          if (others.length > 0) await this.putBehind(others);
        }
      } catch (error) {
        // The jobs stay active, expire and are retried.
        await this.idle.wait(this.workFailures.failed(error));
        continue;
      }
      if (!job) {
        deferredInARow += 1;
        // With nothing but busy numbers' work waiting, fetching it again and again would only churn.
        await this.idle.wait(Math.min(DEFER_PAUSE_MAX_MS, DEFER_PAUSE_STEP_MS * deferredInARow));
        continue;
      }
      deferredInARow = 0;
      try {
        await this.process(job.data.messageIds);
        await this.boss.complete(DISPATCH_QUEUE, job.id);
        this.workFailures.recovered();
      } catch (error) {
        const pauseMs = this.workFailures.failed(error, { job: job.id });
        // Retried by pg-boss after its delay; when even this fails, by expiry.
        await this.boss.fail(DISPATCH_QUEUE, job.id, { message: error instanceof Error ? error.message : String(error) }).catch(() => undefined);
        await this.idle.wait(pauseMs);
      }
    }
  }

  /**
   * The first job whose messages are not of a number busy on this instance (dispatcher.busyNumbers),
   * or none. Jobs come in the order they were made, so without this one campaign's jobs took every
   * worker, each waiting on that number's bucket, and numbers went out one after another.
   */
  private async firstOfIdleNumber(jobs: readonly PgBoss.Job<DispatchJob>[], busy: ReadonlySet<number>): Promise<PgBoss.Job<DispatchJob> | undefined> {
    const firstIds = jobs.flatMap((job) => (job.data.messageIds[0] === undefined ? [] : [job.data.messageIds[0]]));
    const rows = (await this.deps.db('messages').whereIn('id', firstIds).select('id', 'campaignId')) as Pick<MessageRow, 'id' | 'campaignId'>[];
    const campaignOf = new Map(rows.map((row) => [Number(row.id), Number(row.campaignId)]));
    return jobs.find((job) => {
      const campaignId = campaignOf.get(job.data.messageIds[0] ?? 0);
      const numberId = campaignId === undefined ? null : this.deps.dispatcher.numberOfCampaign(campaignId);
      return numberId === null || !busy.has(numberId);
    });
  }

  /**
   * Jobs looked at and not taken go behind the others as new jobs of the same messages, made
   * before the old ones complete: a crash between the two leaves jobs that find their messages
   * taken, never messages without a job.
   */
  private async putBehind(jobs: readonly PgBoss.Job<DispatchJob>[]): Promise<void> {
    await this.boss.insert(jobs.flatMap((job) => this.deps.jobs.jobsFor(job.data.messageIds)));
    await this.boss.complete(
      DISPATCH_QUEUE,
      jobs.map((job) => job.id),
    );
  }

  notify(): void {
    // pg-boss polls; new jobs are seen within its polling interval.
  }

  /**
   * Held messages of a paused campaign have jobs only for later: new jobs make them due now (a
   * claim takes only rows still `queued`, so the later jobs then find nothing to do).
   */
  async requeueCampaign(campaignId: number): Promise<number> {
    const rows = (await this.deps.db('messages').where({ campaignId, status: 'queued' }).select('id')) as Pick<MessageRow, 'id'>[];
    const ids = rows.map((row) => Number(row.id));
    const { batchSize } = this.deps.dispatcher.settings;
    const idsPerInsert = batchSize * REQUEUE_JOBS_PER_INSERT;
    for (let start = 0; start < ids.length; start += idsPerInsert) await this.deps.jobs.insertNow(ids.slice(start, start + idsPerInsert));
    return ids.length;
  }

  private async process(messageIds: readonly number[]): Promise<void> {
    const { leaseSeconds } = this.deps.dispatcher.settings;
    const now = new Date();
    const lease = new Date(now.getTime() + leaseSeconds * 1000).toISOString();
    // Only rows no live worker holds: queued, or leased to a worker that stopped renewing and had
    // not handed them to the provider (handed ones are the sweep's, for `unknown`). Not those of a
    // paused campaign: its resume makes new jobs for them, and a claim after the pause had answered
    // would show them `sending` again (and only to hold them back).
    const result = (await this.deps.db.raw(
      `update messages set status = 'sending', claim_token = ?, handed_at = null, lease_until = ?, attempts = attempts + 1, updated_at = ?
        where id = any(?) and (status = 'queued' or (status = 'sending' and lease_until < ? and handed_at is null))
          and not exists (select 1 from campaigns c where c.id = messages.campaign_id and c.status = 'paused')
        returning id, campaign_id, recipient, variables, attempts, claim_token`,
      [newClaimToken(), lease, now.toISOString(), messageIds as number[], now.toISOString()],
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
      // Lapsed claims go back to the queue (handed ones wait for a status first), with their jobs.
      await this.deps.db.transaction(async (trx) => {
        const moved = await recoverAbandoned(trx, this.deps.store, this.deps.dispatcher.settings.unknownSettleSeconds, false);
        if (moved.requeuedIds.length > 0) await this.deps.jobs.enqueue(trx, moved.requeuedIds);
      });
      this.sweepFailures.recovered();
    } catch (error) {
      this.sweepFailures.failed(error);
    }
  }

  async stop(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.working = false;
    this.idle.interrupt();
    await Promise.all(this.workers);
    this.workers = [];
    if (this.started) await this.deps.jobs.stop();
    this.started = false;
    this.working = false;
  }
}
