import { describe, expect, it } from 'vitest';
import type { TTemplate, TTemplateComponent } from '@shared/types';
import {
  allVariablesMapped,
  customPreview,
  customSendLabel,
  customSendPath,
  customizeFormReducer,
  initialCustomizeForm,
  mappingsPayload,
  type CustomizeAction,
} from './customize';

const template = {
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
    { type: 'BODY', text: 'Your order {{2}} ships to {{city}}.' },
    { type: 'FOOTER', text: 'Reply STOP to opt out' },
  ] satisfies TTemplateComponent[],
};

describe('customize: endpoint and label', () => {
  it('takes the bulk path for more than 50 rows', () => {
    expect(customSendPath(1)).toBe('/api/whatsapp/send-custom-messages');
    expect(customSendPath(51)).toBe('/api/whatsapp/bulk-customize-send');
  });

  it('labels the send button with the count in Indian grouping', () => {
    expect(customSendLabel(3)).toBe('Send Messages (3)');
    expect(customSendLabel(51)).toBe('Bulk Send (51)');
  });
});

describe('customize: mapping and preview', () => {
  const rows = [
    { Name: 'Asha', Mobile: '+91 98765 43210', Order: 'A-1', city: 'Pune' },
    { Name: 'Ravi', Mobile: 'n/a', Order: 'A-2', city: 'Delhi' },
    { Name: 'Meena', Mobile: 919812345678, Order: 'A-3', city: 'Agra' },
    { Name: 'Kiran', Mobile: '919800000004', Order: 'A-4', city: 'Goa' },
  ];

  it('knows when every variable has a column', () => {
    expect(allVariablesMapped(['1', 'city'], { '1': 'Name', city: 'city' })).toBe(true);
    expect(allVariablesMapped(['1', 'city'], { city: 'city' })).toBe(false);
  });

  it('sends the mapping of the template’s variables that have a column, named ones too', () => {
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
      missing: null,
      refused: null,
      text: 'Hello Asha\n\nYour order A-1 ships to Pune.\n\nReply STOP to opt out',
    });
    expect(preview[1]).toMatchObject({ recipient: 'n/a', validRecipient: false });
    expect(preview[2]).toMatchObject({ recipient: '919812345678', validRecipient: true });
    expect(customPreview(rows, '', [], {}, template)).toEqual([]);
  });

  it('says which row the send will skip for an empty mapped cell', () => {
    const preview = customPreview([{ Mobile: '919876543210', Name: '  ', Order: 'A-1' }], 'Mobile', ['1', '2'], { '1': 'Name', '2': 'Order' }, template);
    expect(preview[0]).toMatchObject({ values: { '1': '', '2': 'A-1' }, missing: { name: '1', column: 'Name' } });
  });

  it('says which row the send will count invalid for a value WhatsApp refuses, as the server does', () => {
    const preview = customPreview([{ Mobile: '919876543210', Name: 'Asha', Order: 'A-1\nA-2' }], 'Mobile', ['1', '2'], { '1': 'Name', '2': 'Order' }, template);
    expect(preview[0]).toMatchObject({ missing: null, refused: { key: '2', reason: 'control_character', column: 'Order' } });
  });
});

describe('customize: the form', () => {
  const template = (name: string) => ({ name }) as TTemplate;
  const act = (...actions: CustomizeAction[]) => actions.reduce(customizeFormReducer, initialCustomizeForm());

  it('starts empty, in the default language', () => {
    expect(initialCustomizeForm()).toEqual({ numberId: '', language: 'en_US', template: null, campaignName: '', preview: null });
  });

  it('forgets the template and the preview when the language changes', () => {
    const form = act({ type: 'templateChosen', template: template('offer') }, { type: 'previewGenerated', rows: [] }, { type: 'languageChosen', language: 'hi' });
    expect(form).toMatchObject({ language: 'hi', template: null, preview: null });
  });

  it('keeps the form when the same template is chosen again', () => {
    const chosen = act({ type: 'templateChosen', template: template('offer') });
    expect(customizeFormReducer(chosen, { type: 'templateChosen', template: template('offer') })).toBe(chosen);
    expect(customizeFormReducer(chosen, { type: 'templateChosen', template: template('other') }).template?.name).toBe('other');
  });

  it('drops a generated preview when the file, a column or a mapping changes', () => {
    const previewed = act({ type: 'previewGenerated', rows: [] });
    expect(previewed.preview).toEqual([]);
    expect(customizeFormReducer(previewed, { type: 'previewCleared' }).preview).toBeNull();
  });

  it('clears number, template, name and preview after a send, keeping the language', () => {
    const form = act(
      { type: 'numberChosen', numberId: 'n1' },
      { type: 'languageChosen', language: 'hi' },
      { type: 'templateChosen', template: template('offer') },
      { type: 'campaignNamed', name: 'Diwali' },
      { type: 'previewGenerated', rows: [] },
      { type: 'sent' },
    );
    expect(form).toEqual({ ...initialCustomizeForm(), language: 'hi' });
  });
});
