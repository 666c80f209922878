/**
 * Reports (spec 002 Manage Reports, §7 reports calls): the signed-in user's messages, filtered and
 * paged newest first, their summary, the templates they used, and CSV and Excel exports.
 * How totals and deep pages stay cheap on millions of rows is described in positions.ts; which
 * index each filter reads, in plan.ts.
 */
import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { messages } from '@shared/messages';
import { istDate } from '@shared/reports';
import { IST_OFFSET_MS } from '../istCalendar';
import type { MessageStatusCounts } from '@shared/figures';
import type { TReportsQuery } from '@shared/schemas/reports';
import { ValidationError } from '../errors';
import type { Logger } from '../logger';
import { csvStream, excelStream, primedRows } from './exports';
import { EXACT_COUNT_MAX, planQuery } from './plan';
import { ReportPositions } from './positions';
import { ReportDb, type Cursor, type ReportFilter } from './sql';

/** One message as the report shows it, before presentation. Times are ISO strings (SQLite) or Dates (PostgreSQL). */
export interface ReportRecord {
  id: number;
  recipient: string;
  status: string;
  errorMessage: string | null;
  /** Meta's error fields of a failed message. */
  errorCode: number | string | null;
  errorSubcode: number | string | null;
  errorTitle: string | null;
  errorDetails: string | null;
  errorTransient: boolean | number | null;
  errorFbtraceId: string | null;
  createdAt: string | Date;
  sentAt: string | Date | null;
  deliveredAt: string | Date | null;
  readAt: string | Date | null;
  campaignId: number;
  campaignName: string;
  templateName: string;
  /** The category we charged (the campaign's template category). */
  category: string;
  /** The category Meta reported billing (its status `pricing`), lower case; null until reported. */
  metaCategory: string | null;
  /** Meta's `pricing.billable`: false for a message Meta did not bill; null until reported. */
  metaBillable: boolean | null;
}

/** A member who may have sent the account's campaigns. */
export interface ReportSender {
  userId: number;
  name: string;
}

export interface ReportPage {
  records: ReportRecord[];
  total: number;
  page: number;
  limit: number;
}

/** Messages by raw status (shared/figures.ts turns them into the figures shown). */
export type ReportCounts = MessageStatusCounts;

export interface ReportExport {
  filename: string;
  contentType: string;
  stream: Readable;
}

/** A large account's summary is counted at most this often (statuses change by the second while sending). */
export const SUMMARY_TTL_MS = 15_000;
const SUMMARY_CACHE_SIZE = 1_000;
const DAY_MS = 86_400_000;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** What people type inside a number: spaces, dashes, parentheses and dots. */
const NUMBER_SEPARATORS = /[\s\-\u2010-\u2015\u2212().]/g;

export class ReportService {
  private readonly rdb: ReportDb;
  private readonly positions: ReportPositions;
  private readonly summaries = new Map<number, { counts: ReportCounts; at: number }>();

  constructor(
    private readonly deps: {
      db: Knex;
      log: Logger;
      now?: () => Date;
      /** Data rows per Excel sheet (tests make it small to see the split). */
      excelRowsPerSheet?: number;
    },
  ) {
    this.rdb = new ReportDb(deps.db);
    this.positions = new ReportPositions(this.rdb, () => this.now().getTime());
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** The query's filters in database terms; 400 for dates that do not exist or a recipient with letters. */
  filterFor(userId: number, query: Pick<TReportsQuery, 'dateFrom' | 'dateTo' | 'recipientNumber' | 'template' | 'status' | 'sentBy'>): ReportFilter {
    const from = query.dateFrom ? istDayStart(query.dateFrom, 'dateFrom') : null;
    const to = query.dateTo ? istDayStart(query.dateTo, 'dateTo') : null;
    if (from !== null && to !== null && from > to) throw ValidationError('dateTo', messages.reports.dateRangeInvalid);
    let recipient = query.recipientNumber?.replace(NUMBER_SEPARATORS, '') ?? '';
    if (recipient.startsWith('+')) recipient = recipient.slice(1);
    if (/\D/.test(recipient)) throw ValidationError('recipientNumber', messages.reports.recipientDigits);
    return {
      userId,
      createdFrom: from === null ? null : new Date(from).toISOString(),
      createdBefore: to === null ? null : new Date(to + DAY_MS).toISOString(),
      recipientContains: recipient || null,
      template: query.template || null,
      status: query.status ?? null,
      sentBy: query.sentBy ?? null,
    };
  }

  async list(userId: number, query: TReportsQuery): Promise<ReportPage> {
    const plan = await planQuery(this.rdb, this.filterFor(userId, query));
    const offset = (query.page - 1) * query.limit;
    let { total, current } = await this.positions.total(plan);
    let keys = offset < total ? await this.positions.pageKeys(plan, offset, query.limit, current) : [];
    // A snapshot can lag behind statuses that moved rows out of a status filter. A page shorter
    // than the total promised is the sign: count again without it, once.
    if (current && keys.length < Math.min(query.limit, total - offset)) {
      this.positions.forget(plan);
      ({ total, current } = await this.positions.total(plan));
      keys = offset < total ? await this.positions.pageKeys(plan, offset, query.limit, current) : [];
    }
    return { records: await this.records(userId, keys), total, page: query.page, limit: query.limit };
  }

  /**
   * The rows behind a page's keys, by primary key. The owner check is kept out of index choice
   * (unary +): given `user_id = ?`, SQLite without statistics walks the user's whole index instead
   * of looking up 50 ids. Campaigns are read apart for the same reason (as a join, SQLite may
   * start from them and walk every message of each).
   */
  private async records(userId: number, keys: readonly Cursor[]): Promise<ReportRecord[]> {
    if (keys.length === 0) return [];
    const rows = await this.rdb.all<Omit<ReportRecord, 'campaignName' | 'templateName' | 'category' | 'metaBillable'> & { metaBillable: boolean | number | null }>(
      `select m.id as "id", m.recipient as "recipient", m.status as "status", m.error_message as "errorMessage", m.created_at as "createdAt",
              m.error_code as "errorCode", m.error_subcode as "errorSubcode", m.error_title as "errorTitle", m.error_details as "errorDetails",
              m.error_transient as "errorTransient", m.error_fbtrace_id as "errorFbtraceId",
              m.sent_at as "sentAt", m.delivered_at as "deliveredAt", m.read_at as "readAt", m.campaign_id as "campaignId",
              m.meta_category as "metaCategory", m.meta_billable as "metaBillable"
         from messages m where m.id in (${keys.map(() => '?').join(', ')}) and +m.user_id = ?`,
      [...keys.map((key) => key.id), userId],
    );
    const campaignIds = [...new Set(rows.map((row) => Number(row.campaignId)))];
    const campaigns = campaignIds.length
      ? await this.rdb.all<{ id: number | string; name: string; templateName: string; category: string }>(
          `select id as "id", name as "name", template_name as "templateName", category as "category" from campaigns where id in (${campaignIds.map(() => '?').join(', ')})`,
          campaignIds,
        )
      : [];
    const campaignById = new Map(campaigns.map((campaign) => [Number(campaign.id), campaign]));
    const byId = new Map(
      rows.map((row) => {
        const campaign = campaignById.get(Number(row.campaignId));
        const metaBillable = row.metaBillable === null || row.metaBillable === undefined ? null : Boolean(row.metaBillable);
        return [Number(row.id), { ...row, metaBillable, id: Number(row.id), campaignId: Number(row.campaignId), campaignName: campaign?.name ?? '', templateName: campaign?.templateName ?? '', category: campaign?.category ?? '' }];
      }),
    );
    return keys.flatMap((key) => byId.get(key.id) ?? []);
  }

  /**
   * Messages by raw status: one pass over the user's range of the status index, which carries the
   * status column (no table access). An account over EXACT_COUNT_MAX messages is counted at
   * most every SUMMARY_TTL_MS.
   */
  async summary(userId: number): Promise<ReportCounts> {
    const cached = this.summaries.get(userId);
    const now = this.now().getTime();
    if (cached && now - cached.at < SUMMARY_TTL_MS) return cached.counts;
    const rows = await this.rdb.arrays<[string, number | string]>(
      `select m.status, count(*) from messages m where m.user_id = ? group by m.status`,
      [userId],
    );
    const counts: ReportCounts = {};
    let total = 0;
    for (const [status, count] of rows) {
      counts[status as keyof ReportCounts] = Number(count);
      total += Number(count);
    }
    this.summaries.delete(userId);
    if (total > EXACT_COUNT_MAX) {
      this.summaries.set(userId, { counts, at: now });
      const oldest = this.summaries.keys().next().value;
      if (this.summaries.size > SUMMARY_CACHE_SIZE && oldest !== undefined) this.summaries.delete(oldest);
    }
    return counts;
  }

  /** Distinct names of the templates the user has sent, sorted (the template filter's choices). */
  async templates(userId: number): Promise<string[]> {
    const rows = await this.rdb.arrays<[string]>('select distinct template_name from campaigns where user_id = ? order by template_name', [userId]);
    return rows.map(([name]) => name);
  }

  /**
   * The account's members, the sender filter's choices: everyone who belongs to it now, and anyone
   * who sent one of its campaigns and has left since (their campaigns stay the account's).
   */
  async senders(accountId: number): Promise<ReportSender[]> {
    const rows = await this.rdb.arrays<[number | string, string]>(
      `select u.id, u.name from users u
        where u.id in (select am.user_id from account_members am where am.account_id = ?)
           or u.id in (select c.actor_user_id from campaigns c where c.user_id = ? and c.actor_user_id is not null)
        order by u.name, u.id`,
      [accountId, accountId],
    );
    return rows.map(([id, name]) => ({ userId: Number(id), name }));
  }

  /** A streamed CSV or Excel file of every row the filters match, newest first. */
  async export(userId: number, query: TReportsQuery & { export: 'csv' | 'excel' }): Promise<ReportExport> {
    const filter = this.filterFor(userId, query);
    const plan = await planQuery(this.rdb, filter);
    const rows = await primedRows(this.rdb, plan);
    const filtered = Boolean(filter.createdFrom || filter.createdBefore || filter.recipientContains || filter.template || filter.status || filter.sentBy);
    const name = `whatsapp_reports_${filtered ? 'filtered' : 'all'}_${istDate(this.now())}`;
    const onError = (error: unknown) => this.deps.log.error({ err: error, userId }, 'report export failed while streaming');
    if (query.export === 'csv') {
      const stream = csvStream(rows);
      stream.on('error', onError);
      return { filename: `${name}.csv`, contentType: 'text/csv; charset=utf-8', stream };
    }
    return { filename: `${name}.xlsx`, contentType: XLSX_TYPE, stream: excelStream(rows, { rowsPerSheet: this.deps.excelRowsPerSheet, onError }) };
  }
}

/** Midnight in India of a calendar day, as epoch milliseconds; 400 for a day that does not exist. */
function istDayStart(day: string, field: string): number {
  const midnightUtc = Date.parse(`${day}T00:00:00.000Z`);
  if (Number.isNaN(midnightUtc) || new Date(midnightUtc).toISOString().slice(0, 10) !== day) throw ValidationError(field, messages.reports.dateInvalid);
  return midnightUtc - IST_OFFSET_MS;
}
