/**
 * How one reports filter is read: which index, and whether the campaigns' own counters give the
 * total. Decided per request from two cheap look-ups (campaign rows and a capped index count),
 * because SQLite has no statistics to choose by and both databases misjudge a template filter
 * that goes through campaigns.
 */
import { INDEXED_DIGITS_MIN, PENDING_NUMBERS_SQL, SQLITE_NUMBERS_SQL } from './recipientNumbers';
import { campaignConditions, containsPattern, filterSql, messagesFrom, type Access, type ReportDb, type ReportFilter } from './sql';

/** Up to this many rows a result is counted exactly on each request and paged with OFFSET. */
export const EXACT_COUNT_MAX = 10_000;
/** Campaign sums are read for at most this many campaigns (an API sender makes one per message). */
export const CAMPAIGN_SUM_MAX_CAMPAIGNS = 5_000;

export interface ReportQueryPlan {
  /** Identifies the filter (and its owner) for the position snapshots. */
  key: string;
  filter: ReportFilter;
  access: Access;
  /** The exact total from campaign counters (no filter, or the template filter alone), else null. */
  campaignTotal: number | null;
}

/**
 * Every message row belongs to a campaign whose total_recipients counted it at acceptance (rows
 * are inserted with their campaign, in one transaction, and never deleted on their own), so the
 * sum over campaigns is the exact message count. Null when the user has too many campaigns for
 * that to be cheap (an API sender makes one per message).
 */
async function campaigns(rdb: ReportDb, userId: number, template: string | null, sentBy: number | null): Promise<{ ids: number[]; rows: number } | null> {
  const conditions = campaignConditions(template, sentBy);
  const found = await rdb.arrays<[number | string, number | string]>(`select id, total_recipients from campaigns where user_id = ?${conditions.sql} limit ?`, [
    userId,
    ...conditions.params,
    CAMPAIGN_SUM_MAX_CAMPAIGNS + 1,
  ]);
  if (found.length > CAMPAIGN_SUM_MAX_CAMPAIGNS) return null;
  return { ids: found.map(([id]) => Number(id)), rows: found.reduce((sum, [, rows]) => sum + Number(rows), 0) };
}

/**
 * The user's numbers holding the digits: at most EXACT_COUNT_MAX of them, or more than that many
 * (then the request walks the list index, where so common a match is found early).
 */
async function matchingNumbers(rdb: ReportDb, recipientOnly: ReportFilter, digits: string): Promise<string[]> {
  const limit = EXACT_COUNT_MAX + 1;
  // Both indexes also read what they do not hold yet (reports/recipientNumbers.ts), so a message is
  // found as soon as it is committed. Without DISTINCT the read stops at the limit: with it,
  // PostgreSQL gathered every match of four common digits first (several times slower on a
  // million numbers). SQLite's index is of messages, so a number comes once per message; PostgreSQL's
  // lists a number twice only after a race or a cleanup. The repeats are dropped here, and a full
  // page of rows counts as "more" even if some repeat: the walk of the list index is right either way.
  let rows: [string][];
  if (rdb.dialect === 'pg') {
    const pattern = containsPattern(digits);
    rows = await rdb.arrays<[string]>(
      `select r.recipient from recipient_numbers r where r.user_id = ? and r.recipient like ?
       union all
       ${PENDING_NUMBERS_SQL}
       limit ?`,
      [recipientOnly.userId, pattern, pattern, recipientOnly.userId, limit],
    );
  } else if (digits.length >= INDEXED_DIGITS_MIN) {
    // The digits as they are: the filter admits digits only (ReportService.filterFor), and FTS5
    // reads its index for a plain LIKE but not for one with an ESCAPE clause.
    rows = await rdb.arrays<[string]>(`${SQLITE_NUMBERS_SQL} limit ?`, [`%${digits}%`, recipientOnly.userId, recipientOnly.userId, digits, limit]);
  } else {
    const where = filterSql(recipientOnly, 'recipient', rdb.dialect);
    rows = await rdb.arrays<[string]>(`select distinct m.recipient from messages m where ${where.sql} limit ?`, [...where.params, limit]);
  }
  const numbers = rows.map(([number]) => number);
  return rows.length > EXACT_COUNT_MAX ? numbers : [...new Set(numbers)];
}

export async function planQuery(rdb: ReportDb, filter: ReportFilter): Promise<ReportQueryPlan> {
  const sentBy = filter.sentBy ?? null;
  const key = JSON.stringify([filter.userId, filter.createdFrom, filter.createdBefore, filter.recipientContains, filter.template, filter.status, sentBy]);
  // The template and sender filters both pick campaigns: alone (or together) their total is the campaigns' sum.
  const byCampaign = Boolean(filter.template) || sentBy !== null;
  const templateOnly = !filter.createdFrom && !filter.createdBefore && !filter.recipientContains && !filter.status;
  const found = templateOnly || byCampaign ? await campaigns(rdb, filter.userId, filter.template, sentBy) : null;
  const templateRows = found?.rows ?? null;
  if (byCampaign && found) filter = { ...filter, templateCampaignIds: found.ids };
  let recipientRows: number | null = null;
  if (filter.recipientContains) {
    const recipientOnly: ReportFilter = { userId: filter.userId, createdFrom: null, createdBefore: null, recipientContains: filter.recipientContains, template: null, status: null };
    // Any part of the number has no range to seek: the user's numbers are tested once, here, and a
    // rare match's numbers kept, so that counting and paging seek them instead of testing every
    // number again. The numbers are found by trigram (reports/recipientNumbers.ts): on PostgreSQL
    // among the user's distinct ones kept beside the messages, on SQLite in an FTS5 index of the
    // messages' own numbers.
    const numbers = await matchingNumbers(rdb, recipientOnly, filter.recipientContains);
    recipientRows = numbers.length;
    if (numbers.length <= EXACT_COUNT_MAX) {
      const matched: ReportFilter = { ...recipientOnly, recipientNumbers: numbers };
      const seek = filterSql(matched, 'recipient', rdb.dialect);
      const [row] = await rdb.arrays<[number | string]>(`select count(*) from (select 1 from ${messagesFrom('recipient', rdb.dialect)} where ${seek.sql} limit ?) capped`, [
        ...seek.params,
        EXACT_COUNT_MAX + 1,
      ]);
      recipientRows = Number(row?.[0] ?? 0);
      if (recipientRows <= EXACT_COUNT_MAX) filter = { ...filter, recipientNumbers: matched.recipientNumbers };
    }
  }
  let access: Access = 'ordered';
  const rare = (rows: number | null): rows is number => rows !== null && rows <= EXACT_COUNT_MAX;
  if (rare(recipientRows) && (!byCampaign || !rare(templateRows) || recipientRows <= templateRows)) access = 'recipient';
  else if (byCampaign && rare(templateRows)) access = 'campaign';
  return { key, filter, access, campaignTotal: templateOnly ? templateRows : null };
}
