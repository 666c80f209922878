import { describe, expect, it } from 'vitest';
import type { PreparedSpreadsheet, SpreadsheetProgress, SpreadsheetSummary } from '@shared/spreadsheets';
import {
  autoMappedVariables,
  effectiveMapping,
  firstUnmapped,
  INITIAL_LOCAL_SHEET,
  localSheetReducer,
  mappingFieldInvalid,
  mappingVariables,
  NO_CHOICES,
  progressText,
  readyUploadId,
  RECIPIENT_FIELD,
  sameMapping,
  sheetRowCount,
  taskbarFraction,
  type LocalSheetAction,
} from './localSheet';

const summary: SpreadsheetSummary = {
  fileId: 'f1',
  filename: 'customers.csv',
  size: 120,
  rows: 3,
  header: ['Customer', 'Mobile', 'Order No', 'city'],
  sample: [
    { Customer: 'Asha', Mobile: '919876543210', 'Order No': 'A-1', city: 'Pune' },
    { Customer: 'Ravi', Mobile: '919812345678', 'Order No': 'A-2', city: 'Agra' },
  ],
  columns: [],
};
const variables = mappingVariables(['1', 'city'], { '1': 'Customer' });

const progress = (over: Partial<SpreadsheetProgress> = {}): SpreadsheetProgress => ({ fileId: 'f1', phase: 'parsing', rows: 120000, bytes: 50, totalBytes: 100, percent: 45.6, ...over });
const prepared: PreparedSpreadsheet = { preparedId: 'p1', fileId: 'f1', validRows: 2, invalidRows: 1, duplicatesRemoved: 0, invalidSample: [], preparedSize: 80 };

describe('the mapping', () => {
  it("maps columns whose header matches a variable's name or example, and finds the phone column", () => {
    expect(effectiveMapping(summary, variables, NO_CHOICES)).toEqual({ recipientColumn: 'Mobile', variableMappings: { '1': 'Customer', city: 'city' } });
    expect(autoMappedVariables(summary, variables, NO_CHOICES)).toEqual(['1', 'city']);
  });

  it("puts the user's choices over the suggestions; '' is no column, a column not in the file does not stand", () => {
    const choices = { recipientColumn: 'Gone', variables: { '1': 'Order No', city: '' }, touched: {} };
    expect(effectiveMapping(summary, variables, choices)).toEqual({ recipientColumn: 'Mobile', variableMappings: { '1': 'Order No' } });
    expect(autoMappedVariables(summary, variables, choices)).toEqual([]);
    expect(firstUnmapped(effectiveMapping(summary, variables, choices), variables)).toBe('city');
  });

  it('shows an empty field as an error only once touched or after a send was tried', () => {
    expect(mappingFieldInvalid('1', '', NO_CHOICES, false)).toBe(false);
    expect(mappingFieldInvalid('1', '', { ...NO_CHOICES, touched: { '1': true } }, false)).toBe(true);
    expect(mappingFieldInvalid('1', '', NO_CHOICES, true)).toBe(true);
    expect(mappingFieldInvalid('1', 'Customer', NO_CHOICES, true)).toBe(false);
  });

  it('compares mappings as the rules read them', () => {
    expect(sameMapping({ recipientColumn: 'Mobile', variableMappings: { '{{1}}': 'Customer', '2': '' } }, { recipientColumn: 'Mobile', variableMappings: { '1': 'Customer' } })).toBe(true);
    expect(sameMapping({ recipientColumn: 'Mobile', variableMappings: {} }, { recipientColumn: 'Phone', variableMappings: {} })).toBe(false);
    expect(sameMapping(null, { recipientColumn: 'Mobile', variableMappings: {} })).toBe(false);
  });
});

describe('progress', () => {
  it('counts rows in Indian grouping and the upload in bytes', () => {
    expect(progressText(progress())).toBe('Reading the file: 1,20,000 rows (45%)');
    expect(progressText(progress({ phase: 'checking', rows: 1000000, percent: 100 }))).toBe('Checking every row: 10,00,000 rows (100%)');
    expect(progressText(progress({ phase: 'uploading', bytes: 512 * 1024, totalBytes: 2 * 1024 * 1024, percent: 25 }))).toBe('Uploading: 512 KB of 2.0 MB (25%)');
  });

  it('says an upload waiting for the server is queued, and its place in line', () => {
    expect(progressText(progress({ phase: 'queued', percent: 100, queuePosition: 3 }))).toBe(
      'Queued: the server is reading other files first. This one is number 3 in line.',
    );
  });

  it('drives the taskbar bar while a step runs and removes it after', () => {
    expect(taskbarFraction(progress({ percent: 40 }))).toBe(0.4);
    expect(taskbarFraction(progress({ percent: 100 }))).toBe(-1);
    expect(taskbarFraction(null)).toBe(-1);
  });
});

describe('the step', () => {
  const act = (...actions: LocalSheetAction[]) => actions.reduce(localSheetReducer, INITIAL_LOCAL_SHEET);
  const file = { fileId: 'f1', filename: 'customers.csv', size: 120 };
  const mapping = { recipientColumn: 'Mobile', variableMappings: { '1': 'Customer' } };

  it('follows a file from parse to a complete upload that a send can name', () => {
    const state = act(
      { type: 'opened', file },
      { type: 'progressed', progress: progress() },
      { type: 'parsed', summary },
      { type: 'preparing' },
      { type: 'prepared', prepared, mapping },
      { type: 'uploading' },
      { type: 'uploadSettled', upload: { preparedId: 'p1', uploadId: 'u1', filename: 'customers.csv.gz', size: 80, sentBytes: 80, state: 'complete' } },
    );
    expect(state.step).toBe('uploaded');
    expect(readyUploadId(state, mapping)).toBe('u1');
    expect(sheetRowCount(state)).toBe(2);
    // Another mapping than the one checked needs the rows checked again.
    expect(readyUploadId(state, { ...mapping, recipientColumn: 'Order No' })).toBeNull();
  });

  it('ignores progress of another file or after its step ended', () => {
    const parsed = act({ type: 'opened', file }, { type: 'parsed', summary });
    expect(localSheetReducer(parsed, { type: 'progressed', progress: progress() })).toBe(parsed);
    const parsing = act({ type: 'opened', file });
    expect(localSheetReducer(parsing, { type: 'progressed', progress: progress({ fileId: 'other' }) })).toBe(parsing);
  });

  it('falls back to the last step that stands when one fails', () => {
    expect(act({ type: 'opened', file }, { type: 'failed', error: 'bad' })).toMatchObject({ step: 'idle', file: null, error: 'bad' });
    expect(act({ type: 'opened', file }, { type: 'parsed', summary }, { type: 'preparing' }, { type: 'failed', error: 'bad' })).toMatchObject({ step: 'parsed', error: 'bad' });
    const uploading = act({ type: 'opened', file }, { type: 'parsed', summary }, { type: 'preparing' }, { type: 'prepared', prepared, mapping }, { type: 'uploading' });
    expect(localSheetReducer(uploading, { type: 'failed', error: 'network' })).toMatchObject({ step: 'paused', error: 'network' });
  });

  it('pauses an upload, remembers touched fields, and forgets choices for another template', () => {
    const paused = act(
      { type: 'opened', file },
      { type: 'parsed', summary },
      { type: 'recipientChosen', column: 'Mobile' },
      { type: 'variableChosen', variable: '1', column: '' },
      { type: 'uploadSettled', upload: { preparedId: 'p1', uploadId: 'u1', filename: 'c.csv.gz', size: 80, sentBytes: 40, state: 'paused' } },
    );
    expect(paused.step).toBe('paused');
    expect(paused.choices.touched).toEqual({ [RECIPIENT_FIELD]: true, '1': true });
    expect(localSheetReducer(paused, { type: 'choicesReset' }).choices).toEqual(NO_CHOICES);
    expect(localSheetReducer(paused, { type: 'cleared' })).toEqual(INITIAL_LOCAL_SHEET);
  });
});
