/**
 * How a send's entries become recipients: numbers checked, rows missing or refusing a value set
 * aside, repeats within the send found, and (for a send from an upload) the rows screened as they
 * stream and handed to acceptance in chunks. The cost preview and acceptance both go through it,
 * so the price quoted is the price charged.
 */
import { formatIndianNumber } from '@shared/money';
import { SENDING } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { checkPhone } from '@shared/phone';
import { RepeatIndex, valuesRecordDigest } from '@shared/repeatRows';
import { parameterProblemText, type ParameterRule } from '@shared/parameterLimits';
import { rowMessage, type RowMessage } from '@shared/sheetRows';
import type { TSkippedRow, TSkipReason } from '@shared/schemas/sending';
import { BadRequestError, type AppError } from '../errors';
import type { RecipientRow } from './acceptance/messageRows';
/** At most this many recipients in one send (a 1M-row campaign is accepted; beyond, split it). */
export const MAX_RECIPIENTS_PER_SEND = 2_000_000;

/** One entry of a send before screening: its row number, the number as given and its values. */
export interface SendEntry {
  row: number;
  raw: string;
  values: Record<string, string>;
  /** The first variable left empty and the column it was mapped from, if any. */
  missing?: { name: string; column: string } | null;
  /** The first value WhatsApp would refuse (shared/parameterLimits.ts), with its column. */
  refused?: RowMessage['refused'];
}

/**
 * A send's entries as acceptance takes them: the rule that turns a list or a sheet
 * into recipients, used by the cost preview (dry run) and by acceptance alike, so that the price
 * quoted is the price charged. Invalid numbers, repeats within the send and rows missing a mapped
 * value are set aside here with their row; Duplicate Blocked and opt-outs are found by
 * CampaignAcceptance.classify over what remains.
 */
export interface ScreenedEntries {
  recipients: RecipientRow[];
  /** Row number of each recipient, in the same order. */
  rows: number[];
  skipped: TSkippedRow[];
  invalid: number;
  missingValues: number;
  inSendDuplicates: number;
}

/** Screens a send's entries one at a time, so that a send from an upload can feed its rows as they stream. */
class EntryScreen {
  /** The rows kept so far by number and values: a row repeats only when both do (shared/repeatRows.ts). */
  private readonly seen = new RepeatIndex();
  /** Quick sends share one values object across every row: its digest is worked out once. */
  private lastValues: Record<string, string> | null = null;
  private lastDigest = 0;
  readonly result: ScreenedEntries = { recipients: [], rows: [], skipped: [], invalid: 0, missingValues: 0, inSendDuplicates: 0 };

  add(entry: SendEntry): void {
    const { result } = this;
    const why = messages.sending.skipped;
    const checked = checkPhone(entry.raw);
    if (!checked.ok) {
      result.invalid++;
      result.skipped.push({ row: entry.row, value: entry.raw, reason: 'invalid_number', message: fillMessage(why.invalid_number, { why: messages.phone.invalid[checked.reason] }) });
      return;
    }
    // WhatsApp refuses empty parameters: a row missing a mapped value is skipped, not sent blank,
    // and leaves its number free for a later complete row.
    if (entry.missing) {
      result.missingValues++;
      result.skipped.push({ row: entry.row, value: entry.raw, reason: 'missing_value', message: fillMessage(why.missing_value, entry.missing) });
      return;
    }
    // A value WhatsApp refuses (too long, a control character) would be charged and then fail at
    // Meta: the row is invalid here, counted with the invalid rows and never charged.
    if (entry.refused) {
      result.invalid++;
      result.skipped.push({ row: entry.row, value: entry.raw, reason: 'invalid_value', message: fillMessage(why.invalid_value, { why: parameterProblemText(entry.refused), column: entry.refused.column }) });
      return;
    }
    if (entry.values !== this.lastValues) {
      this.lastValues = entry.values;
      this.lastDigest = valuesRecordDigest(entry.values);
    }
    const first = this.seen.repeatOf(checked.phone, this.lastDigest, entry.row);
    if (first !== null) {
      result.inSendDuplicates++;
      result.skipped.push({ row: entry.row, value: entry.raw, reason: 'duplicate_in_list', message: fillMessage(why.duplicate_in_list, { row: first }) });
      return;
    }
    result.recipients.push({ to: checked.phone, variables: entry.values });
    result.rows.push(entry.row);
  }
}

export function screenEntries(entries: Iterable<SendEntry>): ScreenedEntries {
  const screen = new EntryScreen();
  for (const entry of entries) screen.add(entry);
  return screen.result;
}

/** Recipients handed to acceptance at a time by a streamed send: one PostgreSQL insert's worth. */
const STREAM_CHUNK = 5_000;

/**
 * A send from an upload: its entries screened as they are read and handed on in chunks
 * to acceptance (or its dry run), so no array of the whole send is held. The rows set aside, by
 * screening and then by acceptance, are listed as each chunk is classified: chunks come in row
 * order, so the first rows listed are the first of the file, as `setAsideRows` lists them.
 */
export class StreamedScreen {
  private readonly screen = new EntryScreen();
  private pending: { rows: number[]; skipped: TSkippedRow[] } = { rows: [], skipped: [] };
  private readonly listed: TSkippedRow[] = [];
  private setAsideCount = 0;
  private recipientCount = 0;

  constructor(
    private readonly duplicateWindowHours: number,
    /** Thrown when the whole send held no recipient. */
    private readonly noRecipients: () => Error,
  ) {}

  /** The screened recipients in chunks; throws past the largest send, and at the end when there was none. */
  async *chunks(batches: AsyncIterable<readonly SendEntry[]>): AsyncGenerator<readonly RecipientRow[]> {
    const { result } = this.screen;
    for await (const batch of batches) {
      for (const entry of batch) this.screen.add(entry);
      if (result.recipients.length >= STREAM_CHUNK) yield this.take();
    }
    if (result.recipients.length > 0) yield this.take();
    this.list(result.skipped);
    result.skipped = [];
    if (this.recipientCount === 0) throw this.noRecipients();
  }

  /** A chunk's fates from acceptance: the rows it set aside join the chunk's own set aside by screening. */
  classified(chunk: readonly RecipientRow[], statusCodes: Uint8Array): void {
    const { rows, skipped } = this.pending;
    for (let i = 0; i < statusCodes.length; i++) {
      const code = statusCodes[i];
      if (code === 0) continue;
      skipped.push(acceptanceSetAside(code === 1, rows[i] as number, (chunk[i] as RecipientRow).to, this.duplicateWindowHours));
    }
    this.list(skipped);
    this.pending = { rows: [], skipped: [] };
  }

  get counts(): { invalid: number; missingValues: number; inSendDuplicates: number; recipients: number } {
    const { invalid, missingValues, inSendDuplicates } = this.screen.result;
    return { invalid, missingValues, inSendDuplicates, recipients: this.recipientCount };
  }

  get setAside(): SetAsideRows {
    return { listed: this.listed, count: this.setAsideCount };
  }

  private take(): RecipientRow[] {
    const { result } = this.screen;
    const recipients = result.recipients;
    this.recipientCount += recipients.length;
    if (this.recipientCount > MAX_RECIPIENTS_PER_SEND) throw tooManyRecipients();
    this.pending = { rows: result.rows, skipped: result.skipped };
    result.recipients = [];
    result.rows = [];
    result.skipped = [];
    return recipients;
  }

  private list(rows: TSkippedRow[]): void {
    this.setAsideCount += rows.length;
    if (this.listed.length >= SENDING.skippedRowsListed || rows.length === 0) return;
    rows.sort((a, b) => a.row - b.row);
    for (const row of rows) {
      if (this.listed.length >= SENDING.skippedRowsListed) break;
      this.listed.push(row);
    }
  }
}

/** A personalised send's entry for one row: the one row rule (`@shared/sheetRows`), for rows in the body and rows of an upload alike. */
export function customEntry(
  row: Readonly<Record<string, unknown>>,
  rowNumber: number,
  recipientColumn: string,
  variables: readonly string[],
  mappings: Readonly<Record<string, string>>,
  rule: ParameterRule,
): SendEntry {
  return { row: rowNumber, ...rowMessage(row, recipientColumn, variables, mappings, rule) };
}

/** Quick send's entries: split on commas and line breaks (the spec's rule), numbered from 1. */
export function* listEntries(text: string, values: Record<string, string>): Generator<SendEntry> {
  let row = 0;
  for (const part of text.split(/\r\n|\r|\n|,/)) {
    const raw = part.trim();
    if (raw === '') continue;
    row++;
    yield { row, raw, values };
  }
}

/** Rows of a send that are not sent: the first few in row order, and how many there are in all. */
export interface SetAsideRows {
  listed: TSkippedRow[];
  count: number;
}

/** A send from an upload: its screen and the recipient chunks read through it. */
export interface StreamedSend {
  screen: StreamedScreen;
  chunks: AsyncGenerator<readonly RecipientRow[]>;
}

/** A row acceptance set aside: Duplicate Blocked, else opted out. */
function acceptanceSetAside(duplicate: boolean, row: number, to: string, duplicateWindowHours: number): TSkippedRow {
  const reason: TSkipReason = duplicate ? 'duplicate_blocked' : 'opted_out';
  const message = duplicate ? fillMessage(messages.sending.skipped.duplicate_blocked, { hours: duplicateWindowHours }) : messages.sending.skipped.opted_out;
  return { row, value: to, reason, message };
}

export function tooManyRecipients(): AppError {
  return BadRequestError('too_many_recipients', fillMessage(messages.sending.tooManyRecipients, { max: formatIndianNumber(MAX_RECIPIENTS_PER_SEND) }));
}

/** The rows set aside by screening and by acceptance itself (Duplicate Blocked, opted out), merged in row order and capped. */
export function setAsideRows(screened: ScreenedEntries, statusCodes: Uint8Array | null, duplicateWindowHours: number): SetAsideRows {
  const all = [...screened.skipped];
  if (statusCodes) {
    for (let i = 0; i < statusCodes.length; i++) {
      const code = statusCodes[i];
      if (code === 0) continue;
      all.push(acceptanceSetAside(code === 1, screened.rows[i] as number, (screened.recipients[i] as RecipientRow).to, duplicateWindowHours));
    }
  }
  all.sort((a, b) => a.row - b.row);
  return { listed: all.slice(0, SENDING.skippedRowsListed), count: all.length };
}

