/**
 * Message rows for a large campaign's staged recipients (issue 17). Acceptance writes a send of at
 * least `STAGED_MIN_RECIPIENTS` as lean rows into `campaign_recipients` (campaignAcceptance.ts,
 * `insertStaged`); this worker moves them into `messages` a chunk at a time, in the send's order,
 * each chunk in one transaction with its queue jobs (PostgreSQL) and the campaign's count of rows
 * still staged, and deletes them as it goes. A crash between chunks leaves whole chunks on one
 * side or the other; the next turn (on any instance) goes on from the first row left.
 *
 * Every instance runs one. On PostgreSQL a chunk locks its campaign's row (`for update skip
 * locked`), so two instances never take the same rows and a cancel waits for the chunk in
 * flight; on SQLite the one connection orders them. While rows are staged:
 * - the campaign is not completed (`MessageOutcomes.completeCampaigns`);
 * - its counts include them (`CampaignService`), its Duplicate Blocked keys block (acceptance);
 * - a cancel first moves all of them (`materialiseAll`), then fails and refunds them as queued.
 */
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { isPostgres } from '../db/knex';
import { PollingWorker } from '../pollingWorker';
import type { Logger } from '../logger';
import { errorOf, PG_MESSAGE_COLUMNS, STAGED_STATUS_SQL, type CampaignAcceptance } from './campaignAcceptance';

/**
 * Rows per chunk. Measured moving 1M rows (consecutive / scattered numbers): SQLite 2,000 a chunk
 * 5.8 s / 35.0 s, 10,000 5.5 s / 13.9 s, 50,000 4.1 s / 10.3 s, where its chunk holds the only
 * connection (10,000: about 55-140 ms); PostgreSQL 5,000 26.9 s / 30.4 s, 20,000 19.9 s / 21.5 s.
 */
const PG_CHUNK_ROWS = 20_000;
const SQLITE_CHUNK_ROWS = 10_000;
/** With nothing staged, look again this often for another instance's unfinished campaign (after a crash). */
const IDLE_POLL_MS = 1_000;
const LOCKED_RETRY_MS = 50;

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
  constructor(
    private readonly deps: {
      db: Knex;
      acceptance: CampaignAcceptance;
      log: Logger;
      /** After each chunk's commit: new queued rows (the embedded dispatcher looks now); when none are left, the campaign may be complete. */
      onMaterialised: (chunk: MaterialisedChunk) => Promise<void>;
      chunkRows?: number;
    },
  ) {
    super(IDLE_POLL_MS);
  }

  /** A campaign was staged: look now rather than at the next poll. */
  notify(): void {
    this.pause.interrupt();
  }

  /** Materialises until nothing is staged (tests and the bench; the worker does the same on its own). */
  async drain(): Promise<void> {
    for (;;) {
      if ((await this.materialiseNext()) !== null) continue;
      if (!(await this.lockedElsewhere())) return;
      await sleep(LOCKED_RETRY_MS);
    }
  }

  protected async run(): Promise<void> {
    while (this.running) {
      let worked = false;
      try {
        worked = (await this.materialiseNext()) !== null;
      } catch (error) {
        this.deps.log.error({ err: error }, 'materialising staged recipients failed; trying again shortly');
      }
      if (worked) {
        // Requests get their turn between chunks.
        await nextTurn();
        continue;
      }
      // Rows left whose campaign another transaction holds (another instance's chunk, a refund on
      // the campaign's row): looked at again shortly rather than at the next poll.
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

  /** One chunk of the oldest campaign with staged rows that no other instance is working on; null when there is none. */
  async materialiseNext(): Promise<MaterialisedChunk | null> {
    const { db } = this.deps;
    const chunk = await db.transaction(async (trx) => {
      let query = trx('campaigns').where('stagedRecipients', '>', 0).orderBy('id').first('id', 'userId', 'priceUnits', 'createdAt');
      if (isPostgres(db)) query = query.forUpdate().skipLocked();
      const campaign = (await query) as StagedCampaign | undefined;
      if (!campaign) return null;
      return this.materialiseChunk(trx, campaign, true);
    });
    if (chunk) await this.deps.onMaterialised(chunk);
    return chunk;
  }

  /**
   * Every staged row of one campaign, in the caller's transaction, without queue jobs: a cancel
   * fails them straight after as queued messages. The caller has locked the campaign's row.
   */
  async materialiseAll(trx: Knex.Transaction, campaignId: number): Promise<number> {
    const campaign = (await trx('campaigns').where({ id: campaignId }).where('stagedRecipients', '>', 0).first('id', 'userId', 'priceUnits', 'createdAt')) as StagedCampaign | undefined;
    if (!campaign) return 0;
    let rows = 0;
    for (;;) {
      const chunk = await this.materialiseChunk(trx, campaign, false);
      rows += chunk.rows;
      if (chunk.left === 0) return rows;
    }
  }

  private async materialiseChunk(trx: Knex.Transaction, campaign: StagedCampaign, enqueue: boolean): Promise<MaterialisedChunk> {
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
      const { rows: answer } = (await trx.raw(
        `with staged as (
           delete from campaign_recipients
            where campaign_id = ? and position < (select min(position) from campaign_recipients where campaign_id = ?) + ?
           returning position, recipient, variables, dedupe_key, status_code),
         inserted as (
           insert into messages (${PG_MESSAGE_COLUMNS})
           select ${values.replace("then ? end, ?, ?, ?", 'then ?::timestamptz end, ?, ?::timestamptz, ?::timestamptz')} from staged order by position
           returning id, status)
         select array_agg(id order by id) filter (where status = 'queued') as queued, count(*) as n from inserted`,
        [campaignId, campaignId, limit, ...bindings],
      )) as { rows: { queued: (number | string)[] | null; n: number | string }[] };
      rows = Number(answer[0]?.n ?? 0);
      if (enqueue) await this.deps.acceptance.enqueueMessages(trx, (answer[0]?.queued ?? []).map(Number));
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
    await trx('campaigns')
      .where({ id: campaignId })
      .update({ stagedRecipients: rows === 0 ? 0 : trx.raw('staged_recipients - ?', [rows]), updatedAt: nowIso });
    const after = (await trx('campaigns').where({ id: campaignId }).first('stagedRecipients')) as { stagedRecipients: number | string } | undefined;
    return { campaignId, rows, left: Number(after?.stagedRecipients ?? 0) };
  }
}
