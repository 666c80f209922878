import { describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import type { TTemplateComponent } from '@shared/types';
import {
  defaultCampaignName,
  describeVariables,
  firstMissingVariable,
  importFailure,
  mergeRecipients,
  parseRecipientList,
  quickCampaignPreview,
  quickSendLabel,
  quickSendPath,
  variablesComplete,
  variablesPayload,
} from './quickSend';

const s = messages.sending;

const template = {
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
    { type: 'BODY', text: 'Your order {{2}} ships to {{city}}.' },
    { type: 'FOOTER', text: 'Reply STOP to opt out' },
  ] satisfies TTemplateComponent[],
};

describe('variables', () => {
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

  it('describes the values shared by every recipient', () => {
    expect(describeVariables({ '1': 'Asha', city: 'Pune' }, ['1', '2', 'city'])).toBe('{{1}} = Asha, {{city}} = Pune');
    expect(describeVariables({}, ['1'])).toBe('—');
  });
});

describe('recipients, endpoint and label', () => {
  it('counts recipients with the shared rules: normalised, de-duplicated, invalid skipped', () => {
    const list = parseRecipientList('+91 98765-43210\n919876543210, 14155550123\nabc\n\n123');
    expect(list.valid).toEqual(['919876543210', '14155550123']);
    expect(list.invalid).toEqual(['abc', '123']);
    expect(list.duplicates).toBe(1);
  });

  it('takes the bulk path for more than 50', () => {
    expect(quickSendPath(50)).toBe('/api/whatsapp/quick-send');
    expect(quickSendPath(51)).toBe('/api/whatsapp/bulk-quick-send');
  });

  it('labels the send button with the count in Indian grouping', () => {
    expect(quickSendLabel(12)).toBe('Quick Send (12)');
    expect(quickSendLabel(120000)).toBe('Bulk Send (1,20,000)');
  });

  it('names an unnamed campaign after Quick Send, the template and the time', () => {
    expect(defaultCampaignName('diwali_offer', new Date(2025, 10, 5, 9, 7))).toBe('Quick Send - diwali_offer - 2025-11-05 09:07');
  });

  it('adds imported numbers once, after what was typed, keeping invalid entries for fixing', () => {
    expect(mergeRecipients('919876543210\noops', ['919876543210', '14155550123'])).toBe('919876543210\noops\n14155550123');
    expect(mergeRecipients('', ['14155550123'])).toBe('14155550123');
  });

  it('words import failures with the server reason or the spec fallback', () => {
    expect(importFailure({ status: 400, serverMessage: s.noValidNumbers })).toEqual({ title: s.noValidNumbers, description: s.importHint });
    expect(importFailure({ status: 500 })).toEqual({ title: s.importFailed, description: s.importHint });
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
