import { describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import type { TCampaign } from '@shared/schemas/sending';
import type { TTemplateComponent } from '@shared/types';
import {
  OUTCOME_FOLLOW_MS,
  laterCampaignReading,
  shouldFollowCampaign,
  allVariablesMapped,
  campaignProgress,
  customizeProgress,
  customPreview,
  customSendLabel,
  customSendPath,
  defaultCampaignName,
  describeVariables,
  effectiveMappings,
  effectiveRecipientColumn,
  estimateCost,
  firstMissingVariable,
  formatCost,
  formatPrice,
  guessRecipientColumn,
  headerImageError,
  importFailure,
  importFileError,
  isBulkSend,
  mappingsPayload,
  mergeRecipients,
  messageText,
  numbersLoadError,
  numericMappings,
  parseRecipientList,
  priceFor,
  quickCampaignPreview,
  quickSendLabel,
  quickSendPath,
  quickSendProgress,
  readParsedSheet,
  recipientSample,
  sendFailure,
  setupProgress,
  spreadsheetFileError,
  templateDisplayName,
  templatesLoadError,
  uploadFailure,
  variablesComplete,
  variablesPayload,
} from './sending';

const s = messages.sending;
const MB = 1024 * 1024;

const template = {
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
    { type: 'BODY', text: 'Your order {{2}} ships to {{city}}.' },
    { type: 'FOOTER', text: 'Reply STOP to opt out' },
  ] satisfies TTemplateComponent[],
};

function campaign(overrides: Partial<TCampaign> = {}): TCampaign {
  return {
    id: 7,
    name: 'Quick Send',
    status: 'running',
    source: 'quick',
    templateName: 'offer',
    language: 'en_US',
    category: 'MARKETING',
    totalRecipients: 4,
    billable: 4,
    invalid: 0,
    counts: { queued: 1, sending: 1, unknown: 0, sent: 1, delivered: 1, read: 0, failed: 0, duplicate: 0, suppressed: 0 },
    processed: 2,
    pricePerMessage: 0.8,
    totalCost: 3.2,
    refunded: 0,
    createdAt: '2025-11-21T10:00:00.000Z',
    completedAt: null,
    ...overrides,
  };
}

describe('setup progress', () => {
  it('marks done steps completed, the first open one current and the rest pending', () => {
    const progress = setupProgress([
      { key: 'a', label: 'A', done: true },
      { key: 'b', label: 'B', done: false },
      { key: 'c', label: 'C', done: true },
      { key: 'd', label: 'D', done: false },
    ]);
    expect(progress.steps.map((step) => step.state)).toEqual(['completed', 'current', 'completed', 'pending']);
    expect(progress.percent).toBe(50);
    expect(progress.completed).toBe(2);
  });

  it('counts the four quick send conditions: number, template, recipients and variables', () => {
    expect(quickSendProgress({ hasNumber: false, hasTemplate: false, recipientCount: 0, variablesComplete: true }).percent).toBe(0);
    expect(quickSendProgress({ hasNumber: true, hasTemplate: false, recipientCount: 0, variablesComplete: true }).percent).toBe(25);
    expect(quickSendProgress({ hasNumber: true, hasTemplate: true, recipientCount: 3, variablesComplete: false }).percent).toBe(75);
    const full = quickSendProgress({ hasNumber: true, hasTemplate: true, recipientCount: 3, variablesComplete: true });
    expect(full.percent).toBe(100);
    expect(full.steps.map((step) => step.label)).toEqual(['WhatsApp Number', 'Template', 'Recipients', 'Variables']);
  });

  it('needs a file and a recipient column for the customize data step, and treats no variables as mapped', () => {
    const base = { hasNumber: true, hasTemplate: true, hasFile: true, hasRecipientColumn: false, variablesMapped: true };
    expect(customizeProgress(base).percent).toBe(75);
    expect(customizeProgress({ ...base, hasRecipientColumn: true }).percent).toBe(100);
    expect(allVariablesMapped([], {})).toBe(true);
  });
});

describe('template names and variables', () => {
  it('drops the category suffix and underscores from displayed names', () => {
    expect(templateDisplayName('order_update_UTILITY')).toBe('order update');
    expect(templateDisplayName('diwali_offer_marketing')).toBe('diwali offer');
    expect(templateDisplayName('login_code_AUTHENTICATION')).toBe('login code');
    expect(templateDisplayName('welcome__message')).toBe('welcome message');
    // A name that is only a category keeps something to show.
    expect(templateDisplayName('marketing')).toBe('marketing');
  });

  const variables = [
    { index: '1', placeholder: '{{1}}', required: true, value: '' },
    { index: 'city', placeholder: '{{city}}', required: false, value: '' },
  ];

  it('calls the variables complete when every required one has a value', () => {
    expect(variablesComplete(variables, { '1': '  ' })).toBe(false);
    expect(firstMissingVariable(variables, {})?.index).toBe('1');
    expect(variablesComplete(variables, { '1': 'Asha' })).toBe(true);
    expect(firstMissingVariable(variables, { '1': 'Asha' })).toBeNull();
    expect(variablesComplete([], {})).toBe(true);
  });

  it('sends variables keyed by their index, trimmed, without empty ones', () => {
    expect(variablesPayload(variables, { '1': ' Asha ', city: '', stray: 'x' })).toEqual({ '1': 'Asha' });
  });

  it('renders the message text with what is filled and keeps unfilled tokens visible', () => {
    expect(messageText(template, { '1': 'Asha', '2': '', city: 'Pune' })).toBe(
      'Hello Asha\n\nYour order {{2}} ships to Pune.\n\nReply STOP to opt out',
    );
    const imageHeader = { components: [{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'Hi' }] satisfies TTemplateComponent[] };
    expect(messageText(imageHeader, {})).toBe('Hi');
    expect(describeVariables({ '1': 'Asha', city: 'Pune' }, ['1', '2', 'city'])).toBe('{{1}} = Asha, {{city}} = Pune');
    expect(describeVariables({}, ['1'])).toBe('—');
  });
});

describe('recipients, endpoints and labels', () => {
  it('counts recipients with the shared rules: normalised, de-duplicated, invalid skipped', () => {
    const list = parseRecipientList('+91 98765-43210\n919876543210, 14155550123\nabc\n\n123');
    expect(list.valid).toEqual(['919876543210', '14155550123']);
    expect(list.invalid).toEqual(['abc', '123']);
    expect(list.duplicates).toBe(1);
  });

  it('takes the bulk path for more than 50', () => {
    expect(isBulkSend(50)).toBe(false);
    expect(isBulkSend(51)).toBe(true);
    expect(quickSendPath(50)).toBe('/api/whatsapp/quick-send');
    expect(quickSendPath(51)).toBe('/api/whatsapp/bulk-quick-send');
    expect(customSendPath(1)).toBe('/api/whatsapp/send-custom-messages');
    expect(customSendPath(51)).toBe('/api/whatsapp/bulk-customize-send');
  });

  it('labels the send buttons with the count in Indian grouping', () => {
    expect(quickSendLabel(12)).toBe('Quick Send (12)');
    expect(quickSendLabel(120000)).toBe('Bulk Send (1,20,000)');
    expect(customSendLabel(3)).toBe('Send Messages (3)');
    expect(customSendLabel(51)).toBe('Bulk Send (51)');
  });

  it('names an unnamed campaign after Quick Send, the template and the time', () => {
    expect(defaultCampaignName('diwali_offer', new Date(2025, 10, 5, 9, 7))).toBe('Quick Send - diwali_offer - 2025-11-05 09:07');
  });

  it('adds imported numbers once, after what was typed, keeping invalid entries for fixing', () => {
    expect(mergeRecipients('919876543210\noops', ['919876543210', '14155550123'])).toBe('919876543210\noops\n14155550123');
    expect(mergeRecipients('', ['14155550123'])).toBe('14155550123');
  });

  it('previews the first recipients of a quick send with the shared values', () => {
    const rows = quickCampaignPreview(['911', '912', '913'], template, ['1', '2', 'city'], { '1': 'Asha' }, 2);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({
      recipient: '911',
      variables: '{{1}} = Asha',
      text: 'Hello Asha\n\nYour order {{2}} ships to {{city}}.\n\nReply STOP to opt out',
    });
  });
});

describe('customize: sheet, mapping and preview', () => {
  const rows = [
    { Name: 'Asha', Mobile: '+91 98765 43210', Order: 'A-1', city: 'Pune' },
    { Name: 'Ravi', Mobile: 'n/a', Order: 'A-2', city: 'Delhi' },
    { Name: 'Meena', Mobile: 919812345678, Order: 'A-3', city: 'Agra' },
    { Name: 'Kiran', Mobile: '919800000004', Order: 'A-4', city: 'Goa' },
  ];
  const columns = ['Name', 'Mobile', 'Order', 'city'];

  it('accepts the parse answer only with success and data', () => {
    expect(readParsedSheet({ success: true, data: { rows, columns, totalRows: 4, truncated: true } })).toEqual({
      rows,
      columns,
      totalRows: 4,
      truncated: true,
    });
    expect(readParsedSheet({ success: true, data: { rows: [], columns: [] } })).toEqual({ rows: [], columns: [], totalRows: 0, truncated: false });
    expect(() => readParsedSheet({ success: true })).toThrow(s.invalidResponseFormat);
    expect(() => readParsedSheet('<html>')).toThrow(s.invalidResponseFormat);
    expect(() => readParsedSheet({ success: false, error: 'Bad file' })).toThrow('Bad file');
  });

  it('guesses the phone column by name, else by a first value that is a number', () => {
    expect(guessRecipientColumn(columns, rows)).toBe('Mobile');
    expect(guessRecipientColumn(['who', 'to'], [{ who: 'Asha', to: '919876543210' }])).toBe('to');
    expect(guessRecipientColumn(['who'], [{ who: 'Asha' }])).toBe('');
    expect(guessRecipientColumn(['Order Number', 'Contact'], [{ 'Order Number': 'A-1', Contact: '919876543210' }])).toBe('Contact');
    expect(guessRecipientColumn(['Order Number', 'WhatsApp'], [{ 'Order Number': '12345678', WhatsApp: 'x' }])).toBe('Order Number');
    expect(effectiveRecipientColumn(null, columns, rows)).toBe('Mobile');
    expect(effectiveRecipientColumn('Order', columns, rows)).toBe('Order');
    expect(effectiveRecipientColumn('Gone', columns, rows)).toBe('Mobile');
  });

  it('maps named variables to a same-named column and lets the user override or clear it', () => {
    expect(effectiveMappings({}, ['1', 'city'], columns)).toEqual({ city: 'city' });
    expect(effectiveMappings({ '1': 'Name' }, ['1', 'city'], columns)).toEqual({ '1': 'Name', city: 'city' });
    expect(effectiveMappings({ city: '' }, ['1', 'city'], columns)).toEqual({});
    expect(effectiveMappings({ '1': 'Gone' }, ['1'], columns)).toEqual({});
    expect(allVariablesMapped(['1', 'city'], { '1': 'Name', city: 'city' })).toBe(true);
    expect(allVariablesMapped(['1', 'city'], { city: 'city' })).toBe(false);
  });

  it('sends numeric variable mappings, and named ones the server needs, for the template only', () => {
    expect(numericMappings({ '1': 'Name', '2': 'Order', city: 'city', '3': '' })).toEqual({ '1': 'Name', '2': 'Order' });
    expect(mappingsPayload({ '1': 'Name', '2': '', city: 'city', stray: 'Order' }, ['1', '2', 'city'])).toEqual({ '1': 'Name', city: 'city' });
  });

  it('generates up to three messages from the first rows and flags numbers that are not valid', () => {
    const preview = customPreview(rows, 'Mobile', ['1', '2', 'city'], { '1': 'Name', '2': 'Order', city: 'city' }, template);
    expect(preview).toHaveLength(3);
    expect(preview[0]).toEqual({
      row: 1,
      recipient: '919876543210',
      validRecipient: true,
      values: { '1': 'Asha', '2': 'A-1', city: 'Pune' },
      text: 'Hello Asha\n\nYour order A-1 ships to Pune.\n\nReply STOP to opt out',
    });
    expect(preview[1]).toMatchObject({ recipient: 'n/a', validRecipient: false });
    expect(preview[2]).toMatchObject({ recipient: '919812345678', validRecipient: true });
    expect(customPreview(rows, '', [], {}, template)).toEqual([]);
  });

  it('samples the recipient column for the cost preview', () => {
    expect(recipientSample(rows, 'Mobile', 2)).toEqual(['+91 98765 43210', 'n/a']);
    expect(recipientSample(Array.from({ length: 150 }, () => ({ p: '1' })), 'p')).toHaveLength(100);
  });
});

describe('files', () => {
  it('accepts .xlsx, .xls and .csv spreadsheets up to 10 MB', () => {
    expect(spreadsheetFileError({ name: 'List.XLSX', size: 1000 })).toBeNull();
    expect(spreadsheetFileError({ name: 'list.csv', size: 10 * MB })).toBeNull();
    expect(spreadsheetFileError({ name: 'list.pdf', size: 10 })).toBe(s.invalidFileTypeSpreadsheet);
    expect(spreadsheetFileError({ name: 'list.xls', size: 10 * MB + 1 })).toBe(s.recipientFileTooLarge);
    expect(importFileError({ name: 'numbers.txt', size: 10 })).toBe(s.importInvalidFileType);
    expect(importFileError({ name: 'numbers.csv', size: 11 * MB })).toBe(s.importFileTooLarge);
  });

  it('accepts JPG and PNG header images up to 5 MB', () => {
    expect(headerImageError({ name: 'a.png', type: 'image/png', size: 5 * MB })).toBeNull();
    expect(headerImageError({ name: 'a.jpg', type: 'image/jpeg', size: 10 })).toBeNull();
    expect(headerImageError({ name: 'a.JPEG', type: '', size: 10 })).toBeNull();
    expect(headerImageError({ name: 'a.gif', type: 'image/gif', size: 10 })).toBe(s.imageWrongType);
    expect(headerImageError({ name: 'a.png', type: 'image/png', size: 5 * MB + 1 })).toBe(s.imageTooLarge);
  });
});

describe('prices and cost', () => {
  it('prices by the template category, falling back to the spec defaults', () => {
    const prices = { marketing: '1.25', utility: '0.1234', authentication: '0.20' };
    expect(priceFor(prices, 'MARKETING')).toBe(1.25);
    expect(priceFor(prices, 'utility')).toBe(0.1234);
    expect(priceFor(null, 'AUTHENTICATION')).toBe(0.15);
    expect(priceFor({ ...prices, marketing: 'oops' }, 'MARKETING')).toBe(0.8);
  });

  it('multiplies in credit units and shows 2 decimals with Indian grouping', () => {
    expect(estimateCost(3, 0.15)).toBe(0.45);
    expect(estimateCost(100000, 0.8)).toBe(80000);
    expect(formatCost(80000)).toBe('₹80,000.00');
    expect(formatCost(123456.5)).toBe('₹1,23,456.50');
    expect(formatCost(-0.05)).toBe('−₹0.05');
    expect(formatPrice(0.8)).toBe('₹0.80');
    expect(formatPrice(0.1234)).toBe('₹0.1234');
  });
});

describe('campaign progress', () => {
  it('is the share of billable messages processed', () => {
    expect(campaignProgress(campaign())).toEqual({ percent: 50, processed: 2, total: 4, finished: false, pending: 2 });
  });

  it('is whole when completed or when nothing was billable', () => {
    expect(campaignProgress(campaign({ status: 'completed', processed: 4 })).percent).toBe(100);
    expect(campaignProgress(campaign({ billable: 0, processed: 0, status: 'running' })).percent).toBe(100);
    expect(campaignProgress(campaign({ status: 'cancelled', processed: 1 }))).toMatchObject({ percent: 25, finished: true });
  });
});

describe('failure texts', () => {
  it('says which send failed, with the server words or the status', () => {
    expect(sendFailure({ status: 402, serverMessage: 'Insufficient balance' }, false)).toEqual({
      title: s.sendingFailed,
      description: 'Insufficient balance',
    });
    expect(sendFailure({ status: 502 }, true)).toEqual({ title: s.bulkSendingFailed, description: 'Sending failed with status 502' });
    expect(sendFailure({ status: 0 }, false).description).toBe(messages.common.networkErrorRetry);
  });

  it('words list failures as the spec does', () => {
    expect(numbersLoadError({ status: 500 }, 'quick')).toBe('Error loading WhatsApp numbers. Status: 500. Please try again.');
    expect(numbersLoadError({ status: 0 }, 'quick')).toBe(s.connectionError);
    expect(numbersLoadError({ status: 0 }, 'customize')).toBe(s.connectionErrorCustomize);
    expect(templatesLoadError({ status: 503 })).toEqual({ title: 'Error loading templates', description: 'Status: 503. Please try again.' });
    expect(templatesLoadError({ status: 0 })).toEqual({ title: s.templatesLoadNetwork });
  });

  it('words upload and import failures with the server reason or the spec fallback', () => {
    expect(uploadFailure({ status: 400, serverMessage: 'Too many rows' })).toEqual({ title: 'Upload failed', description: 'Too many rows' });
    expect(uploadFailure({ status: 500 })).toEqual({ title: 'Upload failed', description: 'Please try again with a valid file' });
    expect(importFailure({ status: 400, serverMessage: s.noValidNumbers })).toEqual({ title: s.noValidNumbers, description: s.importHint });
    expect(importFailure({ status: 500 })).toEqual({ title: s.importFailed, description: s.importHint });
  });
});

describe('following a campaign after it completes', () => {
  const counts = { queued: 0, sending: 0, unknown: 0, sent: 0, delivered: 3, read: 0, failed: 0, duplicate: 0, suppressed: 0 };
  it('follows a running campaign, and a completed one while delivery reports are still due', () => {
    const completedAt = '2026-01-01T00:00:00.000Z';
    const at = (ms: number) => new Date(completedAt).getTime() + ms;
    expect(shouldFollowCampaign({ status: 'running', counts, completedAt: null })).toBe(true);
    expect(shouldFollowCampaign({ status: 'completed', counts, completedAt }, at(1000))).toBe(false);
    expect(shouldFollowCampaign({ status: 'completed', counts: { ...counts, sent: 1 }, completedAt }, at(1000))).toBe(true);
    expect(shouldFollowCampaign({ status: 'completed', counts: { ...counts, sent: 1 }, completedAt }, at(OUTCOME_FOLLOW_MS + 1))).toBe(false);
  });
});

describe('the later of two readings of a campaign', () => {
  const counts = { queued: 2, sending: 0, unknown: 0, sent: 2, delivered: 0, read: 0, failed: 0, duplicate: 0, suppressed: 0 };
  it('keeps the reading whose messages stand further along, so a late poll answer does not move the counts back', () => {
    const earlier = campaign({ counts, processed: 2 });
    const later = campaign({ counts: { ...counts, sent: 1, delivered: 1 }, processed: 2 });
    expect(laterCampaignReading(undefined, earlier)).toBe(earlier);
    expect(laterCampaignReading(earlier, later)).toBe(later);
    expect(laterCampaignReading(later, earlier)).toBe(later);
    // Same standing (a pause, say): the incoming one.
    const paused = campaign({ counts, processed: 2, status: 'paused' });
    expect(laterCampaignReading(earlier, paused)).toBe(paused);
  });

  it('never runs a finished campaign again, and takes another campaign as it comes', () => {
    const done = campaign({ counts: { ...counts, queued: 0, sent: 4 }, processed: 4, status: 'completed' });
    const stale = campaign({ counts, processed: 2 });
    expect(laterCampaignReading(done, stale)).toBe(done);
    expect(laterCampaignReading(stale, done)).toBe(done);
    const other = campaign({ id: 8, counts: { ...counts, queued: 4, sent: 0 }, processed: 0 });
    expect(laterCampaignReading(done, other)).toBe(other);
  });
});
