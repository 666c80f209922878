/**
 * Message rows for a large campaign's staged recipients. Acceptance writes a send of at
 * least `STAGED_MIN_RECIPIENTS` as lean rows into `campaign_recipients` (campaignAcceptance.ts,
 * `insertStaged`); this worker moves them into `messages` a chunk at a time, in the send's order,
 * each chunk in one transaction with its queue jobs (PostgreSQL) and the campaign's count of rows
 * still staged, and deletes them as it goes. A crash between chunks leaves whole chunks on one
 * side or the other; the next turn (on any instance) goes on from the rows left.
 *
 * Every instance runs one. On PostgreSQL it writes `PG_CHUNKS_AT_ONCE` chunks side by side, and
 * so may other instances: each chunk takes its rows with `for update skip locked`, so no two take
 * the same rows, and the ids they get were taken in the file's order when the rows were staged
 * (migration 20261207100100), so the reports' order does not depend on which chunk commits first.
 * A chunk holds its campaign's advisory lock shared; a cancel takes it exclusively
 * (`excludeChunks`), so it waits for the chunks in flight and no new one starts. On SQLite the one
 * connection orders the chunks. While rows are staged:
 * - the campaign is not completed (`MessageOutcomes.completeCampaigns`);
 * - its counts include them (`CampaignService`), its Duplicate Blocked keys block (acceptance);
 * - a cancel first moves all of them (`materialiseAll`), then fails and refunds them as queued.
 */
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { isPostgres } from '../db/knex';
import { PollingWorker } from '../pollingWorker';
import type { Logger } from '../logger';
import { OutageLog } from '../db/outage';
import { errorOf, PG_MESSAGE_COLUMNS, STAGED_STATUS_SQL } from './acceptance/messageRows';
import type { Enqueuer } from './dispatchJobs';

/**
 * Rows per chunk. Measured moving 1M rows (consecutive / scattered numbers): SQLite 2,000 a chunk
 * 5.8 s / 35.0 s, 10,000 5.5 s / 13.9 s, 50,000 4.1 s / 10.3 s, where its chunk holds the only
 * connection (10,000: about 55-140 ms); PostgreSQL 5,000 26.9 s / 30.4 s, 20,000 19.9 s / 21.5 s.
 */
const PG_CHUNK_ROWS = 20_000;
const SQLITE_CHUNK_ROWS = 10_000;
/**
 * Chunks one PostgreSQL instance writes at once. Its backend spends nearly all of a chunk inserting
 * into the eight indexes of `messages`, on one core: 1M rows in chunks of 20,000 took 35.1 s one
 * chunk at a time and 20.4 s two at a time, on 2 cores (psql, the same statements).
 */
const PG_CHUNKS_AT_ONCE = 2;
/** Connections of the instance's pool a chunk never takes: requests, dispatch and the other workers keep them. */
const CONNECTIONS_LEFT_TO_OTHERS = 3;
/** Campaigns with staged rows looked at per turn for one whose advisory lock is free. */
const CANDIDATE_CAMPAIGNS = 8;
/**
 * A campaign's advisory lock between its chunks (shared) and a cancel (exclusive): the schema's
 * hash in the high half, so deployments in other schemas of one database do not wait on each other.
 */
export const CAMPAIGN_CHUNKS_LOCK_KEY = '(hashtext(current_schema())::bigint << 32) + ?::bigint';
/** With nothing staged, look again this often for another instance's unfinished campaign (after a crash). */
const IDLE_POLL_MS = 1_000;
const LOCKED_RETRY_MS = 50;

/**
 * Chunks at once on PostgreSQL: as many as asked, but each holds a connection for its whole
 * transaction (about a second), so a small pool keeps `CONNECTIONS_LEFT_TO_OTHERS` free.
 */
export function chunksAtOnceFor(wanted: number, poolMax: number | undefined): number {
  const room = poolMax === undefined ? wanted : poolMax - CONNECTIONS_LEFT_TO_OTHERS;
  return Math.max(1, Math.min(wanted, room));
}

interface StagedCampaign {
  id: number;
  userId: number;
  priceUnits: number;
  createdAt: string | Date;
}

export interface MaterialisedChunk {
  campaignId: number;
  rows: number;
  /** Rows of the campaign still staged after this chunk. */
  left: number;
}

/** Whether any campaign still has recipients waiting for their message rows (the partial index `campaigns_staged_index`). */
export async function anyCampaignStaged(db: Knex): Promise<boolean> {
  return (await db('campaigns').where('stagedRecipients', '>', 0).first('id')) !== undefined;
}

export class Materialiser extends PollingWorker {
  private readonly failures: OutageLog;

  constructor(
    private readonly deps: {
      db: Knex;
      /** The queue's jobs for the queued rows of each chunk, in its transaction (none where the dispatcher polls the table). */
      jobs: Pick<Enqueuer, 'enqueue'>;
      log: Logger;
      /** After each chunk's commit: new queued rows (the embedded dispatcher looks now); when none are left, the campaign may be complete. */
      onMaterialised: (chunk: MaterialisedChunk) => Promise<void>;
      chunkRows?: number;
      /** Chunks written at once on PostgreSQL (`PG_CHUNKS_AT_ONCE`); SQLite writes one. */
      chunksAtOnce?: number;
    },
  ) {
    super(IDLE_POLL_MS);
    this.failures = new OutageLog(deps.log, 'materialising staged recipients');
  }

  /** A campaign was staged: look now rather than at the next poll. */
  notify(): void {
    this.pause.interrupt();
  }

  /** Materialises until nothing is staged (tests and the bench; the worker does the same on its own). */
  async drain(): Promise<void> {
    await Promise.all(Array.from({ length: this.chunksAtOnce() }, () => this.drainOneAtATime()));
  }

  private async drainOneAtATime(): Promise<void> {
    for (;;) {
      if ((await this.materialiseNext()) !== null) continue;
      if (!(await this.lockedElsewhere())) return;
      await sleep(LOCKED_RETRY_MS);
    }
  }

  protected async run(): Promise<void> {
    await Promise.all(Array.from({ length: this.chunksAtOnce() }, () => this.materialiseWhileRunning()));
  }

  private chunksAtOnce(): number {
    if (!isPostgres(this.deps.db)) return 1;
    const poolMax = (this.deps.db.client as { config?: { pool?: { max?: number } } }).config?.pool?.max;
    return chunksAtOnceFor(this.deps.chunksAtOnce ?? PG_CHUNKS_AT_ONCE, poolMax);
  }

  private async materialiseWhileRunning(): Promise<void> {
    while (this.running) {
      let worked = false;
      try {
        worked = (await this.materialiseNext()) !== null;
        this.failures.recovered();
      } catch (error) {
        await this.pause.wait(Math.max(this.pause.ms, this.failures.failed(error)));
        continue;
      }
      if (worked) {
        // Requests get their turn between chunks.
        await nextTurn();
        continue;
      }
      // Rows left that other chunks hold (this instance's other loop, another instance), or whose
      // campaign a cancel holds: looked at again shortly rather than at the next poll.
      if (await this.lockedElsewhere()) {
        await sleep(LOCKED_RETRY_MS, undefined, { ref: false });
        continue;
      }
      await this.pause.wait();
    }
  }

  private async lockedElsewhere(): Promise<boolean> {
    if (!isPostgres(this.deps.db)) return false;
    try {
      return await anyCampaignStaged(this.deps.db);
    } catch {
      return false;
    }
  }

  /** One chunk of the oldest campaign with staged rows that are not taken already; null when there is none. */
  async materialiseNext(): Promise<MaterialisedChunk | null> {
    const { db } = this.deps;
    const chunk = await db.transaction(async (trx) => {
      for (const campaign of await this.stagedCampaigns(trx)) {
        if (!(await this.shareChunks(trx, Number(campaign.id)))) continue;
        // Null where every row left is in other chunks in flight: the next campaign's turn.
        const written = await this.materialiseChunk(trx, campaign, true);
        if (written) return written;
      }
      return null;
    });
    if (chunk) await this.deps.onMaterialised(chunk);
    return chunk;
  }

  /** The oldest campaigns with staged rows: one on SQLite, whose one connection takes them in turn. */
  private async stagedCampaigns(trx: Knex.Transaction): Promise<StagedCampaign[]> {
    return (await trx('campaigns')
      .where('stagedRecipients', '>', 0)
      .orderBy('id')
      .limit(isPostgres(trx) ? CANDIDATE_CAMPAIGNS : 1)
      .select('id', 'userId', 'priceUnits', 'createdAt')) as StagedCampaign[];
  }

  /** Takes the campaign's chunk lock shared for the transaction (PostgreSQL); false where a cancel holds it or waits for it. */
  private async shareChunks(trx: Knex.Transaction, campaignId: number): Promise<boolean> {
    if (!isPostgres(trx)) return true;
    const { rows } = (await trx.raw(`select pg_try_advisory_xact_lock_shared(${CAMPAIGN_CHUNKS_LOCK_KEY}) as taken`, [campaignId])) as { rows: { taken: boolean }[] };
    return rows[0]?.taken === true;
  }

  /**
   * Waits for the chunks of the campaign in flight and keeps new ones from starting until the
   * caller's transaction ends (a cancel, before it changes the campaign's row: a chunk changes that
   * row last, so taking the row first would leave each waiting for the other). PostgreSQL's lock
   * queue lets no new shared holder in past a waiting exclusive one, so a campaign whose chunks
   * follow each other without a gap is not held up until its last.
   */
  async excludeChunks(trx: Knex.Transaction, campaignId: number): Promise<void> {
    if (isPostgres(trx)) await trx.raw(`select pg_advisory_xact_lock(${CAMPAIGN_CHUNKS_LOCK_KEY})`, [campaignId]);
  }

  /**
   * Every staged row of one campaign, in the caller's transaction, without queue jobs: a cancel
   * fails them straight after as queued messages. The caller has excluded the chunks
   * (`excludeChunks`), so every row is free.
   */
  async materialiseAll(trx: Knex.Transaction, campaignId: number): Promise<number> {
    const campaign = (await trx('campaigns').where({ id: campaignId }).where('stagedRecipients', '>', 0).first('id', 'userId', 'priceUnits', 'createdAt')) as StagedCampaign | undefined;
    if (!campaign) return 0;
    let rows = 0;
    for (;;) {
      const chunk = await this.materialiseChunk(trx, campaign, false);
      if (!chunk) throw new Error(`staged recipients of campaign ${campaignId} are held by a chunk the caller did not exclude`);
      rows += chunk.rows;
      if (chunk.left === 0) return rows;
    }
  }

  /** One chunk of the campaign's staged rows; null where every row left is in another chunk in flight (PostgreSQL). */
  private async materialiseChunk(trx: Knex.Transaction, campaign: StagedCampaign, enqueue: boolean): Promise<MaterialisedChunk | null> {
    const campaignId = Number(campaign.id);
    const createdIso = new Date(campaign.createdAt).toISOString();
    const nowIso = new Date().toISOString();
    const limit = this.deps.chunkRows ?? (isPostgres(this.deps.db) ? PG_CHUNK_ROWS : SQLITE_CHUNK_ROWS);
    // The rows' fates as acceptance decided them: queued (due since acceptance), Duplicate Blocked, opted out.
    const values = `?, ?, recipient, ${STAGED_STATUS_SQL},
      case when status_code = 0 then ? else 0 end, variables, dedupe_key, case when status_code = 2 then 131050 end,
      case status_code when 1 then ? when 2 then ? end, 0, case when status_code = 0 then ? end, ?, ?, ?`;
    const bindings = [campaignId, Number(campaign.userId), Number(campaign.priceUnits), errorOf(1), errorOf(2), createdIso, false, createdIso, nowIso];
    let rows: number;
    if (isPostgres(this.deps.db)) {
      // The first rows no other chunk holds, in the file's order, with the ids they were staged
      // with. Deleted by their row addresses: by position, a plan made while the table was small
      // read every row of the campaign against the list (54 s a chunk of a million).
      const { rows: answer } = (await trx.raw(
        `with staged as (
           delete from campaign_recipients
            where ctid = any(array(
              select ctid from campaign_recipients where campaign_id = ? order by position limit ? for update skip locked))
           returning message_id, position, recipient, variables, dedupe_key, status_code),
         inserted as (
           insert into messages (id, ${PG_MESSAGE_COLUMNS})
           select message_id, ${values.replace("then ? end, ?, ?, ?", 'then ?::timestamptz end, ?, ?::timestamptz, ?::timestamptz')} from staged order by position
           returning id, status)
         select array_agg(id order by id) filter (where status = 'queued') as queued, count(*) as n from inserted`,
        [campaignId, limit, ...bindings],
      )) as { rows: { queued: (number | string)[] | null; n: number | string }[] };
      rows = Number(answer[0]?.n ?? 0);
      if (rows === 0) {
        // Every row left is in another chunk still in flight (its delete is not committed, so the
        // rows are still seen): that chunk brings the count down.
        const { rows: left } = (await trx.raw('select exists (select 1 from campaign_recipients where campaign_id = ?) as "any"', [campaignId])) as { rows: { any: boolean }[] };
        if (left[0]?.any) return null;
      }
      if (enqueue) await this.deps.jobs.enqueue(trx, (answer[0]?.queued ?? []).map(Number));
    } else {
      const [first] = (await trx.raw('select min(position) as first from campaign_recipients where campaign_id = ?', [campaignId])) as { first: number | null }[];
      const from = first?.first ?? 0;
      await trx.raw(
        `insert into messages (${PG_MESSAGE_COLUMNS})
         select ${values} from campaign_recipients where campaign_id = ? and position >= ? and position < ? order by position`,
        [...bindings.map((value) => (typeof value === 'boolean' ? Number(value) : value)), campaignId, from, from + limit],
      );
      await trx.raw('delete from campaign_recipients where campaign_id = ? and position >= ? and position < ?', [campaignId, from, from + limit]);
      const [deleted] = (await trx.raw('select changes() as n')) as { n: number }[];
      rows = Number(deleted?.n ?? 0);
    }
    // A count that found no rows left (it cannot, but a loop must not spin on it) ends the staging.
    // Chunks side by side change the row one after the other: the second waits for the first's commit.
    await trx('campaigns')
      .where({ id: campaignId })
      .update({ stagedRecipients: rows === 0 ? 0 : trx.raw('staged_recipients - ?', [rows]), updatedAt: nowIso });
    const after = (await trx('campaigns').where({ id: campaignId }).first('stagedRecipients')) as { stagedRecipients: number | string } | undefined;
    return { campaignId, rows, left: Number(after?.stagedRecipients ?? 0) };
  }
}
