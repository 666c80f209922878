/**
 * The spreadsheets IPC handlers in plain Node: fakes for the local spreadsheet module, the upload
 * client, the dialogs, the notifier and the taskbar; the real settings store (recent files) and
 * real files in a temporary directory.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IpcMainInvokeEvent } from 'electron';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SPREADSHEET_CHANNELS, type BridgeResult } from '@shared/desktop';
import { fillMessage, messages } from '@shared/messages';
import type { PreparedSpreadsheet, SpreadsheetFileRef, SpreadsheetMapping, SpreadsheetProgress, SpreadsheetSummary, SpreadsheetUpload } from '@shared/spreadsheets';
import { createSettingsStore, RECENT_FILES_LIMIT, SETTINGS_FILE, type SettingsStore } from '../settings';
import type { LocalSpreadsheets, PreparedFile } from '../spreadsheets';
import type { UploadClient, UploadSource } from '../uploads';
import { registerSpreadsheetIpc, UNTRUSTED_SENDER_ERROR, type SpreadsheetSenderEvent } from './register';
import {
  createSpreadsheetHandlers,
  hasAcceptedExtension,
  isCatalogueText,
  MAX_NOTIFICATION_LENGTH,
  SPREADSHEET_INVOKE_METHODS,
  spreadsheetPathsFromArgs,
  type OpenDialogRequest,
  type ProgressTarget,
  type SaveDialogRequest,
  type SpreadsheetHandlers,
} from './spreadsheets';

const text = messages.desktopFiles;

function progress(fileId: string, percent: number, phase: SpreadsheetProgress['phase'] = 'parsing'): SpreadsheetProgress {
  return { fileId, phase, rows: percent * 10, bytes: percent, totalBytes: 100, percent };
}

/** Records what reached the page. */
class FakeCaller implements ProgressTarget {
  sent: Array<{ channel: string; progress: SpreadsheetProgress }> = [];
  destroyed = false;
  send(channel: string, value: SpreadsheetProgress): void {
    this.sent.push({ channel, progress: value });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

/** The local module: ids for opened paths, three progress steps per parse, a prepared file per prepare. */
class FakeSpreadsheets implements LocalSpreadsheets {
  opened = new Map<string, string>();
  prepared = new Map<string, PreparedFile>();
  failParseWith: Error | null = null;
  /** Lets a test hold a parse open to overlap it with another operation. */
  parseGate: Promise<void> = Promise.resolve();
  writes: Array<{ preparedId: string; target: string }> = [];
  closed = false;

  async open(filePath: string): Promise<SpreadsheetFileRef> {
    const fileId = `file-${this.opened.size + 1}`;
    this.opened.set(fileId, filePath);
    return { fileId, filename: path.basename(filePath), size: 100 };
  }
  async parse(fileId: string, onProgress: (p: SpreadsheetProgress) => void): Promise<SpreadsheetSummary> {
    const filePath = this.opened.get(fileId);
    if (!filePath) throw new Error(messages.desktopFiles.fileIdInvalid);
    for (const percent of [10, 60, 100]) onProgress(progress(fileId, percent));
    await this.parseGate;
    if (this.failParseWith) throw this.failParseWith;
    return { fileId, filename: path.basename(filePath), size: 100, rows: 2, header: ['phone'], sample: [{ phone: '919876543210' }], columns: [] };
  }
  async prepare(fileId: string, mapping: SpreadsheetMapping, onProgress: (p: SpreadsheetProgress) => void): Promise<PreparedSpreadsheet> {
    onProgress(progress(fileId, 50, 'checking'));
    const preparedId = `prepared-${this.prepared.size + 1}`;
    this.prepared.set(preparedId, { preparedId, path: `/work/prepared/${preparedId}.csv.gz`, filename: `${mapping.recipientColumn}.csv.gz`, size: 42 });
    return { preparedId, fileId, validRows: 2, invalidRows: 0, duplicatesRemoved: 0, invalidSample: [], preparedSize: 42 };
  }
  preparedFile(preparedId: string): PreparedFile | undefined {
    return this.prepared.get(preparedId);
  }
  async writeInvalidRows(preparedId: string, target: string): Promise<void> {
    this.writes.push({ preparedId, target });
    await writeFile(target, 'line,value,reason\n');
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

class FakeUploads implements UploadClient {
  started: UploadSource[] = [];
  paused: string[] = [];
  failWith: Error | null = null;
  async upload(source: UploadSource, onProgress: (p: SpreadsheetProgress) => void): Promise<SpreadsheetUpload> {
    this.started.push(source);
    onProgress(progress(source.preparedId, 50, 'uploading'));
    if (this.failWith) throw this.failWith;
    return { preparedId: source.preparedId, uploadId: 'upload-1', filename: source.filename, size: source.size, sentBytes: source.size, state: 'complete' };
  }
  pause(preparedId: string): void {
    this.paused.push(preparedId);
  }
  async resume(preparedId: string, onProgress: (p: SpreadsheetProgress) => void): Promise<SpreadsheetUpload> {
    onProgress(progress(preparedId, 80, 'uploading'));
    return { preparedId, uploadId: 'upload-1', filename: 'f.csv.gz', size: 42, sentBytes: 42, state: 'complete' };
  }
  async pending(): Promise<SpreadsheetUpload[]> {
    return [{ preparedId: 'prepared-9', uploadId: 'upload-9', filename: 'old.csv.gz', size: 10, sentBytes: 5, state: 'paused' }];
  }
}

let dir = '';
let settings: SettingsStore;
let sheets: FakeSpreadsheets;
let uploads: FakeUploads;
let caller: FakeCaller;
let taskbar: number[];
let notified: Array<[string, string]>;
let logged: unknown[];
let openAnswer: string | null;
let saveAnswer: string | null;
let openRequests: OpenDialogRequest[];
let saveRequests: SaveDialogRequest[];
let handlers: SpreadsheetHandlers;

async function file(name: string, content = 'phone\n919876543210\n'): Promise<string> {
  const filePath = path.join(dir, name);
  await writeFile(filePath, content);
  return filePath;
}

function value<T>(result: BridgeResult<T>): T {
  if (!result.ok) throw new Error(`expected ok, got: ${result.error}`);
  return result.value;
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sandesh-sheets-ipc-'));
  settings = createSettingsStore({ dir: path.join(dir, 'settings'), env: {} });
  sheets = new FakeSpreadsheets();
  uploads = new FakeUploads();
  caller = new FakeCaller();
  taskbar = [];
  notified = [];
  logged = [];
  openAnswer = null;
  saveAnswer = null;
  openRequests = [];
  saveRequests = [];
  handlers = createSpreadsheetHandlers({
    spreadsheets: sheets,
    uploads,
    dialogs: {
      openSpreadsheet: async (request) => {
        openRequests.push(request);
        return openAnswer;
      },
      saveFile: async (request) => {
        saveRequests.push(request);
        return saveAnswer;
      },
    },
    recentFiles: settings,
    notify: (title, body) => void notified.push([title, body]),
    setTaskbarProgress: (fraction) => void taskbar.push(fraction),
    log: (_context, error) => void logged.push(error),
  });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('accepted spreadsheet names', () => {
  it('accepts .csv, .csv.gz, .gz, .xlsx and .xls in any case, nothing else', () => {
    for (const name of ['a.csv', 'A.CSV', 'b.csv.gz', 'c.gz', 'd.xlsx', 'E.XlSx', 'f.xls', 'G.XLS']) expect(hasAcceptedExtension(name), name).toBe(true);
    for (const name of ['a.txt', 'a.xlsb', 'a.csv.exe', 'a.xlsm', 'csv', '.csv', 'a.json', 'a']) expect(hasAcceptedExtension(name), name).toBe(false);
  });
});

describe('files handed over on the command line (file associations)', () => {
  it('keeps absolute spreadsheet paths and skips switches, relative paths and other files', () => {
    const args = ['--no-sandbox', '.', '/home/asha/Leads.xlsx', 'relative.csv', '/home/asha/notes.txt', '--flag=/x.csv', '/tmp/list.csv.gz'];
    expect(spreadsheetPathsFromArgs(args)).toEqual(['/home/asha/Leads.xlsx', '/tmp/list.csv.gz']);
  });
});

describe('pick', () => {
  it('shows the open dialog filtered to spreadsheets and opens the chosen file', async () => {
    openAnswer = await file('contacts.csv');
    const ref = value(await handlers.pick(caller));
    expect(ref).toEqual({ fileId: 'file-1', filename: 'contacts.csv', size: 100 });
    expect(openRequests).toEqual([{ title: text.pickTitle, filters: [{ name: text.pickFilterName, extensions: ['csv', 'gz', 'xlsx', 'xls'] }] }]);
    expect(sheets.opened.get('file-1')).toBe(openAnswer);
    expect(await settings.getRecentFiles()).toEqual([openAnswer]);
  });

  it('answers null when the user cancels', async () => {
    expect(await handlers.pick(caller)).toEqual({ ok: true, value: null });
    expect(sheets.opened.size).toBe(0);
  });

  it('refuses a file of another type chosen through the dialog', async () => {
    openAnswer = await file('notes.txt');
    expect(await handlers.pick(caller)).toEqual({ ok: false, error: text.notAccepted });
    expect(sheets.opened.size).toBe(0);
  });
});

describe('openDropped', () => {
  it('opens an existing spreadsheet by its path and remembers it', async () => {
    const dropped = await file('Leads.XLSX');
    expect(value(await handlers.openDropped(caller, dropped))).toMatchObject({ fileId: 'file-1', filename: 'Leads.XLSX' });
    expect(await settings.getRecentFiles()).toEqual([dropped]);
  });

  it('refuses paths outside the accepted extensions, missing files, folders and non-paths', async () => {
    const folder = path.join(dir, 'folder.csv');
    await mkdir(folder);
    const cases: Array<[unknown, string]> = [
      [await file('script.sh'), text.notAccepted],
      [await file('book.xlsb'), text.notAccepted],
      [path.join(dir, 'missing.csv'), text.notFound],
      [folder, text.notFound],
      ['relative/contacts.csv', text.pathInvalid],
      [`${dir}/a\0.csv`, text.pathInvalid],
      ['', text.pathInvalid],
      [42, text.pathInvalid],
      [{ path: '/x.csv' }, text.pathInvalid],
      [undefined, text.pathInvalid],
      [`/${'a'.repeat(5000)}.csv`, text.pathInvalid],
    ];
    for (const [input, error] of cases) expect(await handlers.openDropped(caller, input), String(input).slice(0, 80)).toEqual({ ok: false, error });
    expect(sheets.opened.size).toBe(0);
    expect(await settings.getRecentFiles()).toEqual([]);
  });
});

describe('recent', () => {
  it(`keeps the last ${RECENT_FILES_LIMIT} in the settings, newest first, and returns only files that still exist`, async () => {
    const paths: string[] = [];
    for (let i = 1; i <= RECENT_FILES_LIMIT + 2; i += 1) {
      const filePath = await file(`list-${i}.csv`);
      paths.push(filePath);
      value(await handlers.openDropped(caller, filePath));
    }
    // Opening one again moves it to the front rather than listing it twice.
    value(await handlers.openDropped(caller, paths[5]!));
    const expected = [paths[5]!, ...paths.slice(2).reverse().filter((p) => p !== paths[5])];
    expect(await settings.getRecentFiles()).toEqual(expected);

    await rm(paths[11]!);
    await rm(paths[7]!);
    const refs = value(await handlers.recent(caller));
    const stillThere = expected.filter((p) => p !== paths[11] && p !== paths[7]);
    expect(refs.map((ref) => ref.filename)).toEqual(stillThere.map((p) => path.basename(p)));
    // The missing ones are dropped from the settings too, and the file holds nothing else.
    expect(await settings.getRecentFiles()).toEqual(stillThere);
    const saved = JSON.parse(await readFile(path.join(dir, 'settings', SETTINGS_FILE), 'utf8')) as { recentFiles: string[] };
    expect(saved.recentFiles).toEqual(stillThere);
  });

  it('ignores corrupt entries in the settings file', async () => {
    const kept = await file('kept.csv');
    await mkdir(path.join(dir, 'settings'), { recursive: true });
    await writeFile(path.join(dir, 'settings', SETTINGS_FILE), JSON.stringify({ recentFiles: [kept, 7, 'relative.csv', null] }));
    expect(value(await handlers.recent(caller)).map((ref) => ref.filename)).toEqual(['kept.csv']);
  });
});

describe('parse and prepare', () => {
  it('forwards progress to the calling page and the taskbar, and removes the bar at the end', async () => {
    const ref = value(await handlers.openDropped(caller, await file('a.csv')));
    const summary = value(await handlers.parse(caller, ref.fileId));
    expect(summary.rows).toBe(2);
    expect(caller.sent.map((event) => event.channel)).toEqual(Array(3).fill(SPREADSHEET_CHANNELS.onProgress));
    expect(caller.sent.map((event) => event.progress.percent)).toEqual([10, 60, 100]);
    expect(taskbar).toEqual([0.1, 0.6, 1, -1]);
  });

  it('removes the bar when the parse fails, and answers the module’s catalogue text', async () => {
    const ref = value(await handlers.openDropped(caller, await file('a.csv')));
    sheets.failParseWith = new Error(messages.sending.encryptedWorkbook);
    expect(await handlers.parse(caller, ref.fileId)).toEqual({ ok: false, error: messages.sending.encryptedWorkbook });
    expect(taskbar.at(-1)).toBe(-1);
    expect(logged).toEqual([]);
  });

  it('hides OS error details behind a catalogue text and logs them', async () => {
    const ref = value(await handlers.openDropped(caller, await file('a.csv')));
    sheets.failParseWith = new Error("EACCES: permission denied, open '/home/someone/secret.csv'");
    expect(await handlers.parse(caller, ref.fileId)).toEqual({ ok: false, error: text.parseFailed });
    expect(logged).toHaveLength(1);
    expect(taskbar.at(-1)).toBe(-1);
  });

  it('sends nothing to a page that has gone, and still drives and clears the bar', async () => {
    const ref = value(await handlers.openDropped(caller, await file('a.csv')));
    caller.destroyed = true;
    value(await handlers.parse(caller, ref.fileId));
    expect(caller.sent).toEqual([]);
    expect(taskbar).toEqual([0.1, 0.6, 1, -1]);
  });

  it('keeps the bar while another operation still runs', async () => {
    const ref = value(await handlers.openDropped(caller, await file('a.csv')));
    let release: () => void = () => undefined;
    sheets.parseGate = new Promise((resolve) => (release = resolve));
    const parsing = handlers.parse(caller, ref.fileId);
    const prepared = value(await handlers.prepare(caller, ref.fileId, { recipientColumn: 'phone', variableMappings: {} }));
    expect(prepared.preparedId).toBe('prepared-1');
    expect(taskbar).not.toContain(-1);
    release();
    value(await parsing);
    expect(taskbar.filter((fraction) => fraction === -1)).toHaveLength(1);
    expect(taskbar.at(-1)).toBe(-1);
  });

  it('refuses ids and mappings that are not what the bridge sends', async () => {
    for (const bad of [undefined, 42, '', 'with space', 'x'.repeat(201), ['file-1']]) {
      expect(await handlers.parse(caller, bad)).toEqual({ ok: false, error: text.fileIdInvalid });
    }
    const ref = value(await handlers.openDropped(caller, await file('a.csv')));
    const badMappings: unknown[] = [
      undefined,
      'phone',
      { recipientColumn: '', variableMappings: {} },
      { recipientColumn: 'phone' },
      { recipientColumn: 'phone', variableMappings: { name: 7 } },
      { recipientColumn: 'phone', variableMappings: { name: '' } },
      { recipientColumn: 'phone', variableMappings: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`v${i}`, 'c'])) },
    ];
    for (const bad of badMappings) expect(await handlers.prepare(caller, ref.fileId, bad)).toEqual({ ok: false, error: text.mappingInvalid });
    expect(sheets.prepared.size).toBe(0);
    expect(taskbar).toEqual([]);
  });
});

describe('saveInvalidRows', () => {
  it('asks where to save, writes there, and answers false when cancelled', async () => {
    const ref = value(await handlers.openDropped(caller, await file('a.csv')));
    const prepared = value(await handlers.prepare(caller, ref.fileId, { recipientColumn: 'phone', variableMappings: { name: 'Name' } }));
    expect(await handlers.saveInvalidRows(caller, prepared.preparedId)).toEqual({ ok: true, value: false });
    saveAnswer = path.join(dir, 'invalid.csv');
    expect(await handlers.saveInvalidRows(caller, prepared.preparedId)).toEqual({ ok: true, value: true });
    expect(await readFile(saveAnswer, 'utf8')).toBe('line,value,reason\n');
    expect(saveRequests[0]).toEqual({ title: text.saveInvalidTitle, defaultName: text.invalidRowsFilename, filters: [{ name: text.saveInvalidFilterName, extensions: ['csv'] }] });
    expect(sheets.writes).toEqual([{ preparedId: prepared.preparedId, target: saveAnswer }]);
  });

  it('refuses an unknown prepared id without opening a dialog', async () => {
    expect(await handlers.saveInvalidRows(caller, 'prepared-404')).toEqual({ ok: false, error: text.preparedIdInvalid });
    expect(await handlers.saveInvalidRows(caller, null)).toEqual({ ok: false, error: text.preparedIdInvalid });
    expect(saveRequests).toEqual([]);
  });
});

describe('uploads', () => {
  async function preparedId(): Promise<string> {
    const ref = value(await handlers.openDropped(caller, await file('a.csv')));
    return value(await handlers.prepare(caller, ref.fileId, { recipientColumn: 'phone', variableMappings: {} })).preparedId;
  }

  it('uploads the prepared file by its id (the path stays here), with progress', async () => {
    const id = await preparedId();
    caller.sent = [];
    taskbar = [];
    const upload = value(await handlers.upload(caller, id));
    expect(upload).toMatchObject({ preparedId: id, uploadId: 'upload-1', state: 'complete' });
    expect(uploads.started).toEqual([{ preparedId: id, path: `/work/prepared/${id}.csv.gz`, filename: 'phone.csv.gz', size: 42 }]);
    expect(caller.sent.map((event) => event.progress.phase)).toEqual(['uploading']);
    expect(taskbar).toEqual([0.5, -1]);
    expect(JSON.stringify(upload)).not.toContain('/work/prepared');
  });

  it('answers a failed upload as a BridgeResult and clears the bar', async () => {
    const id = await preparedId();
    uploads.failWith = new Error(messages.uploads.quotaExceeded.replace('{used}', '900').replace('{max}', '1024'));
    expect(await handlers.upload(caller, id)).toEqual({ ok: false, error: uploads.failWith.message });
    uploads.failWith = new TypeError('fetch failed');
    expect(await handlers.upload(caller, id)).toEqual({ ok: false, error: text.uploadFailed });
    expect(taskbar.at(-1)).toBe(-1);
  });

  it('pauses, resumes and lists pending uploads; refuses unknown or invalid ids', async () => {
    const id = await preparedId();
    expect(await handlers.pauseUpload(caller, id)).toEqual({ ok: true, value: null });
    expect(uploads.paused).toEqual([id]);
    expect(value(await handlers.resumeUpload(caller, 'prepared-9')).state).toBe('complete');
    expect(value(await handlers.pendingUploads(caller))).toHaveLength(1);
    expect(await handlers.upload(caller, 'prepared-404')).toEqual({ ok: false, error: text.preparedIdInvalid });
    expect(await handlers.pauseUpload(caller, 5)).toEqual({ ok: false, error: text.preparedIdInvalid });
    expect(await handlers.resumeUpload(caller, '')).toEqual({ ok: false, error: text.preparedIdInvalid });
  });
});

describe('taskbar and notifications', () => {
  it('sets the taskbar bar to 0..1 or -1 and refuses anything else', async () => {
    for (const fraction of [0, 0.25, 1, -1]) expect(await handlers.setTaskbarProgress(caller, fraction)).toEqual({ ok: true, value: null });
    expect(taskbar).toEqual([0, 0.25, 1, -1]);
    for (const bad of [1.01, -0.5, -2, Number.NaN, Number.POSITIVE_INFINITY, '0.5', null, undefined]) {
      expect(await handlers.setTaskbarProgress(caller, bad)).toEqual({ ok: false, error: text.taskbarInvalid });
    }
    expect(taskbar).toHaveLength(4);
  });

  it('shows a notification with a title and a message, and refuses empty or oversized ones', async () => {
    expect(await handlers.notify(caller, 'Campaign completed', 'Diwali offer: 10 delivered')).toEqual({ ok: true, value: null });
    expect(notified).toEqual([['Campaign completed', 'Diwali offer: 10 delivered']]);
    const error = fillMessage(text.notifyInvalid, { max: MAX_NOTIFICATION_LENGTH });
    for (const [title, body] of [['', 'b'], ['t', '   '], ['t', 'x'.repeat(MAX_NOTIFICATION_LENGTH + 1)], [1, 'b'], ['t', undefined]] as Array<[unknown, unknown]>) {
      expect(await handlers.notify(caller, title, body)).toEqual({ ok: false, error });
    }
    expect(notified).toHaveLength(1);
  });

  it('answers a notifier failure as a BridgeResult', async () => {
    const broken = createSpreadsheetHandlers({
      spreadsheets: sheets,
      uploads,
      dialogs: { openSpreadsheet: async () => null, saveFile: async () => null },
      recentFiles: settings,
      notify: () => {
        throw new Error('libnotify missing');
      },
      setTaskbarProgress: () => undefined,
      log: () => undefined,
    });
    expect(await broken.notify(caller, 'a', 'b')).toEqual({ ok: false, error: text.notifyFailed });
  });
});

describe('catalogue texts', () => {
  it('recognises filled templates and nothing else', () => {
    expect(isCatalogueText(text.notFound)).toBe(true);
    expect(isCatalogueText(fillMessage(messages.uploads.tooLarge, { max: 100 }))).toBe(true);
    expect(isCatalogueText("ENOENT: no such file or directory, open '/tmp/x.csv'")).toBe(false);
    expect(isCatalogueText('')).toBe(false);
  });
});

describe('registerSpreadsheetIpc', () => {
  type Listener = (event: SpreadsheetSenderEvent, ...args: unknown[]) => Promise<unknown>;

  function fakeIpc() {
    const listeners = new Map<string, Listener>();
    return {
      listeners,
      handle: (channel: string, listener: Listener) => void listeners.set(channel, listener),
      removeHandler: (channel: string) => void listeners.delete(channel),
    };
  }

  function eventFrom(url: string, parent: unknown = null): SpreadsheetSenderEvent {
    return { senderFrame: { url, parent } as unknown as IpcMainInvokeEvent['senderFrame'], sender: caller };
  }

  it('handles every call channel but not the progress event channel, and removes them again', () => {
    const ipc = fakeIpc();
    const unregister = registerSpreadsheetIpc(ipc, handlers);
    const expected = Object.entries(SPREADSHEET_CHANNELS).filter(([method]) => method !== 'onProgress').map(([, channel]) => channel);
    expect([...ipc.listeners.keys()].sort()).toEqual(expected.sort());
    expect(SPREADSHEET_INVOKE_METHODS).not.toContain('onProgress');
    unregister();
    expect(ipc.listeners.size).toBe(0);
  });

  it('refuses calls from foreign pages and subframes, and sends progress to the calling page', async () => {
    const ipc = fakeIpc();
    registerSpreadsheetIpc(ipc, handlers, { log: () => undefined });
    const dropped = await file('a.csv');
    for (const [channel, listener] of ipc.listeners) {
      expect(await listener(eventFrom('https://evil.example/'), dropped), channel).toEqual({ ok: false, error: UNTRUSTED_SENDER_ERROR });
      expect(await listener(eventFrom('app://sandesh/', { url: 'app://sandesh/' }), dropped), channel).toEqual({ ok: false, error: UNTRUSTED_SENDER_ERROR });
    }
    expect(sheets.opened.size).toBe(0);
    expect(taskbar).toEqual([]);

    const ref = (await ipc.listeners.get(SPREADSHEET_CHANNELS.openDropped)!(eventFrom('app://sandesh/send'), dropped)) as BridgeResult<SpreadsheetFileRef>;
    const parsed = await ipc.listeners.get(SPREADSHEET_CHANNELS.parse)!(eventFrom('app://sandesh/send'), value(ref).fileId);
    expect(parsed).toMatchObject({ ok: true });
    expect(caller.sent).toHaveLength(3);
  });
});
