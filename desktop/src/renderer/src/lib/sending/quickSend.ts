/**
 * Quick Send's rules (spec 002 "Quick Send", §4, §8 "Import", §9): one template with one set of
 * values to a typed or imported list of numbers.
 */
import { messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { parseRecipientList } from '@shared/phone';
import type { TTemplate } from '@shared/types';
import { isBulkSend, messageText, SEND_SCREEN, setupProgress, type FailedCall, type SendVariable, type SetupProgress } from './setup';

const s = messages.sending;
const ui = messages.sendScreens;

export { parseRecipientList };

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

// ---------------------------------------------------------------------------------------------
// Variables

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

/** "{{1}} = Asha, {{city}} = Pune", or a dash when the template has no variables. */
export function describeVariables(values: Record<string, string>, order: readonly string[]): string {
  const parts = order.filter((key) => (values[key] ?? '').trim() !== '').map((key) => `{{${key}}} = ${(values[key] ?? '').trim()}`);
  return parts.length > 0 ? parts.join(', ') : '—';
}

// ---------------------------------------------------------------------------------------------
// Recipients, endpoint and name

export const BULK_QUICK_PATH = '/api/whatsapp/bulk-quick-send';

export function quickSendPath(count: number): string {
  return isBulkSend(count) ? BULK_QUICK_PATH : '/api/whatsapp/quick-send';
}

/** 'Quick Send (12)' or 'Bulk Send (1,20,000)'. */
export function quickSendLabel(count: number): string {
  return `${isBulkSend(count) ? ui.bulkSend : ui.quickSend} (${formatIndianNumber(count)})`;
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

/** Spec §8 "Import": the server's reason (or 'Import failed') with the first-column hint. */
export function importFailure(error: FailedCall): { title: string; description: string } {
  if (error.status === 0) return { title: s.importFailed, description: messages.common.networkErrorRetry };
  return { title: error.serverMessage ?? s.importFailed, description: s.importHint };
}

// ---------------------------------------------------------------------------------------------
// Campaign preview

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

