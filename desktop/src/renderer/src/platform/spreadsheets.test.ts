import { describe, expect, it, vi } from 'vitest';
import type { BridgeResult, DesktopSpreadsheets } from '@shared/desktop';
import type { SpreadsheetProgress } from '@shared/spreadsheets';
import { desktopSpreadsheets } from './spreadsheets';
import { normalisedFileName, WEB_SPREADSHEET_MAX_BYTES, webFileProblem } from './webSpreadsheets';

const ok = <T>(value: T): Promise<BridgeResult<T>> => Promise.resolve({ ok: true, value });
const fail = <T>(error: string): Promise<BridgeResult<T>> => Promise.resolve({ ok: false, error });
const file = { fileId: 'f1', filename: 'list.xlsx', size: 10 };

function fakeBridge(overrides: Partial<DesktopSpreadsheets> = {}): DesktopSpreadsheets {
  return {
    pick: () => ok(file),
    openDropped: () => ok(file),
    recent: () => ok([file]),
    parse: () => ok({ fileId: 'f1', filename: 'list.xlsx', size: 10, rows: 1, header: ['Mobile'], sample: [], columns: [] }),
    prepare: () => ok({ preparedId: 'p1', fileId: 'f1', validRows: 1, invalidRows: 0, duplicatesRemoved: 0, invalidSample: [], preparedSize: 5 }),
    saveInvalidRows: () => ok(false),
    upload: () => ok({ preparedId: 'p1', uploadId: 'u1', filename: 'list.csv.gz', size: 5, sentBytes: 5, state: 'complete' }),
    pauseUpload: () => ok(null),
    resumeUpload: () => ok({ preparedId: 'p1', uploadId: 'u1', filename: 'list.csv.gz', size: 5, sentBytes: 5, state: 'complete' }),
    pendingUploads: () => ok([]),
    onProgress: () => () => undefined,
    setTaskbarProgress: () => ok(null),
    notify: () => ok(null),
    ...overrides,
  };
}

describe('desktopSpreadsheets', () => {
  it('answers the bridge values and throws its errors as they are (catalogue texts)', async () => {
    const sheets = desktopSpreadsheets(fakeBridge({ parse: () => fail('This file is no longer open. Please choose it again.') }));
    expect(await sheets.pick?.()).toEqual(file);
    expect(await sheets.recent()).toEqual([file]);
    expect((await sheets.upload('p1')).uploadId).toBe('u1');
    await expect(sheets.parse('f1')).rejects.toThrow('This file is no longer open. Please choose it again.');
    expect(sheets.maxFileBytes).toBeNull();
  });

  it('passes progress through and never lets the taskbar bar fail a send', async () => {
    const listeners: ((progress: SpreadsheetProgress) => void)[] = [];
    const setTaskbarProgress = vi.fn(() => Promise.reject(new Error('no window')));
    const sheets = desktopSpreadsheets(fakeBridge({ onProgress: (listener) => (listeners.push(listener), () => undefined), setTaskbarProgress }));
    const seen: number[] = [];
    sheets.onProgress((progress) => seen.push(progress.rows));
    listeners[0]?.({ fileId: 'f1', phase: 'parsing', rows: 7, bytes: 1, totalBytes: 2, percent: 50 });
    expect(seen).toEqual([7]);
    expect(() => sheets.setTaskbarProgress(0.5)).not.toThrow();
    await Promise.resolve();
    expect(setTaskbarProgress).toHaveBeenCalledWith(0.5);
  });
});

describe('the web shell', () => {
  it('takes CSV, gzip CSV, .xlsx and .xls files the browser can hold, and points larger ones to the desktop app', () => {
    expect(webFileProblem({ name: 'List.CSV', size: 10 })).toBeNull();
    expect(webFileProblem({ name: 'list.csv.gz', size: 10 })).toBeNull();
    expect(webFileProblem({ name: 'list.xlsx', size: WEB_SPREADSHEET_MAX_BYTES })).toBeNull();
    expect(webFileProblem({ name: 'List.XLS', size: 10 })).toBeNull();
    expect(webFileProblem({ name: 'list.xlsb', size: 10 })).toMatch(/not a CSV/);
    expect(webFileProblem({ name: 'list.xlsx', size: WEB_SPREADSHEET_MAX_BYTES + 1 })).toMatch(/desktop app/);
  });

  it('names the normalised upload after the file, as a gzip CSV', () => {
    expect(normalisedFileName('customers.xlsx')).toBe('customers.csv.gz');
    expect(normalisedFileName('customers.csv.gz')).toBe('customers.csv.gz');
    expect(normalisedFileName('customers.xls')).toBe('customers.csv.gz');
    expect(normalisedFileName('customers')).toBe('customers.csv.gz');
  });
});
