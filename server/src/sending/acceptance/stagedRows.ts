/**
 * How the materialiser (sending/materialiser.ts) moves a large campaign's staged rows
 * (`campaign_recipients`) into `messages`, by database, chosen once in container.ts:
 * - PostgreSQL: chunks side by side, here and on other instances, each taking its rows with
 *   `for update skip locked` and its campaign's advisory lock shared (a cancel takes it exclusively);
 * - SQLite: one chunk at a time on the one connection, by position.
 * Each store's statements are named beside it.
 */
import type { Knex } from 'knex';
import type { Enqueuer } from '../dispatchJobs';
import { errorOf, OPTED_OUT_ERROR_CODE, PG_MESSAGE_COLUMNS, STAGED_STATUS_SQL } from './messageRows';

/** A campaign with rows still staged, as a chunk needs it. */
export interface StagedCampaign {
  id: number;
  userId: number;
  priceUnits: number;
  createdAt: string | Date;
}

export interface StagedRowsStore {
  /** Rows per chunk. */
  readonly chunkRows: number;
  /** Campaigns with staged rows looked at per turn for one whose chunks are free. */
  readonly candidateCampaigns: number;
  /** Chunks written at once by this instance (`wanted` where the database can). */
  chunksAtOnce(wanted: number | undefined): number;
  /** Whether rows are staged that chunks elsewhere (or a cancel) hold: looked at again shortly. */
  heldElsewhere(): Promise<boolean>;
  /** Takes the campaign's chunk lock shared for the transaction; false where a cancel holds it or waits for it. */
  shareChunks(trx: Knex.Transaction, campaignId: number): Promise<boolean>;
  /** Waits for the campaign's chunks in flight and keeps new ones from starting until `trx` ends. */
  excludeChunks(trx: Knex.Transaction, campaignId: number): Promise<void>;
  /** Moves up to `limit` rows; null where every row left is in another chunk in flight. */
  moveChunk(trx: Knex.Transaction, campaign: StagedCampaign, limit: number, jobs: Pick<Enqueuer, 'enqueue'> | null): Promise<number | null>;
}

/** Whether any campaign still has recipients waiting for their message rows (the partial index `campaigns_staged_index`). */
export async function anyCampaignStaged(db: Knex): Promise<boolean> {
  return (await db('campaigns').where('stagedRecipients', '>', 0).first('id')) !== undefined;
}

/**
 * A message row's values from a staged row, after the id: the fates as acceptance decided them
 * (queued, due since acceptance; Duplicate Blocked; opted out). Bindings: `stagedValueBindings`.
 */
const STAGED_MESSAGE_VALUES_SQL = `?, ?, recipient, ${STAGED_STATUS_SQL},
  case when status_code = 0 then ? else 0 end, variables, dedupe_key, case when status_code = 2 then ${OPTED_OUT_ERROR_CODE} end,
  case status_code when 1 then ? when 2 then ? end, 0, case when status_code = 0 then ? end, ?, ?, ?`;

function stagedValueBindings(campaign: StagedCampaign, nowIso: string): (string | number | boolean | null)[] {
  const createdIso = new Date(campaign.createdAt).toISOString();
  return [Number(campaign.id), Number(campaign.userId), Number(campaign.priceUnits), errorOf(1), errorOf(2), createdIso, false, createdIso, nowIso];
}

/**
 * Rows per chunk, chosen moving a million rows: on SQLite larger chunks are faster but hold the
 * only connection (and so every request) longer; on PostgreSQL this was the fastest tried.
 */
const PG_CHUNK_ROWS = 20_000;
const SQLITE_CHUNK_ROWS = 10_000;
/** Connections of the instance's pool a chunk never takes: requests, dispatch and the other workers keep them. */
const CONNECTIONS_LEFT_TO_OTHERS = 3;

/**
 * A campaign's advisory lock between its chunks (shared) and a cancel (exclusive): the schema's
 * hash in the high half, so deployments in other schemas of one database do not wait on each other.
 */
export const CAMPAIGN_CHUNKS_LOCK_KEY = '(hashtext(current_schema())::bigint << 32) + ?::bigint';
const SHARE_CHUNKS_SQL = `select pg_try_advisory_xact_lock_shared(${CAMPAIGN_CHUNKS_LOCK_KEY}) as taken`;
const EXCLUDE_CHUNKS_SQL = `select pg_advisory_xact_lock(${CAMPAIGN_CHUNKS_LOCK_KEY})`;

/**
 * The first rows no other chunk holds, in the file's order, with the ids they were staged with,
 * moved into `messages`, answering the queued ids and the count. Deleted by their row addresses: by
 * position, a plan made while the table was small read every row of the campaign against the list.
 */
const PG_MOVE_CHUNK_SQL = `with staged as (
    delete from campaign_recipients
     where ctid = any(array(
       select ctid from campaign_recipients where campaign_id = ? order by position limit ? for update skip locked))
    returning message_id, position, recipient, variables, dedupe_key, status_code),
  inserted as (
    insert into messages (id, ${PG_MESSAGE_COLUMNS})
    select message_id, ${STAGED_MESSAGE_VALUES_SQL.replace('then ? end, ?, ?, ?', 'then ?::timestamptz end, ?, ?::timestamptz, ?::timestamptz')} from staged order by position
    returning id, status)
  select array_agg(id order by id) filter (where status = 'queued') as queued, count(*) as n from inserted`;

/** Whether the campaign has staged rows left (seen even while another chunk's delete is uncommitted). */
const PG_ANY_LEFT_SQL = 'select exists (select 1 from campaign_recipients where campaign_id = ?) as "any"';

/**
 * Chunks at once on PostgreSQL: as many as asked, but each holds a connection for its whole
 * transaction (about a second), so a small pool keeps `CONNECTIONS_LEFT_TO_OTHERS` free.
 */
export function chunksAtOnceFor(wanted: number, poolMax: number | undefined): number {
  const room = poolMax === undefined ? wanted : poolMax - CONNECTIONS_LEFT_TO_OTHERS;
  return Math.max(1, Math.min(wanted, room));
}

/**
 * Chunks one PostgreSQL instance writes at once. Its backend spends nearly all of a chunk inserting
 * into the indexes of `messages`, on one core: two at a time took little more than half the time
 * of one at a time on 2 cores.
 */
const PG_CHUNKS_AT_ONCE = 2;
/** Campaigns with staged rows looked at per turn for one whose advisory lock is free. */
const PG_CANDIDATE_CAMPAIGNS = 8;

export class PostgresStagedRows implements StagedRowsStore {
  readonly chunkRows = PG_CHUNK_ROWS;
  readonly candidateCampaigns = PG_CANDIDATE_CAMPAIGNS;

  constructor(private readonly db: Knex) {}

  chunksAtOnce(wanted: number | undefined): number {
    const poolMax = (this.db.client as { config?: { pool?: { max?: number } } }).config?.pool?.max;
    return chunksAtOnceFor(wanted ?? PG_CHUNKS_AT_ONCE, poolMax);
  }

  async heldElsewhere(): Promise<boolean> {
    try {
      return await anyCampaignStaged(this.db);
    } catch {
      return false;
    }
  }

  async shareChunks(trx: Knex.Transaction, campaignId: number): Promise<boolean> {
    const { rows } = (await trx.raw(SHARE_CHUNKS_SQL, [campaignId])) as { rows: { taken: boolean }[] };
    return rows[0]?.taken === true;
  }

  async excludeChunks(trx: Knex.Transaction, campaignId: number): Promise<void> {
    await trx.raw(EXCLUDE_CHUNKS_SQL, [campaignId]);
  }

  async moveChunk(trx: Knex.Transaction, campaign: StagedCampaign, limit: number, jobs: Pick<Enqueuer, 'enqueue'> | null): Promise<number | null> {
    const campaignId = Number(campaign.id);
    const { rows: answer } = (await trx.raw(PG_MOVE_CHUNK_SQL, [campaignId, limit, ...stagedValueBindings(campaign, new Date().toISOString())])) as { rows: { queued: (number | string)[] | null; n: number | string }[] };
    const rows = Number(answer[0]?.n ?? 0);
    if (rows === 0) {
      // Every row left is in another chunk still in flight (its delete is not committed, so the
      // rows are still seen): that chunk brings the count down.
      const { rows: left } = (await trx.raw(PG_ANY_LEFT_SQL, [campaignId])) as { rows: { any: boolean }[] };
      if (left[0]?.any) return null;
    }
    if (jobs) await jobs.enqueue(trx, (answer[0]?.queued ?? []).map(Number));
    return rows;
  }
}

const SQLITE_FIRST_POSITION_SQL = 'select min(position) as first from campaign_recipients where campaign_id = ?';
const SQLITE_COPY_CHUNK_SQL = `insert into messages (${PG_MESSAGE_COLUMNS})
  select ${STAGED_MESSAGE_VALUES_SQL} from campaign_recipients where campaign_id = ? and position >= ? and position < ? order by position`;
const SQLITE_DELETE_CHUNK_SQL = 'delete from campaign_recipients where campaign_id = ? and position >= ? and position < ?';
const SQLITE_CHANGES_SQL = 'select changes() as n';

/** SQLite: its one connection orders the chunks, so there are no locks and no other holders. */
export class SqliteStagedRows implements StagedRowsStore {
  readonly chunkRows = SQLITE_CHUNK_ROWS;
  readonly candidateCampaigns = 1;

  chunksAtOnce(): number {
    return 1;
  }

  async heldElsewhere(): Promise<boolean> {
    return false;
  }

  async shareChunks(): Promise<boolean> {
    return true;
  }

  async excludeChunks(): Promise<void> {}

  async moveChunk(trx: Knex.Transaction, campaign: StagedCampaign, limit: number): Promise<number> {
    const campaignId = Number(campaign.id);
    const [first] = (await trx.raw(SQLITE_FIRST_POSITION_SQL, [campaignId])) as { first: number | null }[];
    const from = first?.first ?? 0;
    const bindings = stagedValueBindings(campaign, new Date().toISOString()).map((value) => (typeof value === 'boolean' ? Number(value) : value));
    await trx.raw(SQLITE_COPY_CHUNK_SQL, [...bindings, campaignId, from, from + limit]);
    await trx.raw(SQLITE_DELETE_CHUNK_SQL, [campaignId, from, from + limit]);
    const [deleted] = (await trx.raw(SQLITE_CHANGES_SQL)) as { n: number }[];
    return Number(deleted?.n ?? 0);
  }
}
