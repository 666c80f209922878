/**
 * The sending calls' rules (spec 002 §5 and §7, docs/decisions/2026-11-21-sending-rules.md): which number and template,
 * which recipients and values, what it costs; acceptance itself is CampaignAcceptance.
 */
import { formatIndianNumber } from '@shared/money';
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import type { Knex } from 'knex';
import { SENDING } from '@shared/constants';
import { templateApiFields } from '@shared/templates';
import { fillMessage, messages } from '@shared/messages';
import { checkPhone, normalisePhone, parseRecipientList } from '@shared/phone';
import type { PriceCategory } from '@shared/pricing';
import { RepeatIndex, valuesRecordDigest } from '@shared/repeatRows';
import { parameterProblem, parameterProblemText, parameterRule, type ParameterRule } from '@shared/parameterLimits';
import { normaliseMappings, rowMessage, type RowMessage } from '@shared/sheetRows';
import { ATTRIBUTE_NAME_PATTERN, attributeNameOfColumn, type TAudienceSendRequest, type TSegmentFilter } from '@shared/schemas/contacts';
import type { TApiSendBatchRequest, TApiSendRequest, TCustomSendRequest, TQuickSendRequest, TSkippedRow, TSkipReason } from '@shared/schemas/sending';
import { AppError, BadRequestError, NotFoundError, ValidationError } from '../errors';
import type { Template, User } from '../models';
import type { CostQuote, PricingService } from '../pricing/service';
import type { TemplateService } from '../templates/service';
import { templateVariableDefinitions, templateVariables } from '../templates/service';
import type { AcceptCampaignInput, AcceptedCampaign, CampaignAcceptance, StreamedCampaignInput } from './campaignAcceptance';
import { dedupeKey } from './acceptance/dedupeKeys';
import { BLOCKING_STATUSES, type RecipientRow } from './acceptance/messageRows';
import type { SenderNumber, SenderNumberService } from './senderNumbers';
import type { PreviewWarning } from './numberHealth';
import type { WalletAfterDebit } from '../wallet/service';
import { ApiSendBatcher, LINGER_MS, PARALLEL_ROUNDS } from './apiSendBatcher';
import { isPostgres } from '../db/knex';
import { CAMPAIGN_MEDIA_FOLDER, removeCampaignMedia } from './campaignMedia';
import type { MessageRow } from '../db/rows/messages';
import { LookupCache } from '../lookupCache';
import { checkScheduleTime } from './schedule';
import { heavyFileError } from '../spreadsheets/parseWorkerPool';
import { DEFAULT_SPREADSHEET_LIMITS } from '../spreadsheets/read';
import { UploadSheet } from './uploadRows';

/** At most this many recipients in one send (a 1M-row campaign is accepted; beyond, split it). */
export const MAX_RECIPIENTS_PER_SEND = 2_000_000;

export interface UploadedImage {
  buffer: Buffer;
  size: number;
}

/** One entry of a send before screening: its row number, the number as given and its values. */
interface SendEntry {
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
class StreamedScreen {
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
function customEntry(
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
function* listEntries(text: string, values: Record<string, string>): Generator<SendEntry> {
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
interface StreamedSend {
  screen: StreamedScreen;
  chunks: AsyncGenerator<readonly RecipientRow[]>;
}

/** A row acceptance set aside: Duplicate Blocked, else opted out. */
function acceptanceSetAside(duplicate: boolean, row: number, to: string, duplicateWindowHours: number): TSkippedRow {
  const reason: TSkipReason = duplicate ? 'duplicate_blocked' : 'opted_out';
  const message = duplicate ? fillMessage(messages.sending.skipped.duplicate_blocked, { hours: duplicateWindowHours }) : messages.sending.skipped.opted_out;
  return { row, value: to, reason, message };
}

function tooManyRecipients(): AppError {
  return BadRequestError('too_many_recipients', fillMessage(messages.sending.tooManyRecipients, { max: formatIndianNumber(MAX_RECIPIENTS_PER_SEND) }));
}

/** The rows set aside by screening and by acceptance itself (Duplicate Blocked, opted out), merged in row order and capped. */
function setAsideRows(screened: ScreenedEntries, statusCodes: Uint8Array | null, duplicateWindowHours: number): SetAsideRows {
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

/** What a send would cost and set aside (spec 002 §9), before it is put in rupees. */
export interface SendPreview {
  /** Every entry given, sendable or not. */
  recipients: number;
  billable: number;
  /** Duplicate Blocked and repeats within the send together. */
  duplicates: number;
  /** Entries that repeat an earlier one of this send in number and values; absent where the call does not screen the whole send. */
  repeats?: number;
  invalid: number;
  /** Opted-out recipients; absent where the call does not screen for them. */
  suppressed?: number;
  /** The template's category as stored (MARKETING, UTILITY, AUTHENTICATION). */
  category: string;
  quote: CostQuote;
  /** True when every recipient was screened, false when the figures are scaled from a sample; absent where the call never says. */
  exact?: boolean;
  /** Rows set aside; absent where the call does not list them. */
  setAside?: SetAsideRows;
  /** The sender number's health at Meta says to think twice (messaging limit, RED quality); absent when none. */
  warnings?: PreviewWarning[];
}

/** A send accepted: the campaign, and the rows set aside by screening or by acceptance. */
export interface SendAccepted {
  campaign: AcceptedCampaign;
  setAside: SetAsideRows;
  /** A send to a segment: its contacts who opted out, left out before acceptance. */
  optedOutExcluded?: number;
  /** Personalised sends only: rows that could not be sent (invalid numbers, missing values). */
  unsendableRows?: number;
}

/**
 * Where a send to a segment reads its recipients, a page at a time: numbers and the attribute
 * values named, opt-outs left out and counted.
 */
export interface SegmentRecipientSource {
  recipients(
    ownerId: number,
    segmentId: number,
    attributeNames: readonly string[],
    onPage: (page: { phone: string; values: Record<string, string | null> }[]) => void,
  ): Promise<{ segment: { id: number; filter: unknown }; optedOut: number }>;
  /** The same for a filter not saved as a segment (the app's send to tagged contacts). */
  recipientsOf?(
    ownerId: number,
    filter: TSegmentFilter,
    attributeNames: readonly string[],
    onPage: (page: { phone: string; values: Record<string, string | null> }[]) => void,
  ): Promise<{ optedOut: number }>;
}

/** What a send to an audience would do, before it is sent. */
export interface AudiencePreview {
  recipients: number;
  optedOut: number;
  usingFallback: number;
  category: string;
  quote: CostQuote;
  /** The first recipient and its template values, for a sample of the message. */
  sample: { phone: string; values: Record<string, string> } | null;
}

/** A variable mapped to a contact's attribute: `attr:first_name` (`attr:name` is the contact's name). */
const ATTRIBUTE_VARIABLE = /^attr:([A-Za-z][A-Za-z0-9_]*)$/;

/**
 * A contact as a batch entry: each mapped field takes the contact's attribute (`attr:<name>`),
 * else its fallback; any other text is the same for everyone. `fellBack` says a fallback (or
 * nothing) stood in for a missing attribute.
 */
function contactEntry(
  contact: { phone: string; values: Record<string, string | null> },
  variables: Record<string, string>,
  fallbacks: Record<string, string>,
): { entry: { recipient_number: string } & Record<string, string>; fellBack: boolean } {
  const entry: Record<string, string> = { recipient_number: contact.phone };
  let fellBack = false;
  for (const [field, spec] of Object.entries(variables)) {
    const attribute = ATTRIBUTE_VARIABLE.exec(spec)?.[1];
    const own = attribute === undefined ? spec : contact.values[attribute];
    const value = own ?? fallbacks[field];
    if (own === null || own === undefined) fellBack = true;
    if (value !== undefined && value !== null) entry[field] = value;
  }
  return { entry: entry as { recipient_number: string } & Record<string, string>, fellBack };
}

/** A send call answers either its own cost preview (`dry_run`) or the accepted campaign. */
export type SendOutcome = { kind: 'preview'; preview: SendPreview } | { kind: 'accepted'; accepted: SendAccepted };

/**
 * Where a send reads a completed resumable upload's rows (UploadService.rowBatches): the header
 * row first, in the parse worker's batches; 404 for another user's or an unknown upload, 409 for
 * one not completed.
 */
export interface UploadRowSource {
  rowBatches(userId: number, uploadId: string, options: { firstColumnOnly: boolean; signal?: AbortSignal | undefined }): AsyncIterable<string[][]>;
}

/**
 * Characters of variable values a send from an upload may store: the bound a parse already puts
 * on what it hands back (`maxTotalChars`). The rows stream into acceptance, so this bounds the
 * campaign written, not memory: a workbook repeating one long shared string in a mapped column
 * must not multiply into the messages table.
 */
const UPLOAD_SEND_MAX_VALUE_CHARS = DEFAULT_SPREADSHEET_LIMITS.maxTotalChars;

/** How long the public API reuses a user's template and sender number lookups. */
const API_LOOKUP_TTL_MS = 5_000;

export class SendingService {
  private readonly apiBatcher: ApiSendBatcher;
  /** Integrators call in bursts: the same template and number are looked up once every few seconds. */
  private readonly apiLookups = new LookupCache({ ttlMs: API_LOOKUP_TTL_MS, maxEntries: 10_000 });

  constructor(
    private readonly deps: {
      db: Knex;
      dataDir: string;
      sandboxEnabled: boolean;
      senderNumbers: SenderNumberService;
      templates: TemplateService;
      pricing: PricingService;
      acceptance: CampaignAcceptance;
      /** Completed resumable uploads, read as a send's rows. */
      uploads: UploadRowSource;
      duplicateWindowHours: number;
      /** The dispatcher looks now instead of at its next poll. */
      onAccepted: () => void;
      /**
       * The public API charged this user's wallet (the web routes run their own low-balance check).
       * Called after the commit; must not wait.
       */
      onApiSpent?: (userId: number, walletAfter?: WalletAfterDebit) => void;
      /** The clock the public API's sends are given their Indian day by (tests move it). */
      apiClock?: () => Date;
      /** What the cost preview warns of for this many unique recipients from this number (its health at Meta). */
      previewWarnings?: (numberId: number, uniqueRecipients: number) => Promise<PreviewWarning[]>;
      /** A segment's recipients for a send to it (contacts/segments.ts). */
      segments?: SegmentRecipientSource;
      /** Defines the attributes a personalised send's remembered columns become (contacts/directory.ts). */
      contactAttributes?: { ensureTextAttributes(ownerId: number, names: readonly string[], create: boolean): Promise<void> };
    },
  ) {
    this.apiBatcher = new ApiSendBatcher({
      acceptance: deps.acceptance,
      onAccepted: deps.onAccepted,
      parallelRounds: PARALLEL_ROUNDS,
      lingerMs: isPostgres(deps.db) ? LINGER_MS.postgres : LINGER_MS.sqlite,
      onSpent: deps.onApiSpent,
      ...(deps.apiClock ? { now: deps.apiClock } : {}),
    });
  }

  /** The numbers the user may send from (the sandbox one only while the simulator is on). */
  async numbers(user: User): Promise<SenderNumber[]> {
    if (this.deps.sandboxEnabled) await this.deps.senderNumbers.ensureSandbox(user.id);
    const numbers = await this.deps.senderNumbers.listForUser(user.id);
    return numbers.filter((n) => this.deps.sandboxEnabled || n.provider !== 'simulator');
  }

  /** The user's active number by its provider id (what the screens send) or our own id. */
  async resolveNumber(user: User, phoneNumberId: string): Promise<SenderNumber> {
    if (this.deps.sandboxEnabled) await this.deps.senderNumbers.ensureSandbox(user.id);
    const numbers = await this.deps.senderNumbers.listForUser(user.id);
    const found = numbers.find((n) => n.phoneNumberId === phoneNumberId) ?? numbers.find((n) => String(n.id) === phoneNumberId);
    if (!found || (found.provider === 'simulator' && !this.deps.sandboxEnabled)) throw BadRequestError('number_not_found', messages.sending.numberNotFound, 'phone_number_id');
    return found;
  }

  /** The number API sends go from: the user's own configured number first, else the sandbox. */
  async defaultNumber(user: User): Promise<SenderNumber> {
    if (this.deps.sandboxEnabled) await this.deps.senderNumbers.ensureSandbox(user.id);
    const numbers = (await this.deps.senderNumbers.listForUser(user.id)).filter((n) => this.deps.sandboxEnabled || n.provider !== 'simulator');
    const own = numbers.find((n) => !n.isSandbox) ?? numbers[0];
    if (!own) throw BadRequestError('number_not_found', messages.sending.numberNotFound);
    return own;
  }

  private async accept(input: AcceptCampaignInput): Promise<AcceptedCampaign> {
    if (input.recipients.length > MAX_RECIPIENTS_PER_SEND) throw tooManyRecipients();
    const result = await this.deps.acceptance.accept(input);
    if (result.accepted > 0) this.deps.onAccepted();
    return result;
  }

  /** A send from an upload accepted as its rows stream. */
  private async acceptStreamed(campaign: Omit<StreamedCampaignInput, 'chunks' | 'onClassified' | 'screenedOut'>, upload: StreamedSend): Promise<AcceptedCampaign> {
    const { screen } = upload;
    const result = await this.deps.acceptance.acceptStream({
      ...campaign,
      chunks: upload.chunks,
      onClassified: (chunk, statusCodes) => screen.classified(chunk, statusCodes),
      screenedOut: () => ({ invalidCount: screen.counts.invalid + screen.counts.missingValues, inSendDuplicates: screen.counts.inSendDuplicates }),
    });
    if (result.accepted > 0) this.deps.onAccepted();
    return result;
  }

  /** `dryRun` for a send from an upload: the whole file screened as it streams, nothing kept but the figures. */
  private async streamedDryRun(user: User, template: Template, upload: StreamedSend): Promise<SendOutcome> {
    const { screen } = upload;
    const checked = await this.deps.acceptance.screenStream(user.id, template.id, upload.chunks, (chunk, statusCodes) => screen.classified(chunk, statusCodes));
    return this.exactPreview(user, template, screen.counts, checked, screen.setAside);
  }

  private requireValues(template: Template, values: Record<string, string>): void {
    for (const variable of templateVariables(template)) {
      if (!values[variable]?.trim()) throw ValidationError('variables', fillMessage(messages.sending.variableMissing, { name: variable }));
    }
    // Every recipient of a quick send gets the same values: one WhatsApp refuses refuses the send.
    const trimmed = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, value.trim()]));
    const problem = parameterProblem(parameterRule(template.components), trimmed);
    if (problem) throw ValidationError('variables', parameterProblemText(problem));
  }

  /**
   * The header file a campaign sends: the upload (quick send), else the template's own sample.
   * Only JPG/PNG images up to 5 MB are taken from senders (spec 002 §5).
   */
  private async headerMedia(template: Template, image: UploadedImage | undefined): Promise<AcceptCampaignInput['headerMedia']> {
    const header = template.components.find((c) => c.type === 'HEADER');
    const format = header?.format;
    if (!format || format === 'TEXT') return null;
    const type = format.toLowerCase() as 'image' | 'video' | 'document';
    if (image && type === 'image') {
      const sniffed = await fileTypeFromBuffer(image.buffer);
      if (!sniffed || !['image/jpeg', 'image/png'].includes(sniffed.mime)) throw ValidationError('headerImage', messages.sending.imageWrongType);
      if (image.size > SENDING.sendImageMaxMb * 1024 * 1024) throw ValidationError('headerImage', messages.sending.imageTooLarge);
      const relativePath = path.join('media', 'campaigns', `${randomUUID()}.${sniffed.ext}`);
      const absolute = path.resolve(this.deps.dataDir, relativePath);
      await mkdir(path.dirname(absolute), { recursive: true });
      await writeFile(absolute, image.buffer);
      return { type, path: relativePath.split(path.sep).join('/') };
    }
    if (template.headerMediaPath) return { type, path: template.headerMediaPath.split(path.sep).join('/'), name: template.headerMediaName };
    if (type === 'image') throw ValidationError('headerImage', messages.sending.imageRequired);
    return null;
  }

  /**
   * What this exact send would cost and set aside, screened over every recipient by the same rules
   * acceptance applies (the dry run of a send call): the quoted cost is the charged cost.
   */
  private async dryRun(user: User, template: Template, screened: ScreenedEntries): Promise<SendOutcome> {
    if (screened.recipients.length > MAX_RECIPIENTS_PER_SEND) throw tooManyRecipients();
    const checked = await this.deps.acceptance.screen(user.id, template.id, screened.recipients);
    return this.exactPreview(user, template, { ...screened, recipients: screened.recipients.length }, checked, setAsideRows(screened, checked.statusCodes, this.deps.duplicateWindowHours));
  }

  /** The preview of a send screened over every recipient: what screening and acceptance set aside, and the price of the rest. */
  private async exactPreview(
    user: User,
    template: Template,
    screened: { recipients: number; invalid: number; missingValues: number; inSendDuplicates: number },
    checked: { billable: number; duplicates: number; suppressed: number },
    setAside: SetAsideRows,
  ): Promise<SendOutcome> {
    const quote = await this.deps.pricing.quote(user.id, template.category.toLowerCase() as PriceCategory, checked.billable);
    const preview: SendPreview = {
      recipients: screened.recipients + screened.invalid + screened.missingValues + screened.inSendDuplicates,
      billable: checked.billable,
      duplicates: checked.duplicates + screened.inSendDuplicates,
      repeats: screened.inSendDuplicates,
      invalid: screened.invalid + screened.missingValues,
      suppressed: checked.suppressed,
      category: template.category,
      quote,
      exact: true,
      setAside,
    };
    return { kind: 'preview', preview };
  }

  /**
   * `signal` (the client going away) ends the read of an upload's rows.
   */
  async quickSend(user: User, input: TQuickSendRequest, source: 'quick' | 'bulk', image?: UploadedImage, signal?: AbortSignal): Promise<SendOutcome> {
    const number = await this.resolveNumber(user, input.phone_number_id);
    const template = await this.deps.templates.findUsable(user.id, input.template_name, input.language);
    const variables = Object.fromEntries(templateVariables(template).map((v) => [v, (input.variables[v] ?? '').trim()]));
    /** The file's rows as they stream, or the typed list screened whole. */
    let rows: { upload: StreamedSend } | { screened: ScreenedEntries };
    if (input.uploadId !== undefined) {
      // Checked before the file is read rather than after: a whole file is not parsed to be refused.
      this.requireValues(template, input.variables);
      const screen = new StreamedScreen(this.deps.duplicateWindowHours, () => ValidationError('uploadId', messages.sending.noValidRecipients));
      rows = { upload: { screen, chunks: screen.chunks(this.uploadListEntries(user, input.uploadId, input.recipientColumn, variables, signal)) } };
      if (input.dry_run) return this.previewWithWarnings(this.streamedDryRun(user, template, rows.upload), number);
    } else {
      const screened = screenEntries(listEntries(input.recipients_text ?? '', variables));
      if (screened.recipients.length === 0) throw ValidationError('recipients_text', messages.sending.noValidRecipients);
      this.requireValues(template, input.variables);
      if (input.dry_run) return this.previewWithWarnings(this.dryRun(user, template, screened), number);
      rows = { screened };
    }
    const headerMedia = await this.headerMedia(template, image);
    // The upload is stored before acceptance (which may still refuse: balance, limits, pause), so
    // a refusal removes it here; a crash in between is left to the orphan sweep.
    const uploadedPath = headerMedia?.path.startsWith(`${CAMPAIGN_MEDIA_FOLDER}/`) ? headerMedia.path : null;
    const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const campaign = {
      user,
      template,
      senderNumberId: number.id,
      name: input.campaign_name || `Quick Send - ${template.name} - ${stamp}`,
      source,
      headerMedia,
      scheduledAt: input.scheduledAt && checkScheduleTime(input.scheduledAt, 'app'),
    };
    let result: AcceptedCampaign;
    try {
      result =
        'upload' in rows
          ? await this.acceptStreamed(campaign, rows.upload)
          : await this.accept({ ...campaign, recipients: rows.screened.recipients, invalidCount: rows.screened.invalid, inSendDuplicates: rows.screened.inSendDuplicates });
    } catch (error) {
      if (uploadedPath) await removeCampaignMedia(this.deps.dataDir, uploadedPath).catch(() => undefined);
      throw error;
    }
    const setAside = 'upload' in rows ? rows.upload.screen.setAside : setAsideRows(rows.screened, result.statusCodes, this.deps.duplicateWindowHours);
    return { kind: 'accepted', accepted: { campaign: result, setAside } };
  }

  /**
   * A quick send's entries from an upload: the first column, or `recipientColumn`, of
   * each data row, numbered as the file's data rows; an empty cell is passed over as a blank line of
   * `recipients_text` is. One cell is one number (the typed list's commas do not split it).
   */
  private async *uploadListEntries(user: User, uploadId: string, recipientColumn: string | undefined, values: Record<string, string>, signal: AbortSignal | undefined): AsyncGenerator<SendEntry[]> {
    const sheet = new UploadSheet(this.deps.uploads.rowBatches(user.id, uploadId, { firstColumnOnly: recipientColumn === undefined, signal }));
    let index = recipientColumn === undefined ? 0 : -1;
    const unknownColumn = (column: string) => ValidationError('recipientColumn', fillMessage(messages.sending.recipientColumnMissing, { column }));
    for await (const rows of sheet.dataBatches()) {
      const entries: SendEntry[] = [];
      for (const { row, cells } of rows) {
        if (index < 0) {
          index = sheet.columns.indexOf(recipientColumn as string);
          if (index < 0 && !sheet.mayHaveColumn(recipientColumn as string)) throw unknownColumn(recipientColumn as string);
        }
        const raw = index < 0 ? '' : (cells[index] ?? '');
        if (raw !== '') entries.push({ row, raw, values });
      }
      yield entries;
    }
    if (recipientColumn !== undefined && !sheet.columns.includes(recipientColumn)) throw unknownColumn(recipientColumn);
  }

  /**
   * A personalised send's entries from an upload: each data row keyed by the header row,
   * through the same row rule as rows sent in `data`. The rows stream; the values kept are bounded.
   */
  private async *uploadCustomEntries(
    user: User,
    input: TCustomSendRequest & { uploadId: string },
    variables: readonly string[],
    mappings: Record<string, string>,
    rule: ParameterRule,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<SendEntry[]> {
    const sheet = new UploadSheet(this.deps.uploads.rowBatches(user.id, input.uploadId, { firstColumnOnly: false, signal }));
    let keptChars = 0;
    const unknownColumn = () => ValidationError('recipientColumn', fillMessage(messages.sending.recipientColumnMissing, { column: input.recipientColumn }));
    // The row rule reads only these columns.
    const wanted = [input.recipientColumn, ...variables.map((variable) => mappings[variable] ?? '').filter((column) => column !== '')];
    for await (const rows of sheet.dataBatches()) {
      const entries: SendEntry[] = [];
      for (const { row, cells } of rows) {
        if (row === 1 && !sheet.mayHaveColumn(input.recipientColumn)) throw unknownColumn();
        const entry = customEntry(sheet.keyedColumns(cells, wanted), row, input.recipientColumn, variables, mappings, rule);
        for (const variable of variables) keptChars += entry.values[variable]?.length ?? 0;
        if (keptChars > UPLOAD_SEND_MAX_VALUE_CHARS) throw heavyFileError();
        entries.push(entry);
      }
      yield entries;
    }
    // As for rows in `data`: the column must be one of the file's (checked once every row widened the columns).
    if (!sheet.columns.includes(input.recipientColumn)) throw unknownColumn();
  }

  /**
   * Personalised send: one message per spreadsheet row, variables from the mapped columns. The
   * rows are `data`, or the data rows of a completed upload streamed from its file (`signal`, the
   * client going away, ends that read).
   */
  async customSend(user: User, input: TCustomSendRequest, source: 'custom', signal?: AbortSignal): Promise<SendOutcome> {
    const number = await this.resolveNumber(user, input.phoneNumberId);
    const template = await this.deps.templates.findUsable(user.id, input.templateName, input.language);
    const variables = templateVariables(template);
    // The row rules Customize Message's preview uses too, so the preview is what is sent.
    const mappings = normaliseMappings(input.variableMappings);
    // WhatsApp's limits on each value, for its place in this template: a row breaking one is invalid.
    const rule = parameterRule(template.components);
    const remembered = await this.rememberedColumns(user, mappings, variables, input);
    const { uploadId, data } = input;
    if (uploadId !== undefined) {
      const screen = new StreamedScreen(this.deps.duplicateWindowHours, () => ValidationError('uploadId', messages.sending.noValidRecipients));
      const upload = { screen, chunks: screen.chunks(this.uploadCustomEntries(user, { ...input, uploadId }, variables, mappings, rule, signal)) };
      if (input.dry_run) return this.previewWithWarnings(this.streamedDryRun(user, template, upload), number);
      const result = await this.acceptStreamed(await this.customCampaign(user, input, number, template, source, remembered), upload);
      const { invalid, missingValues } = screen.counts;
      return { kind: 'accepted', accepted: { campaign: result, unsendableRows: invalid + missingValues, setAside: screen.setAside } };
    }
    const rows = data ?? [];
    const first = rows[0] ?? {};
    if (!(input.recipientColumn in first) && !rows.some((row) => input.recipientColumn in row)) {
      throw ValidationError('recipientColumn', fillMessage(messages.sending.recipientColumnMissing, { column: input.recipientColumn }));
    }
    const screened = screenEntries(rows.map((row, index) => customEntry(row, index + 1, input.recipientColumn, variables, mappings, rule)));
    if (screened.recipients.length === 0) throw ValidationError('data', messages.sending.noValidRecipients);
    if (input.dry_run) return this.previewWithWarnings(this.dryRun(user, template, screened), number);
    const result = await this.accept({
      ...(await this.customCampaign(user, input, number, template, source, remembered)),
      recipients: screened.recipients,
      invalidCount: screened.invalid + screened.missingValues,
      inSendDuplicates: screened.inSendDuplicates,
    });
    // `unsendableRows` is the count the custom send always answered (rows not sendable); `setAside` lists every row not sent.
    return {
      kind: 'accepted',
      accepted: { campaign: result, unsendableRows: screened.invalid + screened.missingValues, setAside: setAsideRows(screened, result.statusCodes, this.deps.duplicateWindowHours) },
    };
  }

  /**
   * With "remember these columns": each mapped variable's contact attribute (named after its
   * column), the missing ones defined as text now (only checked on a preview), so a send that
   * would outgrow the attribute slots is refused before it is accepted. The values themselves are
   * written by the contacts worker from the message rows, off the acceptance path.
   */
  private async rememberedColumns(user: User, mappings: Record<string, string>, variables: readonly string[], input: TCustomSendRequest): Promise<string | null> {
    if (!input.rememberColumns || !this.deps.contactAttributes) return null;
    const attributes: Record<string, string> = {};
    for (const variable of variables) {
      const column = mappings[variable];
      if (column) attributes[variable] = attributeNameOfColumn(column);
    }
    const names = Object.values(attributes).filter((name) => ATTRIBUTE_NAME_PATTERN.test(name));
    if (names.length === 0) return null;
    // `name` is the contact's own name, not an attribute to define.
    await this.deps.contactAttributes.ensureTextAttributes(user.id, names.filter((name) => name !== 'name'), !input.dry_run);
    return JSON.stringify(Object.fromEntries(Object.entries(attributes).filter(([, name]) => ATTRIBUTE_NAME_PATTERN.test(name))));
  }

  /** A personalised send's campaign, whichever way its rows come. */
  private async customCampaign(user: User, input: TCustomSendRequest, number: SenderNumber, template: Template, source: 'custom', contactAttributes: string | null = null): Promise<Omit<StreamedCampaignInput, 'chunks' | 'onClassified' | 'screenedOut'>> {
    const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
    return {
      user,
      template,
      senderNumberId: number.id,
      name: input.campaignName || `Personalised - ${template.name} - ${stamp}`,
      source,
      headerMedia: await this.headerMedia(template, undefined),
      scheduledAt: input.scheduledAt && checkScheduleTime(input.scheduledAt, 'app'),
      contactAttributes,
    };
  }

  async costPreview(user: User, input: { templatename: string; language?: string | undefined; recipients: string[] | string; recipientCount?: number | undefined; phone_number_id?: string | undefined }): Promise<SendPreview> {
    const preview = await this.costPreviewFigures(user, input);
    const number = input.phone_number_id ? await this.resolveNumber(user, input.phone_number_id) : await this.defaultNumber(user).catch(() => null);
    return this.withWarnings(preview, number);
  }

  /** A dry run's outcome with the sender number's warnings added to its preview. */
  private async previewWithWarnings(outcome: Promise<SendOutcome>, number: Pick<SenderNumber, 'id' | 'provider'>): Promise<SendOutcome> {
    const done = await outcome;
    return done.kind === 'preview' ? { kind: 'preview', preview: await this.withWarnings(done.preview, number) } : done;
  }

  /** The preview with what the sender number's health at Meta warns of for its billable recipients. */
  private async withWarnings(preview: SendPreview, number: Pick<SenderNumber, 'id' | 'provider'> | null): Promise<SendPreview> {
    if (!number || number.provider !== 'cloud_api' || !this.deps.previewWarnings) return preview;
    const warnings = await this.deps.previewWarnings(number.id, preview.billable);
    return warnings.length > 0 ? { ...preview, warnings } : preview;
  }

  private async costPreviewFigures(user: User, input: { templatename: string; language?: string | undefined; recipients: string[] | string; recipientCount?: number | undefined }): Promise<SendPreview> {
    const template = await this.deps.templates.findUsable(user.id, input.templatename, input.language);
    const text = Array.isArray(input.recipients) ? input.recipients.join('\n') : input.recipients;
    const sample = parseRecipientList(text);
    const sampleSize = sample.valid.length + sample.invalid.length + sample.duplicates;
    const total = Math.max(input.recipientCount ?? sampleSize, sampleSize);
    // The client sends at most 100 recipients; the rest are assumed to look like the sample.
    const scale = sampleSize > 0 ? total / sampleSize : 0;
    const invalid = Math.round(sample.invalid.length * scale);
    let duplicates = Math.round(sample.duplicates * scale);
    const variables = templateVariables(template);
    if (variables.length === 0) {
      const since = new Date(Date.now() - this.deps.duplicateWindowHours * 3_600_000).toISOString();
      const keys = sample.valid.map((to) => dedupeKey(user.id, template.id, to, {}));
      const blocked = keys.length
        ? ((await this.deps.db('messages').where('userId', user.id).whereIn('recipient', sample.valid).whereIn('dedupeKey', keys).where('createdAt', '>=', since).whereIn('status', BLOCKING_STATUSES).countDistinct({ n: 'dedupeKey' })) as { n: number | string }[])
        : [];
      duplicates += Math.round(Number(blocked[0]?.n ?? 0) * scale);
    }
    const billable = Math.max(0, total - invalid - duplicates);
    const category = template.category.toLowerCase() as PriceCategory;
    const quote = await this.deps.pricing.quote(user.id, category, billable);
    // This call screens the sample it is given (spec 002 §9: at most the first 100); beyond it the figures are "at most".
    return { recipients: total, billable, duplicates, invalid, category: template.category, quote, exact: total <= sampleSize };
  }

  /**
   * Values of the public API's fields by template variable, keyed by component: the
   * body's from `var1, var2...` (or a named variable's own name), the header's from
   * `header_var1...`, each URL button's from `button_{index}_url`. The body's {{1}} and a
   * button's {{1}} are different values.
   */
  private apiValues(template: Template, fields: Record<string, unknown>): Record<string, string> {
    return this.apiValueReader(template)(fields);
  }

  /** `apiValues` for one template, its fields and rule worked out once for a batch's every entry. */
  private apiValueReader(template: Template): (fields: Record<string, unknown>) => Record<string, string> {
    const apiFields = templateApiFields(templateVariableDefinitions(template));
    const rule = parameterRule(template.components);
    return (fields) => {
      const values: Record<string, string> = {};
      for (const { variable, field: name } of apiFields) {
        const value = fields[name] ?? (variable.component === 'body' ? fields[variable.name] : undefined);
        if (value === undefined || value === null || !String(value).trim()) throw ValidationError(name, fillMessage(messages.sending.variableMissing, { name: variable.label.replace(/^.*\{\{|\}\}$/g, '') }));
        values[variable.key] = String(value);
      }
      // A value WhatsApp refuses is refused here, before anything is charged.
      const problem = parameterProblem(rule, values);
      if (problem) throw ValidationError(apiFields.find(({ variable }) => variable.key === problem.key)?.field ?? 'templatename', parameterProblemText(problem));
      return values;
    };
  }

  /**
   * The public API's template: unknown answers 400 as its documentation says (spec 002 §8 lists
   * 200, 400, 401 and 429 only), where the web screens keep 404.
   */
  private async apiTemplate(user: User, name: string, language: string | undefined): Promise<Template> {
    try {
      return await this.deps.templates.findUsable(user.id, name, language);
    } catch (error) {
      if (error instanceof AppError && error.status === 404) throw BadRequestError(error.code, error.code === 'template_not_usable' ? error.message : messages.templates.notFound, 'templatename');
      throw error;
    }
  }

  /**
   * A media header through the API goes out with the template's stored file; without one the
   * call is refused (the provider would refuse a media header without its file).
   */
  private async apiHeaderMedia(template: Template): Promise<AcceptCampaignInput['headerMedia']> {
    const format = template.components.find((c) => c.type === 'HEADER')?.format;
    if (format && format !== 'TEXT' && !template.headerMediaPath) {
      throw BadRequestError('header_media_missing', fillMessage(messages.publicApi.headerMediaMissing, { type: format.toLowerCase() }), 'templatename');
    }
    return this.headerMedia(template, undefined);
  }

  /** One message through the public API with the key `apiKeyId` (its sends of the day share a campaign). */
  async apiSend(user: User, input: TApiSendRequest, apiKeyId: number): Promise<{ messageId: string; campaignId: number; status: string; scheduledAt?: Date }> {
    const template = await this.apiLookups.get(`template:${user.id}:${input.templatename}:${input.language ?? ''}`, () => this.apiTemplate(user, input.templatename, input.language));
    const to = normalisePhone(input.recipient_number);
    if (!to) throw ValidationError('recipient_number', messages.publicApi.invalidRecipient);
    const values = this.apiValues(template, input);
    const number = await this.apiLookups.get(`number:${user.id}`, () => this.defaultNumber(user));
    const headerMedia = await this.apiLookups.get(`media:${template.id}`, () => this.apiHeaderMedia(template));
    if (input.scheduled_at) return this.apiSendScheduled(user, template, number, { to, variables: values }, headerMedia, checkScheduleTime(input.scheduled_at, 'api'));
    return this.apiBatcher.submit({ user, apiKeyId, template, number, to, values, headerMedia });
  }

  /** A scheduled API send is a campaign of its own (the batcher groups sends that go now). */
  private async apiSendScheduled(
    user: User,
    template: Template,
    number: SenderNumber,
    recipient: RecipientRow,
    headerMedia: AcceptCampaignInput['headerMedia'],
    scheduledAt: Date,
  ): Promise<{ messageId: string; campaignId: number; status: string; scheduledAt: Date }> {
    const result = await this.accept({
      user,
      template,
      senderNumberId: number.id,
      name: `API scheduled - ${template.name}`,
      source: 'api',
      recipients: [recipient],
      invalidCount: 0,
      inSendDuplicates: 0,
      headerMedia,
      scheduledAt,
    });
    if (result.accepted > 0) this.deps.onApiSpent?.(user.id, result.walletAfter);
    const row = (await this.deps.db('messages').where({ campaignId: result.campaignId }).first('id', 'status')) as Pick<MessageRow, 'id' | 'status'>;
    return { messageId: `msg_${row.id}`, campaignId: result.campaignId, status: row.status === 'queued' ? 'scheduled' : row.status, scheduledAt };
  }

  async apiSendBatch(user: User, input: TApiSendBatchRequest): Promise<SendAccepted> {
    const template = await this.apiTemplate(user, input.templatename, input.language);
    const number = await this.defaultNumber(user);
    const segment = input.segment_id !== undefined ? await this.segmentEntries(user, input.segment_id, input.variables ?? {}, input.fallbacks ?? {}) : null;
    const entries = segment?.entries ?? input.messages ?? [];
    const valuesOf = this.apiValueReader(template);
    // Values are read (and a missing one refused) for every row with a valid number: a row repeats
    // an earlier one only when its values do too, so they are known before repeats are screened.
    // Screened as they are made: a million-contact segment holds no second array of its entries.
    const screened = screenEntries(
      (function* () {
        let row = 0;
        for (const entry of entries) {
          row += 1;
          yield { row, raw: entry.recipient_number, values: checkPhone(entry.recipient_number).ok ? valuesOf(entry as Record<string, unknown>) : {} };
        }
      })(),
    );
    if (screened.recipients.length === 0) throw ValidationError('messages', messages.publicApi.invalidRecipient);
    const result = await this.accept({
      user,
      template,
      senderNumberId: number.id,
      name: segment ? `API segment - ${template.name}` : `API batch - ${template.name}`,
      source: 'api',
      recipients: screened.recipients,
      invalidCount: screened.invalid,
      inSendDuplicates: screened.inSendDuplicates,
      headerMedia: await this.apiHeaderMedia(template),
      scheduledAt: input.scheduled_at && checkScheduleTime(input.scheduled_at, 'api'),
    });
    if (result.accepted > 0) this.deps.onApiSpent?.(user.id, result.walletAfter);
    if (segment) {
      // Beside acceptance, not in it: the rule stays the one every send takes, and the segment is a label.
      await this.deps.db('campaigns')
        .where('id', result.campaignId)
        .update({ segmentId: segment.segmentId, segmentFilter: JSON.stringify(segment.filter) });
    }
    return {
      campaign: result,
      setAside: setAsideRows(screened, result.statusCodes, this.deps.duplicateWindowHours),
      ...(segment ? { optedOutExcluded: segment.optedOut } : {}),
    };
  }

  /**
   * The app's send to a segment or to tagged contacts, or with `dry_run` its preview: the
   * recipients (opted-out contacts left out and counted), how many take a fallback, and the cost.
   * The campaign keeps the filter as it was, as a send to a segment by the API does. A header
   * image uploaded with the send is used as Quick Send uses it; otherwise the template's own.
   */
  async audienceSend(user: User, input: TAudienceSendRequest, image?: UploadedImage): Promise<{ kind: 'preview'; preview: AudiencePreview } | { kind: 'accepted'; accepted: SendAccepted }> {
    const source = this.deps.segments;
    if (!source?.recipientsOf) throw NotFoundError(messages.contacts.segmentNotFound, 'segment_not_found');
    const template = await this.apiTemplate(user, input.templatename, input.language);
    const number = input.phone_number_id ? await this.resolveNumber(user, input.phone_number_id) : await this.defaultNumber(user);
    // Checked before the preview too, so a preview never shows a send that would be refused.
    const scheduledAt = input.scheduledAt && checkScheduleTime(input.scheduledAt, 'app');
    const variables = input.variables ?? {};
    const fallbacks = input.fallbacks ?? {};
    const attributeOf = (spec: string) => ATTRIBUTE_VARIABLE.exec(spec)?.[1];
    const names = [...new Set(Object.values(variables).flatMap((spec) => attributeOf(spec) ?? []))];
    const tags = input.tags ?? [];
    const filter: TSegmentFilter = input.segment_id !== undefined ? {} : input.tags_match === 'all' ? { tags_all: tags } : { tags_any: tags };
    let usingFallback = 0;
    // Entries are made page by page: no array of the contacts is held beside them.
    const entries: ({ recipient_number: string } & Record<string, string>)[] = [];
    const onPage = (page: { phone: string; values: Record<string, string | null> }[]) => {
      for (const contact of page) {
        const { entry, fellBack } = contactEntry(contact, variables, fallbacks);
        if (fellBack) usingFallback += 1;
        entries.push(entry);
      }
    };
    const found =
      input.segment_id !== undefined
        ? await source.recipients(user.id, input.segment_id, names, onPage)
        : { segment: null, ...(await source.recipientsOf(user.id, filter, names, onPage)) };
    if (input.dry_run) {
      const quote = await this.deps.pricing.quote(user.id, template.category.toLowerCase() as PriceCategory, entries.length);
      const first = entries[0];
      const sample = first ? { phone: first.recipient_number, values: this.apiValues(template, first) } : null;
      return { kind: 'preview', preview: { recipients: entries.length, optedOut: found.optedOut, usingFallback, category: template.category, quote, sample } };
    }
    const screened = screenEntries(entries.map((entry, index) => ({ row: index + 1, raw: entry.recipient_number, values: this.apiValues(template, entry) })));
    if (screened.recipients.length === 0) throw ValidationError('segment_id', messages.publicApi.invalidRecipient);
    const headerMedia = image ? await this.headerMedia(template, image) : await this.apiHeaderMedia(template);
    // As in Quick Send: an image stored for a send that acceptance refuses is removed here.
    const uploadedPath = headerMedia?.path.startsWith(`${CAMPAIGN_MEDIA_FOLDER}/`) ? headerMedia.path : null;
    let result: AcceptedCampaign;
    try {
      result = await this.accept({
        user,
        template,
        senderNumberId: number.id,
        name: input.campaign_name || `Segment - ${template.name}`,
        source: 'quick',
        recipients: screened.recipients,
        invalidCount: screened.invalid,
        inSendDuplicates: screened.inSendDuplicates,
        headerMedia,
        scheduledAt,
      });
    } catch (error) {
      if (uploadedPath) await removeCampaignMedia(this.deps.dataDir, uploadedPath).catch(() => undefined);
      throw error;
    }
    await this.deps.db('campaigns')
      .where('id', result.campaignId)
      .update({ segmentId: found.segment?.id ?? null, segmentFilter: JSON.stringify(found.segment?.filter ?? filter) });
    return { kind: 'accepted', accepted: { campaign: result, setAside: setAsideRows(screened, result.statusCodes, this.deps.duplicateWindowHours), optedOutExcluded: found.optedOut } };
  }

  /**
   * A segment's contacts as batch entries: each mapped field takes the contact's attribute
   * (`attr:<name>`), else its fallback; any other text is the same for everyone.
   */
  private async segmentEntries(user: User, segmentId: number, variables: Record<string, string>, fallbacks: Record<string, string>) {
    if (!this.deps.segments) throw NotFoundError(messages.contacts.segmentNotFound, 'segment_not_found');
    const attributeOf = (spec: string) => ATTRIBUTE_VARIABLE.exec(spec)?.[1];
    const names = [...new Set(Object.values(variables).flatMap((spec) => attributeOf(spec) ?? []))];
    // Entries are made page by page: no array of the contacts is held beside them.
    const entries: ({ recipient_number: string } & Record<string, string>)[] = [];
    const found = await this.deps.segments.recipients(user.id, segmentId, names, (page) => {
      for (const contact of page) entries.push(contactEntry(contact, variables, fallbacks).entry);
    });
    return { entries, segmentId: found.segment.id, filter: found.segment.filter, optedOut: found.optedOut };
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
