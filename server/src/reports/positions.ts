/**
 * Totals and page positions over millions of rows.
 *
 * The API pages by number (`page`, `limit`), and the screen says "Page x of y", so it needs an
 * exact total and page n must not cost n pages. The rules:
 *
 * - Small results (at most EXACT_COUNT_MAX rows) are counted exactly on every request, with a
 *   count that stops at EXACT_COUNT_MAX + 1, and their pages are read with OFFSET from the top,
 *   which skips at most that many index entries.
 * - Without filters, or with only the template and sender filters, the total is the sum of the campaigns'
 *   recipient counts (one row per campaign, read from an index), not a count of messages.
 * - Large results get a position snapshot: a walk over the index, oldest first, in index skips
 *   of LANDMARK_SPACING rows, that notes the row at every LANDMARK_SPACING-th position and the
 *   newest row (the head) with its position. Positions are counted from the oldest row because
 *   new messages only arrive on top: a landmark keeps its position however many arrive, so the
 *   snapshot stays true. Each request counts the matching rows that arrived since (a short
 *   index range above the newest message of the user at the time) to get the exact total, and
 *   once that count passes EXTEND_AFTER the snapshot is extended over the new rows only. Page n
 *   then starts from the nearest landmark at or above it: a keyset read that skips fewer than
 *   LANDMARK_SPACING entries, whatever n is (LANDMARK_SPACING_TABLE_FILTER where the filter needs
 *   the table, so the skip stays as short in time).
 * - Statuses change as messages are delivered and read, so a snapshot of a status filter (whose
 *   membership changes) is rebuilt after STATUS_SNAPSHOT_TTL_MS; other snapshots after
 *   SNAPSHOT_TTL_MS, which bounds the drift from a send that committed with an older created_at
 *   than the head (two instances accepting at the same moment).
 * Snapshots live in this process (an LRU of SNAPSHOT_CACHE_SIZE): another instance builds its own.
 */
import { EXACT_COUNT_MAX, type ReportQueryPlan } from './plan';
import { cursorColumn, cursorParams, filterSql, messagesFrom, type Cursor, type ReportDb, type Sql } from './sql';

export const LANDMARK_SPACING = 2_000;
/** Closer landmarks where a page must read the table to filter (a common recipient prefix). */
export const LANDMARK_SPACING_TABLE_FILTER = 500;
export const EXTEND_AFTER = 5_000;
export const STATUS_SNAPSHOT_TTL_MS = 60_000;
export const SNAPSHOT_TTL_MS = 30 * 60_000;
export const SNAPSHOT_CACHE_SIZE = 200;

interface Snapshot {
  spacing: number;
  /** landmarks[i]: the row at position (i + 1) x spacing, counted from the oldest (1). */
  landmarks: Cursor[];
  head: Cursor;
  /**
   * The user's newest message when the snapshot was taken (or the head, if newer): the rows
   * between the head and here did not match, and new rows arrive above it, so the count of new
   * rows starts here rather than re-reading the gap on every request.
   */
  scannedTo: Cursor;
  /** Position of the head: the rows up to and including it. */
  count: number;
  builtAt: number;
}

/** A snapshot brought up to date: `newer` rows have arrived above its head. */
interface CurrentSnapshot {
  snapshot: Snapshot;
  newer: number;
}

type KeyRow = [string, number | string];

/** Cursor texts are fixed-width UTC (see cursorColumn), so they compare as strings. */
function isAbove(a: Cursor, b: Cursor): boolean {
  return a.at > b.at || (a.at === b.at && a.id > b.id);
}

export class ReportPositions {
  private readonly snapshots = new Map<string, Snapshot>();
  private readonly building = new Map<string, Promise<Snapshot | null>>();

  constructor(
    private readonly rdb: ReportDb,
    private readonly now: () => number = Date.now,
  ) {}

  /** The exact number of rows the plan's filter matches (with the snapshot, when one was needed). */
  async total(plan: ReportQueryPlan): Promise<{ total: number; current: CurrentSnapshot | null }> {
    if (plan.campaignTotal !== null) return { total: plan.campaignTotal, current: null };
    const cached = this.fresh(plan);
    if (cached) {
      const current = await this.bringUpToDate(plan, cached);
      if (current) return { total: current.snapshot.count + current.newer, current };
    }
    const capped = await this.cappedCount(plan, EXACT_COUNT_MAX + 1);
    if (capped <= EXACT_COUNT_MAX) return { total: capped, current: null };
    const current = await this.snapshotFor(plan);
    return { total: current ? current.snapshot.count + current.newer : capped, current };
  }

  /** Keys of the rows at positions offset+1 .. offset+limit from the top (newest first). */
  async pageKeys(plan: ReportQueryPlan, offset: number, limit: number, known: CurrentSnapshot | null): Promise<Cursor[]> {
    if (offset <= EXACT_COUNT_MAX) return this.keysFromTop(plan, offset, limit);
    const current = known ?? (await this.snapshotFor(plan));
    if (!current) return this.keysFromTop(plan, offset, limit);
    const { snapshot, newer } = current;
    const total = snapshot.count + newer;
    // Position (from the oldest) of the first row of the page.
    const first = total - offset;
    if (first < 1) return [];
    if (first > snapshot.count) return this.keysFromTop(plan, offset, limit);
    const landmarkIndex = Math.ceil(first / snapshot.spacing) - 1;
    const landmark = snapshot.landmarks[landmarkIndex];
    const anchor = landmark ?? snapshot.head;
    const anchorPosition = landmark ? (landmarkIndex + 1) * snapshot.spacing : snapshot.count;
    return this.keysFrom(plan, anchor, anchorPosition - first, limit);
  }

  /** Forgets what is known about a filter (its rows turned out not to be where the snapshot said). */
  forget(plan: ReportQueryPlan): void {
    this.snapshots.delete(plan.key);
  }

  private fresh(plan: ReportQueryPlan): Snapshot | null {
    const snapshot = this.snapshots.get(plan.key);
    if (!snapshot) return null;
    const ttl = plan.filter.status ? STATUS_SNAPSHOT_TTL_MS : SNAPSHOT_TTL_MS;
    if (this.now() - snapshot.builtAt > ttl) {
      this.snapshots.delete(plan.key);
      return null;
    }
    // Most recently used last: the Map's insertion order is the LRU order.
    this.snapshots.delete(plan.key);
    this.snapshots.set(plan.key, snapshot);
    return snapshot;
  }

  private async snapshotFor(plan: ReportQueryPlan): Promise<CurrentSnapshot | null> {
    const cached = this.fresh(plan);
    if (cached) return this.bringUpToDate(plan, cached);
    let pending = this.building.get(plan.key);
    if (!pending) {
      pending = this.build(plan, null).finally(() => this.building.delete(plan.key));
      this.building.set(plan.key, pending);
    }
    const snapshot = await pending;
    if (!snapshot) return null;
    this.remember(plan.key, snapshot);
    return { snapshot, newer: 0 };
  }

  private remember(key: string, snapshot: Snapshot): void {
    this.snapshots.delete(key);
    this.snapshots.set(key, snapshot);
    while (this.snapshots.size > SNAPSHOT_CACHE_SIZE) {
      const oldest = this.snapshots.keys().next().value;
      if (oldest === undefined) break;
      this.snapshots.delete(oldest);
    }
  }

  /** Counts the rows above the head; extends the snapshot over them once there are many. */
  private async bringUpToDate(plan: ReportQueryPlan, snapshot: Snapshot): Promise<CurrentSnapshot | null> {
    const newer = await this.countAbove(plan, snapshot.scannedTo, EXTEND_AFTER + 1);
    if (newer <= EXTEND_AFTER) return { snapshot, newer };
    const extended = await this.build(plan, snapshot);
    if (!extended) return null;
    this.remember(plan.key, extended);
    return { snapshot: extended, newer: 0 };
  }

  /**
   * Walks the index oldest first, LANDMARK_SPACING rows per step (each step an index skip from
   * the previous landmark), from the start or from an earlier snapshot's head; then counts the
   * few rows left above the last landmark, the newest of which is the head.
   */
  private async build(plan: ReportQueryPlan, from: Snapshot | null): Promise<Snapshot | null> {
    const spacing = from?.spacing ?? (plan.filter.recipientContains && plan.access === 'ordered' ? LANDMARK_SPACING_TABLE_FILTER : LANDMARK_SPACING);
    const newest = await this.newestOfUser(plan.filter.userId);
    const landmarks = from ? [...from.landmarks] : [];
    // The row at position `count`, or null before the first row.
    let last: Cursor | null = from?.head ?? null;
    let count = from?.count ?? 0;
    if (this.rdb.dialect === 'pg') {
      const walked = await this.walkPg(plan, last, (Math.floor(count / spacing) + 1) * spacing - count - 1, spacing);
      if (walked.length > 0) {
        landmarks.push(...walked);
        last = walked[walked.length - 1] as Cursor;
        count = (Math.floor(count / spacing) + walked.length) * spacing;
      }
    } else {
      for (;;) {
        const next = (Math.floor(count / spacing) + 1) * spacing;
        const row = await this.rowAfter(plan, last, next - count - 1);
        if (!row) break;
        landmarks.push(row);
        last = row;
        count = next;
      }
    }
    const rest = last ? await this.countAbove(plan, last, spacing) : await this.cappedCount(plan, spacing);
    const head = rest > 0 ? await this.rowAfter(plan, last, rest - 1) : last;
    if (!head) return null;
    const scannedTo = newest && isAbove(newest, head) ? newest : head;
    return { spacing, landmarks, head, scannedTo, count: head === last ? count : count + rest, builtAt: from?.builtAt ?? this.now() };
  }

  /**
   * PostgreSQL walks the landmarks itself: a recursive query whose every step is the same index
   * skip as rowAfter, in one round trip instead of one per landmark.
   */
  private async walkPg(plan: ReportQueryPlan, after: Cursor | null, firstSkip: number, spacing: number): Promise<Cursor[]> {
    const start = after ? this.whereBeyond(plan, 'above') : filterSql(plan.filter, plan.access, 'pg');
    const step = this.whereBeyond(plan, 'above');
    const rows = await this.rdb.arrays<KeyRow>(
      `with recursive walk(at, id) as (
         (select m.created_at, m.id from messages m where ${start.sql}${after ? ` and (m.created_at, m.id) > ${cursorParams('pg')}` : ''}
           order by m.created_at, m.id limit 1 offset ?)
         union all
         (select x.created_at, x.id from walk, lateral (
            select m.created_at, m.id from messages m where ${step.sql} and (m.created_at, m.id) > (walk.at, walk.id)
             order by m.created_at, m.id limit 1 offset ?) x)
       )
       select ${cursorColumn('pg', 'at')}, id from walk`,
      [...start.params, ...(after ? [after.at, after.id] : []), firstSkip, ...step.params, spacing - 1],
    );
    return rows.map(([at, id]) => ({ at, id: Number(id) }));
  }

  private async newestOfUser(userId: number): Promise<Cursor | null> {
    const [row] = await this.rdb.arrays<KeyRow>(`select ${cursorColumn(this.rdb.dialect)}, m.id from messages m where m.user_id = ? order by m.created_at desc, m.id desc limit 1`, [userId]);
    return row ? { at: row[0], id: Number(row[1]) } : null;
  }

  /** The row `skip` rows after `after` (oldest first), or the (skip + 1)-th row when `after` is null. */
  private async rowAfter(plan: ReportQueryPlan, after: Cursor | null, skip: number): Promise<Cursor | null> {
    const { dialect } = this.rdb;
    const where = after ? this.whereBeyond(plan, 'above') : filterSql(plan.filter, plan.access, dialect);
    const from = messagesFrom(plan.access, dialect);
    const one = async (condition: string, params: unknown[], offset: number) => {
      const [row] = await this.rdb.arrays<KeyRow>(
        `select ${cursorColumn(dialect)} as at, m.id from ${from} where ${where.sql}${condition} order by m.created_at, m.id limit 1 offset ?`,
        [...where.params, ...params, offset],
      );
      return row ? { at: row[0], id: Number(row[1]) } : null;
    };
    if (!after) return one('', [], skip);
    if (dialect === 'pg') return one(` and (m.created_at, m.id) > ${cursorParams(dialect)}`, [after.at, after.id], skip);
    // SQLite: first the rows sharing `after`'s created_at (see aboveSql), then the later ones.
    const [tie] = await this.rdb.arrays<[number]>(`select count(*) from (select 1 from ${from} where ${where.sql} and m.created_at = ? and m.id > ? limit ?) tie`, [
      ...where.params,
      after.at,
      after.id,
      skip + 1,
    ]);
    const sameTime = Number(tie?.[0] ?? 0);
    if (sameTime > skip) return one(' and m.created_at = ? and m.id > ?', [after.at, after.id], skip);
    return one(' and m.created_at > ?', [after.at], skip - sameTime);
  }

  /**
   * The filter for rows on one side of a cursor that matches it, without the date bound on that
   * side: the cursor already implies it, and SQLite, given two lower (or upper) bounds on
   * created_at, ranges over the index by one of them and may pick the wide one, stepping through
   * the whole date range instead of starting at the cursor.
   */
  private whereBeyond(plan: ReportQueryPlan, side: 'above' | 'below'): Sql {
    const filter = side === 'above' ? { ...plan.filter, createdFrom: null } : { ...plan.filter, createdBefore: null };
    return filterSql(filter, plan.access, this.rdb.dialect);
  }

  /**
   * Rows strictly above a cursor, as (at, id). SQLite reads a row comparison as a range on
   * created_at alone and would step through every row sharing the cursor's created_at (a whole
   * campaign); two ranges joined by UNION ALL keep both exact.
   */
  private aboveSql(plan: ReportQueryPlan, cursor: Cursor, where: Sql): Sql {
    const { dialect } = this.rdb;
    const from = messagesFrom(plan.access, dialect);
    const columns = `${cursorColumn(dialect)} as at, m.id as id`;
    if (dialect === 'pg') {
      return { sql: `select ${columns} from ${from} where ${where.sql} and (m.created_at, m.id) > ${cursorParams(dialect)}`, params: [...where.params, cursor.at, cursor.id] };
    }
    return {
      sql: `select ${columns} from ${from} where ${where.sql} and m.created_at = ? and m.id > ?
            union all select ${columns} from ${from} where ${where.sql} and m.created_at > ?`,
      params: [...where.params, cursor.at, cursor.id, ...where.params, cursor.at],
    };
  }

  private async countAbove(plan: ReportQueryPlan, cursor: Cursor, cap: number): Promise<number> {
    const above = this.aboveSql(plan, cursor, this.whereBeyond(plan, 'above'));
    const [row] = await this.rdb.arrays<[number | string]>(`select count(*) from (${above.sql} limit ?) above`, [...above.params, cap]);
    return Number(row?.[0] ?? 0);
  }

  async cappedCount(plan: ReportQueryPlan, cap: number): Promise<number> {
    const { dialect } = this.rdb;
    const where = filterSql(plan.filter, plan.access, dialect);
    const [row] = await this.rdb.arrays<[number | string]>(`select count(*) from (select 1 from ${messagesFrom(plan.access, dialect)} where ${where.sql} limit ?) capped`, [...where.params, cap]);
    return Number(row?.[0] ?? 0);
  }

  private async keysFromTop(plan: ReportQueryPlan, offset: number, limit: number): Promise<Cursor[]> {
    const { dialect } = this.rdb;
    const where = filterSql(plan.filter, plan.access, dialect);
    const rows = await this.rdb.arrays<KeyRow>(
      `select ${cursorColumn(dialect)} as at, m.id from ${messagesFrom(plan.access, dialect)} where ${where.sql} order by m.created_at desc, m.id desc limit ? offset ?`,
      [...where.params, limit, offset],
    );
    return rows.map(([at, id]) => ({ at, id: Number(id) }));
  }

  /** Keys from an anchor row (included) downwards, skipping `skip` of them. */
  private async keysFrom(plan: ReportQueryPlan, anchor: Cursor, skip: number, limit: number): Promise<Cursor[]> {
    const { dialect } = this.rdb;
    const where = this.whereBeyond(plan, 'below');
    const from = messagesFrom(plan.access, dialect);
    if (dialect === 'pg') {
      const rows = await this.rdb.arrays<KeyRow>(
        `select ${cursorColumn(dialect)} as at, m.id from ${from} where ${where.sql} and (m.created_at, m.id) <= ${cursorParams(dialect)}
         order by m.created_at desc, m.id desc limit ? offset ?`,
        [...where.params, anchor.at, anchor.id, limit, skip],
      );
      return rows.map(([at, id]) => ({ at, id: Number(id) }));
    }
    // See aboveSql: the rows sharing the anchor's created_at, then the older ones, each in order.
    const wanted = skip + limit;
    const rows = await this.rdb.arrays<KeyRow>(
      `select at, id from (
         select * from (select m.created_at as at, m.id as id from ${from} where ${where.sql} and m.created_at = ? and m.id <= ? order by m.created_at desc, m.id desc limit ?)
         union all
         select * from (select m.created_at as at, m.id as id from ${from} where ${where.sql} and m.created_at < ? order by m.created_at desc, m.id desc limit ?)
       ) order by at desc, id desc limit ? offset ?`,
      [...where.params, anchor.at, anchor.id, wanted, ...where.params, anchor.at, wanted, limit, skip],
    );
    return rows.map(([at, id]) => ({ at, id: Number(id) }));
  }
}
