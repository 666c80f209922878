/**
 * The sending calls' rules (spec 002 §5 and §7, DECISIONS "Sending"): which number and template,
 * which recipients and values, what it costs; acceptance itself is CampaignAcceptance.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import type { Knex } from 'knex';
import { SENDING } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { unitsToRupees } from '@shared/money';
import { normalisePhone, parseRecipientList } from '@shared/phone';
import type { PriceCategory } from '@shared/pricing';
import type { TApiSendBatchRequest, TApiSendRequest, TCampaignAccepted, TCostPreview, TCustomSendRequest, TQuickSendRequest, TSenderNumber } from '@shared/schemas/sending';
import { presentCostPreview } from '../presenters/costPreview';
import { AppError, BadRequestError, ValidationError } from '../errors';
import type { Template, User } from '../models';
import type { PricingService } from '../services/pricing';
import type { WalletService } from '../services/wallet';
import type { TemplateService } from '../templates/service';
import { templateVariables } from '../templates/service';
import { dedupeKey, type AcceptCampaignInput, type AcceptedCampaign, type CampaignAcceptance, type RecipientRow } from './campaignAcceptance';
import type { SenderNumber, SenderNumberService } from './senderNumbers';
import { ApiSendBatcher } from './apiSendBatcher';

/** At most this many recipients in one send (a 1M-row campaign is accepted; beyond, split it). */
export const MAX_RECIPIENTS_PER_SEND = 2_000_000;

export interface UploadedImage {
  buffer: Buffer;
  size: number;
}

function presentAccepted(result: AcceptedCampaign): TCampaignAccepted {
  return {
    campaignId: result.campaignId,
    accepted: result.accepted,
    duplicates: result.duplicates,
    invalid: result.invalid,
    suppressed: result.suppressed,
    totalCost: unitsToRupees(result.totalCostUnits, 4),
  };
}

/** How long the public API reuses a user's template and sender number lookups. */
const API_LOOKUP_TTL_MS = 5_000;

export class SendingService {
  private readonly apiBatcher: ApiSendBatcher;
  private readonly apiLookups = new Map<string, { at: number; value: Promise<unknown> }>();

  constructor(
    private readonly deps: {
      db: Knex;
      dataDir: string;
      sandboxEnabled: boolean;
      senderNumbers: SenderNumberService;
      templates: TemplateService;
      pricing: PricingService;
      wallet: WalletService;
      acceptance: CampaignAcceptance;
      duplicateWindowHours: number;
      /** The dispatcher looks now instead of at its next poll. */
      onAccepted: () => void;
    },
  ) {
    this.apiBatcher = new ApiSendBatcher({ db: deps.db, acceptance: deps.acceptance, onAccepted: deps.onAccepted, parallelRounds: 1 });
  }

  /** Integrators call in bursts: the same template and number are looked up once every few seconds. */
  private cachedLookup<T>(key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.apiLookups.get(key);
    if (hit && now - hit.at < API_LOOKUP_TTL_MS) return hit.value as Promise<T>;
    const value = load();
    this.apiLookups.set(key, { at: now, value });
    // A failed lookup (unknown template) is not remembered.
    value.catch(() => this.apiLookups.delete(key));
    if (this.apiLookups.size > 10_000) this.apiLookups.delete(this.apiLookups.keys().next().value as string);
    return value;
  }

  async numbers(user: User): Promise<TSenderNumber[]> {
    if (this.deps.sandboxEnabled) await this.deps.senderNumbers.ensureSandbox(user.id);
    const numbers = await this.deps.senderNumbers.listForUser(user.id);
    return numbers
      .filter((n) => this.deps.sandboxEnabled || n.provider !== 'simulator')
      .map((n) => ({
        id: n.id,
        phone_number_id: n.phoneNumberId,
        label: n.label,
        display_number: n.displayNumber,
        provider: n.provider,
        is_sandbox: n.isSandbox,
        messages_per_second: n.messagesPerSecond,
      }));
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
    if (input.recipients.length > MAX_RECIPIENTS_PER_SEND) throw BadRequestError('too_many_recipients', fillMessage(messages.sending.tooManyRecipients, { max: MAX_RECIPIENTS_PER_SEND.toLocaleString('en-IN') }));
    const result = await this.deps.acceptance.accept(input);
    if (result.accepted > 0) this.deps.onAccepted();
    return result;
  }

  private requireValues(template: Template, values: Record<string, string>): void {
    for (const variable of templateVariables(template)) {
      if (!values[variable]?.trim()) throw ValidationError('variables', fillMessage(messages.sending.variableMissing, { name: variable }));
    }
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
    if (template.headerMediaPath) return { type, path: template.headerMediaPath.split(path.sep).join('/') };
    if (type === 'image') throw ValidationError('headerImage', messages.sending.imageRequired);
    return null;
  }

  async quickSend(user: User, input: TQuickSendRequest, source: 'quick' | 'bulk', image?: UploadedImage): Promise<TCampaignAccepted> {
    const number = await this.resolveNumber(user, input.phone_number_id);
    const template = await this.deps.templates.findUsable(user.id, input.template_name, input.language);
    const list = parseRecipientList(input.recipients_text);
    if (list.valid.length === 0) throw ValidationError('recipients_text', messages.sending.noValidRecipients);
    this.requireValues(template, input.variables);
    const variables = Object.fromEntries(templateVariables(template).map((v) => [v, (input.variables[v] ?? '').trim()]));
    const headerMedia = await this.headerMedia(template, image);
    const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const result = await this.accept({
      user,
      template,
      senderNumberId: number.id,
      name: input.campaign_name || `Quick Send - ${template.name} - ${stamp}`,
      source,
      recipients: list.valid.map((to) => ({ to, variables })),
      invalidCount: list.invalid.length,
      inSendDuplicates: list.duplicates,
      headerMedia,
    });
    return presentAccepted(result);
  }

  /** Personalised send: one message per spreadsheet row, variables from the mapped columns. */
  async customSend(user: User, input: TCustomSendRequest, source: 'custom'): Promise<TCampaignAccepted & { skipped: number }> {
    const number = await this.resolveNumber(user, input.phoneNumberId);
    const template = await this.deps.templates.findUsable(user.id, input.templateName, input.language);
    const first = input.data[0] ?? {};
    if (!(input.recipientColumn in first) && !input.data.some((row) => input.recipientColumn in row)) {
      throw ValidationError('recipientColumn', fillMessage(messages.sending.recipientColumnMissing, { column: input.recipientColumn }));
    }
    const variables = templateVariables(template);
    const mappings = Object.fromEntries(Object.entries(input.variableMappings).map(([k, v]) => [k.replace(/^\{\{\s*|\s*\}\}$/g, ''), v]));
    const seen = new Set<string>();
    const recipients: RecipientRow[] = [];
    let invalid = 0;
    let duplicates = 0;
    for (const row of input.data) {
      const phone = normalisePhone(cellText(row[input.recipientColumn]));
      if (!phone) {
        invalid++;
        continue;
      }
      if (seen.has(phone)) {
        duplicates++;
        continue;
      }
      const values: Record<string, string> = {};
      let complete = true;
      for (const variable of variables) {
        const column = mappings[variable];
        const value = column === undefined ? '' : cellText(row[column]).trim();
        if (!value) complete = false;
        values[variable] = value;
      }
      // WhatsApp refuses empty parameters: a row missing a mapped value is skipped, not sent blank.
      if (!complete) {
        invalid++;
        continue;
      }
      seen.add(phone);
      recipients.push({ to: phone, variables: values });
    }
    if (recipients.length === 0) throw ValidationError('data', messages.sending.noValidRecipients);
    const headerMedia = await this.headerMedia(template, undefined);
    const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const result = await this.accept({
      user,
      template,
      senderNumberId: number.id,
      name: input.campaignName || `Personalised - ${template.name} - ${stamp}`,
      source,
      recipients,
      invalidCount: invalid,
      inSendDuplicates: duplicates,
      headerMedia,
    });
    return { ...presentAccepted(result), skipped: invalid };
  }

  async costPreview(user: User, input: { templatename: string; language?: string | undefined; recipients: string[] | string; recipientCount?: number | undefined }): Promise<TCostPreview> {
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
        ? ((await this.deps.db('messages').whereIn('dedupeKey', keys).where('createdAt', '>=', since).whereIn('status', ['queued', 'sending', 'sent', 'delivered', 'read']).countDistinct({ n: 'dedupeKey' })) as { n: number | string }[])
        : [];
      duplicates += Math.round(Number(blocked[0]?.n ?? 0) * scale);
    }
    const billable = Math.max(0, total - invalid - duplicates);
    const category = template.category.toLowerCase() as PriceCategory;
    const priceUnits = await this.deps.pricing.effectiveFor(user.id, category);
    const balanceUnits = await this.deps.wallet.balance(user.id);
    return presentCostPreview({ recipients: total, billable, duplicates, invalid, category: template.category, priceUnits, balanceUnits });
  }

  /** Values of the public API's var1, var2... and button_{i}_url fields, by template variable. */
  private apiValues(template: Template, fields: Record<string, unknown>): Record<string, string> {
    const variables = templateVariables(template);
    const values: Record<string, string> = {};
    variables.forEach((variable, position) => {
      const value = fields[`var${position + 1}`] ?? fields[variable];
      if (value !== undefined && value !== null) values[variable] = String(value);
    });
    const buttons = template.components.find((c) => c.type === 'BUTTONS')?.buttons ?? [];
    buttons.forEach((button, index) => {
      const match = /\{\{\s*([^}\s]+)\s*\}\}/.exec(button.url ?? '');
      const value = fields[`button_${index}_url`];
      if (match && value !== undefined && value !== null) values[match[1] as string] = String(value);
    });
    for (const variable of variables) {
      if (!values[variable]?.trim()) throw ValidationError(`var${variables.indexOf(variable) + 1}`, fillMessage(messages.sending.variableMissing, { name: variable }));
    }
    return values;
  }

  /**
   * The public API's template: unknown answers 400 as its documentation says (spec 002 §8 lists
   * 200, 400, 401 and 429 only), where the web screens keep 404.
   */
  private async apiTemplate(user: User, name: string, language: string | undefined): Promise<Template> {
    try {
      return await this.deps.templates.findUsable(user.id, name, language);
    } catch (error) {
      if (error instanceof AppError && error.status === 404) throw BadRequestError('template_not_found', messages.templates.notFound, 'templatename');
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

  async apiSend(user: User, input: TApiSendRequest): Promise<{ messageId: string; campaignId: number; status: string }> {
    const template = await this.cachedLookup(`template:${user.id}:${input.templatename}:${input.language ?? ''}`, () => this.apiTemplate(user, input.templatename, input.language));
    const to = normalisePhone(input.recipient_number);
    if (!to) throw ValidationError('recipient_number', messages.publicApi.invalidRecipient);
    const values = this.apiValues(template, input);
    const number = await this.cachedLookup(`number:${user.id}`, () => this.defaultNumber(user));
    const headerMedia = await this.cachedLookup(`media:${template.id}`, () => this.apiHeaderMedia(template));
    return this.apiBatcher.submit({ user, template, number, to, values, headerMedia });
  }

  async apiSendBatch(user: User, input: TApiSendBatchRequest): Promise<TCampaignAccepted> {
    const template = await this.apiTemplate(user, input.templatename, input.language);
    const number = await this.defaultNumber(user);
    const seen = new Set<string>();
    const recipients: RecipientRow[] = [];
    let invalid = 0;
    let duplicates = 0;
    for (const entry of input.messages) {
      const to = normalisePhone(entry.recipient_number);
      if (!to) {
        invalid++;
        continue;
      }
      if (seen.has(to)) {
        duplicates++;
        continue;
      }
      seen.add(to);
      recipients.push({ to, variables: this.apiValues(template, entry) });
    }
    if (recipients.length === 0) throw ValidationError('messages', messages.publicApi.invalidRecipient);
    const result = await this.accept({
      user,
      template,
      senderNumberId: number.id,
      name: `API batch - ${template.name}`,
      source: 'api',
      recipients,
      invalidCount: invalid,
      inSendDuplicates: duplicates,
      headerMedia: await this.apiHeaderMedia(template),
    });
    return presentAccepted(result);
  }
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value);
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
