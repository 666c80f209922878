/**
 * Customize Message's rules (spec 002 "Customize Message", §4, §5, §9): one message per
 * spreadsheet row, the template's variables filled from mapped columns. A row becomes its
 * message by the rules of `@shared/sheetRows`, the same the server sends with.
 */
import { messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { normalisePhone } from '@shared/phone';
import { cellText, normaliseMappings, rowCell, rowMessage, unmappedVariable, type RowMessage } from '@shared/sheetRows';
import { DEFAULT_TEMPLATE_LANGUAGE } from '@shared/templates';
import type { TTemplate } from '@shared/types';
import { isBulkSend, messageText, SEND_SCREEN, setupProgress, type FailedCall, type SetupProgress } from './setup';
import type { ParsedSheet, SheetRow } from './spreadsheet';

const s = messages.sending;
const ui = messages.sendScreens;

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

export function customSendPath(count: number): string {
  return isBulkSend(count) ? '/api/whatsapp/bulk-customize-send' : '/api/whatsapp/send-custom-messages';
}

/** 'Send Messages (12)' or 'Bulk Send (1,20,000)'. */
export function customSendLabel(count: number): string {
  return `${isBulkSend(count) ? ui.bulkSend : ui.sendMessages} (${formatIndianNumber(count)})`;
}

/** Spec §8 "Upload": 'Upload failed' with the server error or 'Please try again with a valid file'. */
export function uploadFailure(error: FailedCall): { title: string; description: string } {
  if (error.serverMessage) return { title: s.uploadFailed, description: error.serverMessage };
  if (error.status === 0) return { title: s.uploadFailed, description: messages.common.networkErrorRetry };
  return { title: s.uploadFailed, description: s.uploadRetry };
}

// ---------------------------------------------------------------------------------------------
// Recipient column and variable mapping

/** Column names that say "phone", strongest first ("Order Number" is only a weak hint). */
const PHONE_COLUMN_NAMES = [/phone|mobile|whats\s*app|msisdn|cell/i, /contact|recipient|number/i];

/**
 * The column that most likely holds the numbers: a phone-like name whose first value is a
 * number, else the first phone-like name, else the first column whose first value is a number.
 */
export function guessRecipientColumn(columns: readonly string[], rows: readonly SheetRow[]): string {
  const first = rows[0];
  const holdsNumber = (column: string) => first !== undefined && normalisePhone(cellText(rowCell(first, column))) !== null;
  const named = PHONE_COLUMN_NAMES.flatMap((pattern) => columns.filter((column) => pattern.test(column)));
  return named.find(holdsNumber) ?? named[0] ?? columns.find(holdsNumber) ?? '';
}

/**
 * Named variables ({{city}}) map to a column of the same name when there is one; numbered ones
 * wait for the user (a column called "1" is rare and would be a guess).
 */
function guessMappings(variables: readonly string[], columns: readonly string[]): Record<string, string> {
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
  return unmappedVariable(variables, mappings) === null;
}

/**
 * The `variableMappings` a custom send carries: the template's variables with a column. Numeric
 * ones are what spec §5 names; named ones go too, because the server fills every variable of
 * the template from its mapped column and skips a row it cannot fill (README "Decisions taken here").
 */
export function mappingsPayload(mappings: Record<string, string>, variables: readonly string[]): Record<string, string> {
  return normaliseMappings(Object.fromEntries(variables.map((variable) => [variable, mappings[variable] ?? ''])));
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

// ---------------------------------------------------------------------------------------------
// Preview

export interface CustomPreviewRow {
  /** Row number in the sheet (1 = first data row). */
  row: number;
  /** The normalised number, or the cell as written when it is not a valid number. */
  recipient: string;
  validRecipient: boolean;
  /** The mapped variables' values, as the server reads them. */
  values: Record<string, string>;
  /** The first variable this row leaves empty (the server skips such a row), or null. */
  missing: RowMessage['missing'];
  text: string;
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
    const message = rowMessage(row, recipientColumn, variables, mappings);
    const phone = normalisePhone(message.raw);
    return {
      row: index + 1,
      recipient: phone ?? message.raw,
      validRecipient: phone !== null,
      values: message.values,
      missing: message.missing,
      text: messageText(template, message.values),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// The screen's form

/** Everything Customize Message's form holds; the send itself is `useSendSubmission`'s. */
export interface CustomizeForm {
  numberId: string;
  language: string;
  template: TTemplate | null;
  campaignName: string;
  /** The file being uploaded and parsed, until it is read or refused. */
  uploading: File | null;
  /** 0 to 1 while a file uploads, null otherwise. */
  uploadProgress: number | null;
  /** The spreadsheet read, with its file; the column and mapping choices below belong to it. */
  loaded: { file: File; sheet: ParsedSheet } | null;
  /** The recipient column the user chose (null: the guess stands). */
  columnChoice: string | null;
  /** The columns the user chose per variable over the guesses ('' for deliberately none). */
  mappingChoices: Record<string, string>;
  /** 'Generate Preview''s messages, until anything they were made from changes. */
  preview: CustomPreviewRow[] | null;
}

export type CustomizeAction =
  | { type: 'numberChosen'; numberId: string }
  | { type: 'languageChosen'; language: string }
  | { type: 'templateChosen'; template: TTemplate | null }
  | { type: 'campaignNamed'; name: string }
  | { type: 'fileCleared' }
  | { type: 'uploadStarted'; file: File }
  | { type: 'uploadProgressed'; progress: number }
  | { type: 'uploadFailed' }
  | { type: 'sheetLoaded'; file: File; sheet: ParsedSheet }
  | { type: 'recipientColumnChosen'; column: string }
  | { type: 'variableMapped'; variable: string; column: string }
  | { type: 'previewGenerated'; rows: CustomPreviewRow[] }
  | { type: 'sent' };

export function initialCustomizeForm(): CustomizeForm {
  return {
    numberId: '',
    language: DEFAULT_TEMPLATE_LANGUAGE,
    template: null,
    campaignName: '',
    uploading: null,
    uploadProgress: null,
    loaded: null,
    columnChoice: null,
    mappingChoices: {},
    preview: null,
  };
}

const NO_FILE = { uploading: null, loaded: null, columnChoice: null, preview: null } as const;

export function customizeFormReducer(form: CustomizeForm, action: CustomizeAction): CustomizeForm {
  switch (action.type) {
    case 'numberChosen':
      return { ...form, numberId: action.numberId };
    case 'languageChosen':
      // Spec §4: changing the language clears the chosen template.
      return { ...form, language: action.language, template: null, mappingChoices: {}, preview: null };
    case 'templateChosen':
      if (action.template?.name === form.template?.name) return form;
      return { ...form, template: action.template, mappingChoices: {}, preview: null };
    case 'campaignNamed':
      return { ...form, campaignName: action.name };
    case 'fileCleared':
      return { ...form, ...NO_FILE };
    case 'uploadStarted':
      return { ...form, ...NO_FILE, uploading: action.file, uploadProgress: 0 };
    case 'uploadProgressed':
      return { ...form, uploadProgress: action.progress };
    case 'uploadFailed':
      return { ...form, uploading: null, uploadProgress: null };
    case 'sheetLoaded':
      return { ...form, uploading: null, uploadProgress: null, loaded: { file: action.file, sheet: action.sheet } };
    case 'recipientColumnChosen':
      return { ...form, columnChoice: action.column, preview: null };
    case 'variableMapped':
      return { ...form, mappingChoices: { ...form.mappingChoices, [action.variable]: action.column }, preview: null };
    case 'previewGenerated':
      return { ...form, preview: action.rows };
    case 'sent':
      // Spec §4: number, template, file, column, mappings, preview and rows are cleared.
      return { ...form, ...NO_FILE, numberId: '', template: null, campaignName: '', mappingChoices: {} };
  }
}
