/**
 * The rules of the two sending screens (spec 002 "Quick Send", "Customize Message", §4, §5, §9)
 * without React: setup progress, what the screens show, which endpoint a send takes and what
 * it carries, and the texts of failures. The pages only wire these to state.
 */
import { csvLine } from '@shared/csv';
import { CREDIT_UNITS_PER_RUPEE, NOTIFICATIONS, PRICE_DEFAULTS, SENDING } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { normalisePhone, parseRecipientList } from '@shared/phone';
import { priceToUnits, PRICE_PATTERN, type PriceCategory, type TPriceSet } from '@shared/pricing';
import type { TCampaign, TCampaignCounts, TCampaignStatus, TSkippedRow } from '@shared/schemas/sending';
import { componentValues, renderTemplateText } from '@shared/templates';
import type { TTemplate, TTemplateComponent, TTemplateDetails } from '@shared/types';

const s = messages.sending;
const ui = messages.sendScreens;

/** Timings and sizes of the send screens (spec 002 §9, and the product's own where it is silent). */
export const SEND_SCREEN = {
  /** The quick send success dialog appears this long after confirmation (spec: about 1 second). */
  successDialogDelayMs: 1_000,
  /** How often an accepted campaign's progress is re-read while its dialog is open. */
  campaignPollMs: 1_500,
  /**
   * The same while the tab's event stream is up: its `campaign_progress` events bring the counts,
   * and this slow read only covers a campaign moving on another server instance between heartbeats.
   */
  campaignStreamPollMs: 10_000,
  /** 'Generate Preview' and the data preview show this many messages (spec: first 3 rows). */
  previewRows: 3,
  /** Quick Send's campaign preview lists this many recipients. */
  campaignPreviewRecipients: 5,
  /** The cost preview is sent at most this many recipients (spec §9); the count goes separately. */
  costPreviewRecipients: 100,
  /** Spreadsheet rows shown in the data table; the rest are counted, never rendered. */
  dataTableRows: 10,
  /** Copy-confirmation feedback (spec §9: 2 seconds). */
  copyFeedbackMs: 2_000,
  /** Uploads of up to 10 MB and the parse behind them outlast the client's 30 s default. */
  uploadTimeoutMs: 180_000,
  /** A bulk send accepts up to hundreds of thousands of rows in one transaction. */
  sendTimeoutMs: 300_000,
} as const;

// ---------------------------------------------------------------------------------------------
// Setup progress

export type StepState = 'pending' | 'current' | 'completed';

export interface SetupCondition {
  key: string;
  label: string;
  done: boolean;
}

export interface SetupStep extends SetupCondition {
  state: StepState;
}

export interface SetupProgress {
  steps: SetupStep[];
  /** Whole percent of conditions met (spec §4: the share of four conditions). */
  percent: number;
  completed: number;
}

/** Completed steps are done; the first step not done is current; the rest are pending. */
export function setupProgress(conditions: readonly SetupCondition[]): SetupProgress {
  const firstOpen = conditions.findIndex((condition) => !condition.done);
  const steps = conditions.map((condition, index): SetupStep => ({
    ...condition,
    state: condition.done ? 'completed' : index === firstOpen ? 'current' : 'pending',
  }));
  const completed = conditions.filter((condition) => condition.done).length;
  return { steps, completed, percent: conditions.length === 0 ? 100 : Math.round((completed / conditions.length) * 100) };
}

export function quickSendProgress(state: {
  hasNumber: boolean;
  hasTemplate: boolean;
  recipientCount: number;
  variablesComplete: boolean;
}): SetupProgress {
  return setupProgress([
    { key: 'number', label: 'WhatsApp Number', done: state.hasNumber },
    { key: 'template', label: 'Template', done: state.hasTemplate },
    { key: 'recipients', label: 'Recipients', done: state.recipientCount > 0 },
    // Variables belong to a chosen template: with none chosen there is nothing to call complete.
    { key: 'variables', label: 'Variables', done: state.hasTemplate && state.variablesComplete },
  ]);
}

export function customizeProgress(state: {
  hasNumber: boolean;
  hasTemplate: boolean;
  hasFile: boolean;
  hasRecipientColumn: boolean;
  variablesMapped: boolean;
}): SetupProgress {
  return setupProgress([
    { key: 'number', label: 'WhatsApp Number', done: state.hasNumber },
    { key: 'template', label: 'Template', done: state.hasTemplate },
    { key: 'data', label: 'Spreadsheet', done: state.hasFile && state.hasRecipientColumn },
    { key: 'variables', label: 'Variable Mapping', done: state.hasTemplate && state.variablesMapped },
  ]);
}

// ---------------------------------------------------------------------------------------------
// Templates

const CATEGORY_SUFFIX = /[\s_-]*(UTILITY|MARKETING|AUTHENTICATION)$/i;

/** "order_update_UTILITY" -> "order update": the category suffix and underscores go (spec §2). */
export function templateDisplayName(name: string): string {
  const shown = name.replace(CATEGORY_SUFFIX, '').replace(/_+/g, ' ').replace(/\s+/g, ' ').trim();
  return shown || name.replace(/_+/g, ' ').trim() || name;
}

export type SendVariable = TTemplateDetails['variables'][number];

/** True when every required variable has a value (and trivially when there are none). */
export function variablesComplete(variables: readonly SendVariable[], values: Record<string, string>): boolean {
  return variables.every((variable) => !variable.required || (values[variable.index] ?? '').trim() !== '');
}

/** The first required variable left empty, for the message that names it. */
export function firstMissingVariable(variables: readonly SendVariable[], values: Record<string, string>): SendVariable | null {
  return variables.find((variable) => variable.required && (values[variable.index] ?? '').trim() === '') ?? null;
}

/** The `variables` object of a quick send: keyed by the index inside the braces, values trimmed. */
export function variablesPayload(variables: readonly SendVariable[], values: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const variable of variables) {
    const value = (values[variable.index] ?? '').trim();
    if (value !== '') result[variable.index] = value;
  }
  return result;
}

/** Only the values typed so far: an empty one keeps its {{n}} visible in previews. */
function filledValues(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== '').map(([key, value]) => [key, value.trim()]));
}

function componentText(components: readonly TTemplateComponent[] | undefined, type: TTemplateComponent['type']): string | null {
  const found = Array.isArray(components) ? components.find((component) => component?.type === type) : undefined;
  if (!found?.text?.trim()) return null;
  if (type === 'HEADER' && found.format && found.format !== 'TEXT') return null;
  return found.text;
}

/** The message's text as a recipient reads it: text header, body and footer, filled with `values`. */
export function messageText(template: Pick<TTemplate, 'components'>, values: Record<string, string>): string {
  const filled = filledValues(values);
  // Each component is filled with its own values: the header's {{1}} is `header_1`, the body's `1`.
  return (['HEADER', 'BODY', 'FOOTER'] as const)
    .map((type) => {
      const text = componentText(template.components, type);
      return text === null ? null : renderTemplateText(text, type === 'HEADER' ? componentValues(filled, 'header') : filled);
    })
    .filter((part): part is string => part !== null)
    .join('\n\n');
}

/** "{{1}} = Asha, {{city}} = Pune", or a dash when the template has no variables. */
export function describeVariables(values: Record<string, string>, order: readonly string[]): string {
  const parts = order.filter((key) => (values[key] ?? '').trim() !== '').map((key) => `{{${key}}} = ${(values[key] ?? '').trim()}`);
  return parts.length > 0 ? parts.join(', ') : '—';
}

// ---------------------------------------------------------------------------------------------
// Recipients and endpoints

export { parseRecipientList };

/** More than 50 recipients (or rows) take the bulk path (spec §9). */
export function isBulkSend(count: number): boolean {
  return count > SENDING.bulkThreshold;
}

export function quickSendPath(count: number): string {
  return isBulkSend(count) ? '/api/whatsapp/bulk-quick-send' : '/api/whatsapp/quick-send';
}

export function customSendPath(count: number): string {
  return isBulkSend(count) ? '/api/whatsapp/bulk-customize-send' : '/api/whatsapp/send-custom-messages';
}

/** 'Quick Send (12)' or 'Bulk Send (1,20,000)'. */
export function quickSendLabel(count: number): string {
  return `${isBulkSend(count) ? ui.bulkSend : ui.quickSend} (${formatIndianNumber(count)})`;
}

/** 'Send Messages (12)' or 'Bulk Send (1,20,000)'. */
export function customSendLabel(count: number): string {
  return `${isBulkSend(count) ? ui.bulkSend : ui.sendMessages} (${formatIndianNumber(count)})`;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** 'Quick Send - order_update - 2025-11-21 14:05' (spec §7: 'Quick Send' with the template name and a timestamp). */
export function defaultCampaignName(templateName: string, now: Date): string {
  const stamp = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ${pad(now.getHours())}:${pad(now.getMinutes())}`;
  return `${ui.quickSend} - ${templateName} - ${stamp}`;
}

/** Imported numbers join what is already typed, each number once, in first-seen order. */
export function mergeRecipients(currentText: string, imported: readonly string[]): string {
  const current = parseRecipientList(currentText);
  const seen = new Set(current.valid);
  const added = imported.filter((phone) => {
    if (seen.has(phone)) return false;
    seen.add(phone);
    return true;
  });
  // Entries that are not numbers stay as typed, so that the user can still see and fix them.
  return [...current.valid, ...current.invalid, ...added].join('\n');
}

export interface CampaignPreviewRow {
  recipient: string;
  variables: string;
  text: string;
}

/** Quick Send's campaign preview: the first recipients with the (shared) variables and message. */
export function quickCampaignPreview(
  recipients: readonly string[],
  template: Pick<TTemplate, 'components'>,
  variableOrder: readonly string[],
  values: Record<string, string>,
  limit: number = SEND_SCREEN.campaignPreviewRecipients,
): CampaignPreviewRow[] {
  const text = messageText(template, values);
  const variables = describeVariables(values, variableOrder);
  return recipients.slice(0, limit).map((recipient) => ({ recipient, variables, text }));
}

// ---------------------------------------------------------------------------------------------
// Customize: spreadsheet data, mapping and preview

export type SheetRow = Record<string, unknown>;

export interface ParsedSheet {
  rows: SheetRow[];
  columns: string[];
  totalRows: number;
  truncated: boolean;
}

/**
 * The parse-excel answer, checked (spec §5: without success and data it is 'Invalid response
 * format'). `totalRows` and `truncated` are the product's additions and default sensibly.
 */
export function readParsedSheet(body: unknown): ParsedSheet {
  const answer = (typeof body === 'object' && body !== null ? body : {}) as { success?: unknown; data?: unknown; error?: unknown };
  if (answer.success !== true || typeof answer.data !== 'object' || answer.data === null) {
    throw new Error(typeof answer.error === 'string' && answer.error ? answer.error : s.invalidResponseFormat);
  }
  const data = answer.data as { rows?: unknown; columns?: unknown; totalRows?: unknown; truncated?: unknown };
  if (!Array.isArray(data.rows) || !Array.isArray(data.columns)) throw new Error(s.invalidResponseFormat);
  const rows = data.rows.filter((row): row is SheetRow => typeof row === 'object' && row !== null && !Array.isArray(row));
  const columns = data.columns.map(String);
  return {
    rows,
    columns,
    totalRows: typeof data.totalRows === 'number' ? data.totalRows : rows.length,
    truncated: data.truncated === true,
  };
}

/** A cell as text ('' for empty). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

/** Column names that say "phone", strongest first ("Order Number" is only a weak hint). */
const PHONE_COLUMN_NAMES = [/phone|mobile|whats\s*app|msisdn|cell/i, /contact|recipient|number/i];

/**
 * The column that most likely holds the numbers: a phone-like name whose first value is a
 * number, else the first phone-like name, else the first column whose first value is a number.
 */
export function guessRecipientColumn(columns: readonly string[], rows: readonly SheetRow[]): string {
  const first = rows[0];
  const holdsNumber = (column: string) => first !== undefined && normalisePhone(cellText(first[column])) !== null;
  const named = PHONE_COLUMN_NAMES.flatMap((pattern) => columns.filter((column) => pattern.test(column)));
  return named.find(holdsNumber) ?? named[0] ?? columns.find(holdsNumber) ?? '';
}

/**
 * Named variables ({{city}}) map to a column of the same name when there is one; numbered ones
 * wait for the user (a column called "1" is rare and would be a guess).
 */
export function guessMappings(variables: readonly string[], columns: readonly string[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const variable of variables) {
    if (/^\d+$/.test(variable)) continue;
    const column = columns.find((candidate) => candidate.trim().toLowerCase() === variable.toLowerCase());
    if (column) result[variable] = column;
  }
  return result;
}

/** Every variable has a column (true when the template has none: spec §4). */
export function allVariablesMapped(variables: readonly string[], mappings: Record<string, string>): boolean {
  return variables.every((variable) => (mappings[variable] ?? '') !== '');
}

/**
 * The `variableMappings` a custom send carries: the template's variables with a column. Numeric
 * ones are what spec §5 names; named ones go too, because the server fills every variable of
 * the template from its mapped column and skips a row it cannot fill (README decision).
 */
export function mappingsPayload(mappings: Record<string, string>, variables: readonly string[]): Record<string, string> {
  return Object.fromEntries(variables.filter((variable) => (mappings[variable] ?? '') !== '').map((variable) => [variable, mappings[variable] ?? '']));
}

/** Spec §5: only numeric double-brace variables are sent, number -> column name. */
export function numericMappings(mappings: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(mappings).filter(([variable, column]) => /^\d+$/.test(variable) && column !== ''));
}

/**
 * The mapping in force: the user's choices over the guesses. A choice of '' (deliberately no
 * column) stands; a column that is not in the current sheet (another file was uploaded) does not.
 */
export function effectiveMappings(
  choices: Record<string, string>,
  variables: readonly string[],
  columns: readonly string[],
): Record<string, string> {
  const result = guessMappings(variables, columns);
  for (const variable of variables) {
    const choice = choices[variable];
    if (choice === undefined) continue;
    if (choice === '') delete result[variable];
    else if (columns.includes(choice)) result[variable] = choice;
  }
  return result;
}

/** The recipient column in force: the user's choice while it is in the sheet, else the guess. */
export function effectiveRecipientColumn(choice: string | null, columns: readonly string[], rows: readonly SheetRow[]): string {
  if (choice !== null && (choice === '' || columns.includes(choice))) return choice;
  return guessRecipientColumn(columns, rows);
}

export interface CustomPreviewRow {
  /** Row number in the sheet (1 = first data row). */
  row: number;
  /** The normalised number, or the cell as written when it is not a valid number. */
  recipient: string;
  validRecipient: boolean;
  values: Record<string, string>;
  text: string;
}

function rowValues(row: SheetRow, variables: readonly string[], mappings: Record<string, string>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const variable of variables) {
    const column = mappings[variable];
    if (column) values[variable] = cellText(row[column]);
  }
  return values;
}

/** 'Generate Preview': the first rows as the messages they become (spec §9: up to 3). */
export function customPreview(
  rows: readonly SheetRow[],
  recipientColumn: string,
  variables: readonly string[],
  mappings: Record<string, string>,
  template: Pick<TTemplate, 'components'>,
  limit: number = SEND_SCREEN.previewRows,
): CustomPreviewRow[] {
  if (!recipientColumn) return [];
  return rows.slice(0, limit).map((row, index) => {
    const raw = cellText(row[recipientColumn]);
    const phone = normalisePhone(raw);
    const values = rowValues(row, variables, mappings);
    return { row: index + 1, recipient: phone ?? raw, validRecipient: phone !== null, values, text: messageText(template, values) };
  });
}

/** The recipient column's first values, for the cost preview (spec: at most the first 100). */
export function recipientSample(rows: readonly SheetRow[], column: string, limit: number = SEND_SCREEN.costPreviewRecipients): string[] {
  return rows.slice(0, limit).map((row) => cellText(row[column]));
}

// ---------------------------------------------------------------------------------------------
// Files

const MB = 1024 * 1024;
const SPREADSHEET_EXTENSIONS = ['.xlsx', '.xls', '.csv'] as const;

/** What the spreadsheet pickers offer (a hint: the checks below and the server decide). */
export const SPREADSHEET_ACCEPT =
  '.xlsx,.xls,.csv,text/csv,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const HEADER_IMAGE_ACCEPT = 'image/jpeg,image/png,.jpg,.jpeg,.png';

export function isSpreadsheetName(name: string): boolean {
  const lower = name.toLowerCase();
  return SPREADSHEET_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

/** Customize Message's upload (spec §5): the type by its name, then the 10 MB limit. */
export function spreadsheetFileError(file: { name: string; size: number }): string | null {
  if (!isSpreadsheetName(file.name)) return s.invalidFileTypeSpreadsheet;
  if (file.size > SENDING.recipientFileMaxMb * MB) return s.recipientFileTooLarge;
  return null;
}

/** Quick Send's import (spec §8 "Import": 'Invalid file type', 'File too large'). */
export function importFileError(file: { name: string; size: number }): string | null {
  if (!isSpreadsheetName(file.name)) return s.importInvalidFileType;
  if (file.size > SENDING.recipientFileMaxMb * MB) return s.importFileTooLarge;
  return null;
}

/** The header image of a send: JPG or PNG, at most 5 MB (spec §5). */
export function headerImageError(file: { name: string; type: string; size: number }): string | null {
  const type = file.type.toLowerCase();
  const byType = type === 'image/jpeg' || type === 'image/jpg' || type === 'image/png';
  const byName = type === '' && /\.(jpe?g|png)$/i.test(file.name);
  if (!byType && !byName) return s.imageWrongType;
  if (file.size > SENDING.sendImageMaxMb * MB) return s.imageTooLarge;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Prices and cost

/** The prices a screen uses: the user's effective ones, else the defaults, else the spec's (§9). */
export const FALLBACK_PRICES: TPriceSet = { ...PRICE_DEFAULTS };

function categoryKey(category: string | null | undefined): PriceCategory {
  const key = (category ?? '').toLowerCase();
  return key === 'utility' || key === 'authentication' ? key : 'marketing';
}

/** Price of one message of `category` in rupees. */
export function priceFor(prices: TPriceSet | null | undefined, category: string | null | undefined): number {
  const key = categoryKey(category);
  const price = prices?.[key];
  const text = typeof price === 'string' && PRICE_PATTERN.test(price) ? price : FALLBACK_PRICES[key];
  return priceToUnits(text) / CREDIT_UNITS_PER_RUPEE;
}

/** Recipients x price, computed in credit units so that 3 x 0.15 is 0.45 and not 0.44999. */
export function estimateCost(count: number, pricePerMessage: number): number {
  const units = Math.round(pricePerMessage * CREDIT_UNITS_PER_RUPEE) * Math.max(0, count);
  return units / CREDIT_UNITS_PER_RUPEE;
}

/** Rupees with Indian grouping and 2 decimals (spec §9: cost shown to 2 decimals). */
export function formatCost(rupees: number): string {
  const text = `₹${formatIndianNumber(Math.abs(rupees), 2)}`;
  return rupees < 0 && text !== '₹0.00' ? `−${text}` : text;
}

/** A per-message price keeps its 4th decimal when it has one ("₹0.1234"), else shows 2. */
export function formatPrice(rupees: number): string {
  const units = Math.round(rupees * CREDIT_UNITS_PER_RUPEE);
  return `₹${formatIndianNumber(rupees, units % 100 === 0 ? 2 : 4)}`;
}

// ---------------------------------------------------------------------------------------------
// Campaign progress

const FINISHED: readonly TCampaignStatus[] = ['completed', 'cancelled'];

export function isCampaignFinished(status: TCampaignStatus): boolean {
  return FINISHED.includes(status);
}

/** Delivery reports keep arriving after the last message went out; for this long they are followed. */
export const OUTCOME_FOLLOW_MS = NOTIFICATIONS.campaignFollowMs;

/** How far along each status is: a message only ever moves to a higher one. */
const STATUS_STEP: Record<keyof TCampaignCounts, number> = { queued: 0, sending: 1, unknown: 1, sent: 2, delivered: 3, read: 4, failed: 4, cancelled: 4, duplicate: 4, suppressed: 4 };

/**
 * Of two readings of one campaign (a poll answer and a stream event can cross on the way), the
 * later one: its messages stand further along in total, and a finished campaign never runs again.
 */
export function laterCampaignReading(current: TCampaign | undefined, incoming: TCampaign): TCampaign {
  if (!current || current.id !== incoming.id) return incoming;
  if (isCampaignFinished(current.status) && !isCampaignFinished(incoming.status)) return current;
  const along = (campaign: TCampaign) => (Object.keys(STATUS_STEP) as (keyof TCampaignCounts)[]).reduce((sum, status) => sum + STATUS_STEP[status] * (campaign.counts[status] ?? 0), 0);
  return along(incoming) >= along(current) || isCampaignFinished(incoming.status) !== isCampaignFinished(current.status) ? incoming : current;
}

/**
 * Whether the send dialog keeps asking for the campaign: while it runs, and for a while after it
 * completes as long as some messages are still only `sent` (their delivered/read/failed report is
 * on its way from WhatsApp).
 */
export function shouldFollowCampaign(campaign: Pick<TCampaign, 'status' | 'counts' | 'completedAt'>, now: number = Date.now()): boolean {
  if (!isCampaignFinished(campaign.status)) return true;
  if (campaign.counts.sent === 0 || !campaign.completedAt) return false;
  return now - new Date(campaign.completedAt).getTime() < OUTCOME_FOLLOW_MS;
}

export interface CampaignProgressView {
  percent: number;
  processed: number;
  total: number;
  finished: boolean;
  pending: number;
}

/** Share of billable messages that reached a final state; a campaign with none to send is whole. */
export function campaignProgress(campaign: Pick<TCampaign, 'status' | 'processed' | 'billable' | 'counts'>): CampaignProgressView {
  const total = Math.max(0, campaign.billable);
  const processed = Math.min(Math.max(0, campaign.processed), total);
  const finished = isCampaignFinished(campaign.status);
  const percent = total === 0 ? 100 : finished && campaign.status === 'completed' ? 100 : Math.floor((processed / total) * 100);
  // A cancelled campaign has nothing waiting: what it had not sent will not go out.
  const pending = campaign.status === 'cancelled' ? 0 : campaign.counts.queued + campaign.counts.sending + campaign.counts.unknown;
  return { percent, processed, total, finished, pending };
}

export const CAMPAIGN_STATUS_LABELS: Record<TCampaignStatus, string> = {
  running: 'Sending',
  paused: 'Paused',
  cancelled: 'Cancelled',
  completed: 'Completed',
};

// ---------------------------------------------------------------------------------------------
// Failure texts

/** What a failed call left to read: its status (0 when no answer arrived) and the server's words. */
export interface FailedCall {
  status: number;
  serverMessage?: string | undefined;
}

/** Spec §8 "Sending": 'Sending failed' / 'Bulk sending failed' with the server message or the status. */
export function sendFailure(error: FailedCall, bulk: boolean): { title: string; description: string } {
  const title = bulk ? s.bulkSendingFailed : s.sendingFailed;
  if (error.serverMessage) return { title, description: error.serverMessage };
  if (error.status === 0) return { title, description: messages.common.networkErrorRetry };
  return { title, description: fillMessage(s.sendingFailedStatus, { code: error.status }) };
}

/** Spec §8 "Loading lists", numbers: inline text, with the status when there was one. */
export function numbersLoadError(error: FailedCall, screen: 'quick' | 'customize'): string {
  if (error.status === 0) return screen === 'customize' ? s.connectionErrorCustomize : s.connectionError;
  return fillMessage(s.numbersLoadFailedStatus, { code: error.status });
}

/** Spec §8 "Loading lists", templates: a toast title and its description. */
export function templatesLoadError(error: FailedCall): { title: string; description?: string } {
  if (error.status === 0) return { title: s.templatesLoadNetwork };
  return { title: s.templatesLoadFailed, description: fillMessage(s.templatesLoadFailedStatus, { code: error.status }) };
}

export function languagesLoadError(error: FailedCall): string {
  return error.status === 0 ? s.languagesLoadNetwork : s.languagesLoadFailed;
}

/** Spec §8 "Upload": 'Upload failed' with the server error or 'Please try again with a valid file'. */
export function uploadFailure(error: FailedCall): { title: string; description: string } {
  if (error.serverMessage) return { title: s.uploadFailed, description: error.serverMessage };
  if (error.status === 0) return { title: s.uploadFailed, description: messages.common.networkErrorRetry };
  return { title: s.uploadFailed, description: s.uploadRetry };
}

/** Spec §8 "Import": the server's reason (or 'Import failed') with the first-column hint. */
export function importFailure(error: FailedCall): { title: string; description: string } {
  if (error.status === 0) return { title: s.importFailed, description: messages.common.networkErrorRetry };
  return { title: error.serverMessage ?? s.importFailed, description: s.importHint };
}

/** The skipped rows of a send as a CSV file (row, value, reason), with a BOM so Excel reads UTF-8. */
export function skippedRowsCsv(rows: readonly TSkippedRow[]): string {
  return `\uFEFF${csvLine(['Row', 'Value', 'Why'])}${rows.map((row) => csvLine([String(row.row), row.value, row.message])).join('')}`;
}
