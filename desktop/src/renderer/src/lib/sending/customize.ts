/**
 * Customize Message's rules (spec 002 "Customize Message", §4, §5, §9): one message per
 * spreadsheet row, the template's variables filled from mapped columns. A row becomes its
 * message by the rules of `@shared/sheetRows`, the same the server sends with.
 */
import { messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { parameterRule } from '@shared/parameterLimits';
import { normalisePhone } from '@shared/phone';
import { normaliseMappings, rowMessage, unmappedVariable, type RowMessage } from '@shared/sheetRows';
import { DEFAULT_TEMPLATE_LANGUAGE } from '@shared/templates';
import type { TTemplate } from '@shared/types';
import { isBulkSend, messageText, SEND_SCREEN, setupProgress, type SetupProgress } from './setup';
import type { SheetRow } from './spreadsheet';

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

export const BULK_CUSTOMIZE_PATH = '/api/whatsapp/bulk-customize-send';

export function customSendPath(count: number): string {
  return isBulkSend(count) ? BULK_CUSTOMIZE_PATH : '/api/whatsapp/send-custom-messages';
}

/** 'Send Messages (12)' or 'Bulk Send (1,20,000)'. */
export function customSendLabel(count: number): string {
  return `${isBulkSend(count) ? ui.bulkSend : ui.sendMessages} (${formatIndianNumber(count)})`;
}

// ---------------------------------------------------------------------------------------------
// Variable mapping (the columns themselves are chosen in the spreadsheet step: localSheet.ts)

/** Every variable has a column (true when the template has none: spec §4). */
export function allVariablesMapped(variables: readonly string[], mappings: Record<string, string>): boolean {
  return unmappedVariable(variables, mappings) === null;
}

/**
 * The `variableMappings` a custom send carries: the template's variables with a column. Numeric
 * ones are what spec §5 names; named ones go too, because the server fills every variable of
 * the template from its mapped column and skips a row it cannot fill (docs/sending.md "The send screens").
 */
export function mappingsPayload(mappings: Record<string, string>, variables: readonly string[]): Record<string, string> {
  return normaliseMappings(Object.fromEntries(variables.map((variable) => [variable, mappings[variable] ?? ''])));
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
  /** A value WhatsApp would refuse (too long, a line break...): the send counts the row invalid. */
  refused: RowMessage['refused'];
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
  const rule = parameterRule(template.components);
  return rows.slice(0, limit).map((row, index) => {
    const message = rowMessage(row, recipientColumn, variables, mappings, rule);
    const phone = normalisePhone(message.raw);
    return {
      row: index + 1,
      recipient: phone ?? message.raw,
      validRecipient: phone !== null,
      values: message.values,
      missing: message.missing,
      refused: message.refused,
      text: messageText(template, message.values),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// The screen's form

/**
 * Everything Customize Message's form holds besides the spreadsheet (`useLocalSheet`) and the send
 * (`useSendSubmission`).
 */
export interface CustomizeForm {
  numberId: string;
  language: string;
  template: TTemplate | null;
  campaignName: string;
  /** 'Generate Preview''s messages, until anything they were made from changes. */
  preview: CustomPreviewRow[] | null;
}

export type CustomizeAction =
  | { type: 'numberChosen'; numberId: string }
  | { type: 'languageChosen'; language: string }
  | { type: 'templateChosen'; template: TTemplate | null }
  | { type: 'campaignNamed'; name: string }
  | { type: 'previewGenerated'; rows: CustomPreviewRow[] }
  /** The file, its column or a mapping changed. */
  | { type: 'previewCleared' }
  | { type: 'sent' };

export function initialCustomizeForm(): CustomizeForm {
  return { numberId: '', language: DEFAULT_TEMPLATE_LANGUAGE, template: null, campaignName: '', preview: null };
}

export function customizeFormReducer(form: CustomizeForm, action: CustomizeAction): CustomizeForm {
  switch (action.type) {
    case 'numberChosen':
      return { ...form, numberId: action.numberId };
    case 'languageChosen':
      // Spec §4: changing the language clears the chosen template.
      return { ...form, language: action.language, template: null, preview: null };
    case 'templateChosen':
      if (action.template?.name === form.template?.name) return form;
      return { ...form, template: action.template, preview: null };
    case 'campaignNamed':
      return { ...form, campaignName: action.name };
    case 'previewGenerated':
      return { ...form, preview: action.rows };
    case 'previewCleared':
      return form.preview === null ? form : { ...form, preview: null };
    case 'sent':
      // Spec §4: number, template, file, column, mappings, preview and rows are cleared (the file's part by its own step).
      return { ...form, numberId: '', template: null, campaignName: '', preview: null };
  }
}
