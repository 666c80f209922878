import { describe, expect, it } from 'vitest';
import type { TTemplate, TTemplateComponent } from '@shared/types';
import {
  allVariablesMapped,
  customPreview,
  customSendLabel,
  customSendPath,
  customizeFormReducer,
  effectiveMappings,
  effectiveRecipientColumn,
  guessRecipientColumn,
  initialCustomizeForm,
  mappingsPayload,
  uploadFailure,
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

  it('words upload failures with the server reason or the spec fallback', () => {
    expect(uploadFailure({ status: 400, serverMessage: 'Too many rows' })).toEqual({ title: 'Upload failed', description: 'Too many rows' });
    expect(uploadFailure({ status: 500 })).toEqual({ title: 'Upload failed', description: 'Please try again with a valid file' });
  });
});

describe('customize: mapping and preview', () => {
  const rows = [
    { Name: 'Asha', Mobile: '+91 98765 43210', Order: 'A-1', city: 'Pune' },
    { Name: 'Ravi', Mobile: 'n/a', Order: 'A-2', city: 'Delhi' },
    { Name: 'Meena', Mobile: 919812345678, Order: 'A-3', city: 'Agra' },
    { Name: 'Kiran', Mobile: '919800000004', Order: 'A-4', city: 'Goa' },
  ];
  const columns = ['Name', 'Mobile', 'Order', 'city'];

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
});

describe('customize: the form', () => {
  const template = (name: string) => ({ name }) as TTemplate;
  const sheet = { rows: [{ Phone: '919876543210' }], columns: ['Phone'], totalRows: 1, truncated: false };
  const file = new File(['Phone\n919876543210'], 'list.csv');
  const act = (...actions: CustomizeAction[]) => actions.reduce(customizeFormReducer, initialCustomizeForm());

  it('starts empty, in the default language', () => {
    expect(initialCustomizeForm()).toMatchObject({ numberId: '', language: 'en_US', template: null, loaded: null, preview: null });
  });

  it('forgets the template, its mapping and the preview when the language changes', () => {
    const form = act(
      { type: 'templateChosen', template: template('offer') },
      { type: 'variableMapped', variable: '1', column: 'Phone' },
      { type: 'languageChosen', language: 'hi' },
    );
    expect(form).toMatchObject({ language: 'hi', template: null, mappingChoices: {}, preview: null });
  });

  it('keeps the mapping when the same template is chosen again, and drops it for another', () => {
    const mapped = act({ type: 'templateChosen', template: template('offer') }, { type: 'variableMapped', variable: '1', column: 'Phone' });
    expect(customizeFormReducer(mapped, { type: 'templateChosen', template: template('offer') })).toBe(mapped);
    expect(customizeFormReducer(mapped, { type: 'templateChosen', template: template('other') }).mappingChoices).toEqual({});
  });

  it('follows an upload from start to the sheet read, or to its failure', () => {
    const uploading = act({ type: 'recipientColumnChosen', column: 'Old' }, { type: 'uploadStarted', file }, { type: 'uploadProgressed', progress: 0.5 });
    expect(uploading).toMatchObject({ uploading: file, uploadProgress: 0.5, columnChoice: null, loaded: null });
    expect(customizeFormReducer(uploading, { type: 'sheetLoaded', file, sheet })).toMatchObject({ uploading: null, uploadProgress: null, loaded: { file, sheet } });
    expect(customizeFormReducer(uploading, { type: 'uploadFailed' })).toMatchObject({ uploading: null, uploadProgress: null, loaded: null });
  });

  it('drops a generated preview when anything it was made from changes', () => {
    const previewed = act({ type: 'sheetLoaded', file, sheet }, { type: 'previewGenerated', rows: [] });
    expect(previewed.preview).toEqual([]);
    expect(customizeFormReducer(previewed, { type: 'recipientColumnChosen', column: 'Phone' }).preview).toBeNull();
    expect(customizeFormReducer(previewed, { type: 'variableMapped', variable: '1', column: 'Phone' }).preview).toBeNull();
    expect(customizeFormReducer(previewed, { type: 'fileCleared' })).toMatchObject({ preview: null, loaded: null });
  });

  it('clears number, template, name, file and mapping after a send, keeping the language', () => {
    const form = act(
      { type: 'numberChosen', numberId: 'n1' },
      { type: 'languageChosen', language: 'hi' },
      { type: 'templateChosen', template: template('offer') },
      { type: 'campaignNamed', name: 'Diwali' },
      { type: 'sheetLoaded', file, sheet },
      { type: 'variableMapped', variable: '1', column: 'Phone' },
      { type: 'sent' },
    );
    expect(form).toEqual({ ...initialCustomizeForm(), language: 'hi' });
  });
});
