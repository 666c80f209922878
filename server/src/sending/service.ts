/**
 * The sending calls' rules (spec 002 §5 and §7, docs/decisions/2026-11-21-sending-rules.md): which
 * number and template, which recipients and values, what it costs. Read top to bottom: the numbers
 * a user sends from, acceptance as every send takes it, the quick send, the personalised send and
 * the cost preview. Entries are screened by sendScreening.ts; acceptance itself is
 * CampaignAcceptance; the public API's sends are apiSends.ts and sends to contacts audienceSends.ts.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import type { Knex } from 'knex';
import { SENDING } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { parseRecipientList } from '@shared/phone';
import type { PriceCategory } from '@shared/pricing';
import { parameterProblem, parameterProblemText, parameterRule, type ParameterRule } from '@shared/parameterLimits';
import { normaliseMappings } from '@shared/sheetRows';
import { ATTRIBUTE_NAME_PATTERN, attributeNameOfColumn } from '@shared/schemas/contacts';
import type { TCustomSendRequest, TQuickSendRequest } from '@shared/schemas/sending';
import { BadRequestError, ValidationError } from '../errors';
import type { Template, User } from '../models';
import type { CostQuote, PricingService } from '../pricing/service';
import type { TemplateService } from '../templates/service';
import { templateVariables } from '../templates/service';
import type { AcceptCampaignInput, AcceptedCampaign, CampaignAcceptance, StreamedCampaignInput } from './campaignAcceptance';
import { dedupeKey } from './acceptance/dedupeKeys';
import { BLOCKING_STATUSES } from './acceptance/messageRows';
import type { SenderNumber, SenderNumberService } from './senderNumbers';
import type { PreviewWarning } from './numberHealth';
import { CAMPAIGN_MEDIA_FOLDER, removeCampaignMedia } from './campaignMedia';
import { checkScheduleTime } from './schedule';
import { heavyFileError } from '../spreadsheets/parseWorkerPool';
import { DEFAULT_SPREADSHEET_LIMITS } from '../spreadsheets/read';
import { UploadSheet } from './uploadRows';
import {
  customEntry,
  listEntries,
  MAX_RECIPIENTS_PER_SEND,
  screenEntries,
  setAsideRows,
  StreamedScreen,
  tooManyRecipients,
  type ScreenedEntries,
  type SendEntry,
  type SetAsideRows,
  type StreamedSend,
} from './sendScreening';
import { storedHeaderMedia } from './apiFields';

export interface UploadedImage {
  buffer: Buffer;
  size: number;
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

/** What the sends to an audience and through the API take from this service: numbers and acceptance. */
export type SendCore = Pick<SendingService, 'resolveNumber' | 'defaultNumber' | 'accept' | 'headerMedia' | 'discardUploadedHeader'>;

export class SendingService {
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
      /** What the cost preview warns of for this many unique recipients from this number (its health at Meta). */
      previewWarnings?: (numberId: number, uniqueRecipients: number) => Promise<PreviewWarning[]>;
      /** Defines the attributes a personalised send's remembered columns become (contacts/directory.ts). */
      contactAttributes?: { ensureTextAttributes(ownerId: number, names: readonly string[], create: boolean): Promise<void> };
    },
  ) {}

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

  /** A send accepted whole: refused past the largest send, and the dispatcher told when anything was queued. */
  async accept(input: AcceptCampaignInput): Promise<AcceptedCampaign> {
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

  /** Removes a header image stored for a send that acceptance then refused; a template's own file stays. */
  async discardUploadedHeader(headerMedia: AcceptCampaignInput['headerMedia']): Promise<void> {
    if (!headerMedia?.path.startsWith(`${CAMPAIGN_MEDIA_FOLDER}/`)) return;
    await removeCampaignMedia(this.deps.dataDir, headerMedia.path).catch(() => undefined);
  }

  /**
   * The header file a campaign sends: the upload (quick send), else the template's own sample.
   * Only JPG/PNG images up to 5 MB are taken from senders (spec 002 §5).
   */
  async headerMedia(template: Template, image: UploadedImage | undefined): Promise<AcceptCampaignInput['headerMedia']> {
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
    return storedHeaderMedia(template);
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
      await this.discardUploadedHeader(headerMedia);
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
}
