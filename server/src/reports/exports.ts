/**
 * Report exports, streamed: rows are read from the database in batches and written out as they
 * come, so memory stays flat whatever the size. CSV through a small escaper (RFC 4180 quoting plus
 * formula-injection neutralising); Excel through exceljs's streaming writer, one sheet per
 * EXCEL_MAX_DATA_ROWS rows.
 */
import type { EventEmitter } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { csvCell, csvLine } from '@shared/csv';
import { fillMessage, messages } from '@shared/messages';
import { unitsToRupees } from '@shared/money';
import { formatIstDateTime, REPORT_EXPORT_COLUMNS, reportExportCells, type ReportExportSource } from '@shared/reports';
import { publicMessageId } from '../integratorApi/publicMessage';
import { cursorColumn, cursorParams, filterSql, messagesFrom, type Cursor, type ReportDb } from './sql';
import type { ReportQueryPlan } from './plan';
import { reportErrorOf, reportStatusOf } from './status';

/** Excel's sheet holds 1,048,576 rows; one is the heading. */
export const EXCEL_MAX_DATA_ROWS = 1_048_575;
/** Rows per query when PostgreSQL is read in keyset batches. */
export const PG_EXPORT_BATCH = 5_000;
/** Rows handed on at a time from SQLite's cursor. */
const SQLITE_EXPORT_BATCH = 1_000;
/** CSV text is written in pieces of about this many characters. */
const CSV_CHUNK_CHARS = 64 * 1024;
const EXCEL_COLUMN_WIDTHS = [28, 16, 18, 22, 22, 40, 22, 28, 12, 16];
/** Rupees with 2 to 4 decimals, as the CSV writes them, so a cost column adds up with SUM. */
export const EXCEL_COST_FORMAT = '"₹"0.00##';
/** IST wall-clock time, as the CSV writes it (the cells hold IST, see {@link istCellDate}). */
export const EXCEL_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';
/** The export's columns (REPORT_EXPORT_COLUMNS) that hold times, and the one that holds the cost. */
const EXCEL_TIME_COLUMNS = new Set([3, 4, 6]);
const EXCEL_COST_COLUMN = 8;

// The cell rules are shared with the renderer's CSV downloads.
export { csvCell, csvLine };

/** Opted-out and duplicate messages are never charged; a refunded one costs nothing in the end. */
const NOT_CHARGED = new Set(['duplicate', 'suppressed']);

function costOf(status: string, priceUnits: number | string, refunded: number | boolean | null): number {
  return NOT_CHARGED.has(status) || Boolean(refunded) ? 0 : unitsToRupees(Number(priceUnits), 4);
}

/** Rows of an export, in list order, in batches. Closing the iterator early closes the cursor. */
export async function* exportRows(rdb: ReportDb, plan: ReportQueryPlan): AsyncGenerator<ReportExportSource[]> {
  const where = filterSql(plan.filter, plan.access, rdb.dialect);
  if (rdb.dialect === 'sqlite') {
    const reader = rdb.openSqliteReader();
    try {
      const rows = reader.iterate<[string, string, string, string | null, string | null, string | null, number, string | null, string, number, number]>(
        `select c.template_name, m.recipient, m.status, m.delivered_at, m.read_at, m.error_message,
                m.id, m.sent_at, c.name, m.price_units, m.refunded
           from ${messagesFrom(plan.access, 'sqlite')} join campaigns c on c.id = m.campaign_id
          where ${where.sql} order by m.created_at desc, m.id desc`,
        where.params,
      );
      let batch: ReportExportSource[] = [];
      for (const [template, recipient, status, deliveredAt, readAt, error, id, sentAt, campaign, priceUnits, refunded] of rows) {
        batch.push({
          template,
          recipient,
          status: reportStatusOf(status),
          deliveredAt: formatIstDateTime(deliveredAt),
          readAt: formatIstDateTime(readAt),
          error: reportErrorOf(status, error),
          sentAt: formatIstDateTime(sentAt),
          campaign,
          cost: costOf(status, priceUnits, refunded),
          messageId: publicMessageId(id),
        });
        if (batch.length === SQLITE_EXPORT_BATCH) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    } finally {
      reader.close();
    }
    return;
  }
  // No cursor library is installed for PostgreSQL; keyset batches read the same index range by
  // range, each query short, and see rows added meanwhile only above where they started.
  let after: Cursor | null = null;
  for (;;) {
    const keyset: string = after ? ` and (m.created_at, m.id) < ${cursorParams('pg')}` : '';
    const rows: [string, number | string, string, string, string, string | null, string | null, string | null, string | null, string, number | string, boolean][] = await rdb.arrays(
      `select ${cursorColumn('pg')}, m.id, c.template_name, m.recipient, m.status,
              to_char(m.delivered_at at time zone 'Asia/Kolkata', 'YYYY-MM-DD HH24:MI:SS'),
              to_char(m.read_at at time zone 'Asia/Kolkata', 'YYYY-MM-DD HH24:MI:SS'), m.error_message,
              to_char(m.sent_at at time zone 'Asia/Kolkata', 'YYYY-MM-DD HH24:MI:SS'), c.name, m.price_units, m.refunded
         from messages m join campaigns c on c.id = m.campaign_id
        where ${where.sql}${keyset} order by m.created_at desc, m.id desc limit ?`,
      after ? [...where.params, after.at, after.id, PG_EXPORT_BATCH] : [...where.params, PG_EXPORT_BATCH],
    );
    if (rows.length === 0) return;
    yield rows.map(([, id, template, recipient, status, deliveredAt, readAt, error, sentAt, campaign, priceUnits, refunded]) => ({
      template,
      recipient,
      status: reportStatusOf(status),
      deliveredAt,
      readAt,
      error: reportErrorOf(status, error),
      sentAt,
      campaign,
      cost: costOf(status, priceUnits, refunded),
      messageId: publicMessageId(id),
    }));
    if (rows.length < PG_EXPORT_BATCH) return;
    const last = rows[rows.length - 1] as (typeof rows)[number];
    after = { at: last[0], id: Number(last[1]) };
  }
}

/** CSV text: a UTF-8 byte order mark (so Excel reads Hindi and other scripts right), the heading, the rows. */
export async function* csvChunks(batches: AsyncIterable<ReportExportSource[]>): AsyncGenerator<string> {
  let chunk = `\uFEFF${csvLine(REPORT_EXPORT_COLUMNS)}`;
  for await (const batch of batches) {
    for (const row of batch) chunk += csvLine(reportExportCells(row));
    if (chunk.length >= CSV_CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** Ends the row source when the output closes, even if it closed before reading began. */
function closeWith(output: Readable, batches: AsyncIterator<ReportExportSource[]>): Readable {
  output.once('close', () => {
    batches.return?.().catch(() => undefined);
  });
  return output;
}

export function csvStream(batches: AsyncIterableIterator<ReportExportSource[]>): Readable {
  return closeWith(Readable.from(csvChunks(batches), { objectMode: false, encoding: 'utf8' }), batches);
}

/**
 * An IST wall-clock time ("2026-11-24 10:05:00") as a date cell showing that same time. Excel's
 * dates carry no time zone and exceljs writes a Date by its UTC fields, so the Date is the wall
 * clock read as UTC.
 */
export function istCellDate(text: string): Date | null {
  const date = new Date(`${text.replace(' ', 'T')}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A row's Excel cells: the CSV's texts, except the cost as a number and each time as a date cell
 * (a message not delivered or not read keeps its words), so sums and date filters work.
 */
export function excelCells(row: ReportExportSource): (string | number | Date)[] {
  const times = [row.deliveredAt, row.readAt, null, row.sentAt];
  return reportExportCells(row).map((text, index) => {
    if (index === EXCEL_COST_COLUMN) return row.cost;
    const time = EXCEL_TIME_COLUMNS.has(index) ? times[index - 3] : null;
    return (time && istCellDate(time)) ?? text;
  });
}

function excelColumnFormat(index: number): string | undefined {
  if (index === EXCEL_COST_COLUMN) return EXCEL_COST_FORMAT;
  return EXCEL_TIME_COLUMNS.has(index) ? EXCEL_TIME_FORMAT : undefined;
}

/** Resolves when a stream can take more, or has closed (a client that went away). */
function writable(stream: PassThrough): Promise<void> {
  if (!stream.writableNeedDrain || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/** Sheet XML waiting for compression beyond this makes the writer wait. */
const XML_BACKLOG_BYTES = 4 * 1024 * 1024;

/**
 * exceljs hands each sheet's XML to its zip stream without waiting (its stream buffer ignores the
 * destination's backpressure), so a fast row source would pile the sheet up in memory ahead of
 * compression: about 40 MB per 100,000 rows. This waits while that destination holds more than
 * XML_BACKLOG_BYTES, or until the download closes. It reaches into exceljs internals (the sheet's
 * `stream.pipes` and readable-stream's `_writableState`); should a later version change them, it
 * finds nothing to wait for and the export still works, without the bound.
 */
async function sheetBacklog(sheet: ExcelJS.Worksheet, out: PassThrough): Promise<void> {
  const pipes = (sheet as unknown as { stream?: { pipes?: unknown } }).stream?.pipes;
  if (!Array.isArray(pipes)) return;
  for (const pipe of pipes as (EventEmitter & { _writableState?: { length?: unknown } })[]) {
    const backlog = pipe._writableState?.length;
    if (typeof backlog !== 'number' || backlog <= XML_BACKLOG_BYTES || out.destroyed) continue;
    await new Promise<void>((resolve) => {
      const done = () => {
        pipe.off('drain', done);
        out.off('close', done);
        resolve();
      };
      pipe.on('drain', done);
      out.on('close', done);
    });
  }
}

/**
 * An .xlsx workbook written while rows are read. Text cells are plain strings (exceljs writes a
 * string as a value, never as a formula), so no quote prefix is needed there; the cost is a number
 * and the times are dates (see {@link excelCells}). `onError` hears of a
 * failure after the download has started, when it can only be cut short.
 */
export function excelStream(batches: AsyncIterableIterator<ReportExportSource[]>, options: { rowsPerSheet?: number; onError(error: unknown): void }): Readable {
  const rowsPerSheet = options.rowsPerSheet ?? EXCEL_MAX_DATA_ROWS;
  const out = new PassThrough();
  // Fastest deflate level: the sheets are repetitive XML that level 1 already shrinks about tenfold.
  // Styles carry the cost's and the times' number formats.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false, zip: { zlib: { level: 1 } } });
  const addSheet = (number: number) => {
    const sheet = workbook.addWorksheet(number === 1 ? messages.reports.sheetName : fillMessage(messages.reports.sheetNameContinued, { number }));
    sheet.columns = REPORT_EXPORT_COLUMNS.map((header, index) => {
      const numFmt = excelColumnFormat(index);
      return { header, key: String(index), width: EXCEL_COLUMN_WIDTHS[index], ...(numFmt ? { style: { numFmt } } : {}) };
    });
    return sheet;
  };
  const write = async () => {
    let number = 1;
    let sheet = addSheet(number);
    let rowsInSheet = 0;
    for await (const batch of batches) {
      if (out.destroyed) return;
      for (const row of batch) {
        if (rowsInSheet === rowsPerSheet) {
          sheet.commit();
          number += 1;
          sheet = addSheet(number);
          rowsInSheet = 0;
        }
        sheet.addRow(excelCells(row)).commit();
        rowsInSheet += 1;
      }
      // Let the zip stream compress and send what was written before making more of it.
      await sheetBacklog(sheet, out);
      await writable(out);
      await nextTurn();
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => {
    options.onError(error);
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return closeWith(out, batches);
}

/**
 * The export's rows with the first batch already read: a failure to start (a database error)
 * becomes an ordinary error answer instead of a download cut short.
 */
export async function primedRows(rdb: ReportDb, plan: ReportQueryPlan): Promise<AsyncIterableIterator<ReportExportSource[]>> {
  const source = exportRows(rdb, plan);
  let first: IteratorResult<ReportExportSource[]> | null = await source.next();
  const iterator: AsyncIterableIterator<ReportExportSource[]> = {
    next: () => {
      if (!first) return source.next();
      const result = first;
      first = null;
      return Promise.resolve(result);
    },
    return: (value?: unknown) => {
      first = null;
      return source.return(value as undefined);
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
