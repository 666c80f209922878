/**
 * The web shell's spreadsheets, loaded on demand from the send screens: files stay in
 * the page as File and Blob handles, the reading and checking run in a Web Worker, and the upload
 * goes through the resumable API with fetch (resumableUpload.ts).
 */
import { fillMessage, messages } from '@shared/messages';
import type { PreparedSpreadsheet, SpreadsheetFileRef, SpreadsheetMapping, SpreadsheetProgress, SpreadsheetSummary, SpreadsheetUpload } from '@shared/spreadsheets';
import { formatFileSize } from '../lib/headerMedia';
import { saveFile } from './files';
import { sha256Hex, uploadResumable, type UploadStorage } from './resumableUpload';
import type { SpreadsheetAccess } from './spreadsheetTypes';
import type { PreparedBlobs, SpreadsheetWorkerAnswer, SpreadsheetWorkerRequest } from './spreadsheetWorkerProtocol';

const m = messages.sheetScreens;

/** What a browser tab can read and check comfortably; larger files are the desktop app's. */
export const WEB_SPREADSHEET_MAX_BYTES = 200 * 1024 * 1024;

const FILE_NAME = /\.(csv|xlsx|xls|csv\.gz|gz)$/i;

/** The browser cannot hold this file, or it is not a spreadsheet: the catalogue text saying so, or null. */
export function webFileProblem(file: { name: string; size: number }): string | null {
  if (!FILE_NAME.test(file.name)) return m.unsupportedType;
  if (file.size > WEB_SPREADSHEET_MAX_BYTES) return fillMessage(m.tooLargeForBrowser, { size: formatFileSize(file.size), max: formatFileSize(WEB_SPREADSHEET_MAX_BYTES) });
  return null;
}

/** The name the normalised upload goes by: the file's own, as a gzip CSV. */
export function normalisedFileName(filename: string): string {
  return `${filename.replace(/\.(csv\.gz|csv|xlsx|xls|gz)$/i, '')}.csv.gz`;
}

/** A request before it is numbered (Omit over each member of the union). */
type WorkerJob = SpreadsheetWorkerRequest extends infer Request ? (Request extends unknown ? Omit<Request, 'requestId'> : never) : never;

interface UploadEntry {
  pauseRequested: boolean;
  state: SpreadsheetUpload;
}

function browserStorage(): UploadStorage {
  try {
    return window.localStorage;
  } catch {
    // Storage blocked (private mode settings): uploads still work, only without resuming after a reload.
    const items = new Map<string, string>();
    return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value), removeItem: (key) => void items.delete(key) };
  }
}

export function createWebSpreadsheets(emit: (progress: SpreadsheetProgress) => void): Omit<SpreadsheetAccess, 'onProgress' | 'pick' | 'maxFileBytes'> {
  const files = new Map<string, File>();
  const prepared = new Map<string, PreparedBlobs & { filename: string }>();
  const uploads = new Map<string, UploadEntry>();
  let worker: Worker | null = null;
  let nextRequest = 1;
  const waiting = new Map<number, { resolve: (answer: SpreadsheetWorkerAnswer) => void; reject: (error: Error) => void }>();

  const startWorker = (): Worker => {
    if (worker) return worker;
    if (typeof Worker === 'undefined') throw new Error(m.workerUnavailable);
    const started = new Worker(new URL('./spreadsheetWorker.ts', import.meta.url), { type: 'module' });
    started.addEventListener('message', (event: MessageEvent<SpreadsheetWorkerAnswer>) => {
      const answer = event.data;
      if (answer.kind === 'progress') {
        emit(answer.progress);
        return;
      }
      const pending = waiting.get(answer.requestId);
      waiting.delete(answer.requestId);
      if (!pending) return;
      if (answer.kind === 'failed') pending.reject(new Error(answer.error));
      else pending.resolve(answer);
    });
    started.addEventListener('error', (event) => {
      // A worker that failed to load or crashed answers nothing more: fail what waits and start afresh next time.
      event.preventDefault();
      for (const pending of waiting.values()) pending.reject(new Error(fillMessage(m.readFailed, { reason: event.message || m.workerUnavailable })));
      waiting.clear();
      started.terminate();
      worker = null;
    });
    worker = started;
    return started;
  };

  const run = (job: WorkerJob): Promise<SpreadsheetWorkerAnswer> =>
    new Promise((resolve, reject) => {
      const requestId = nextRequest;
      nextRequest += 1;
      waiting.set(requestId, { resolve, reject });
      try {
        startWorker().postMessage({ ...job, requestId } as SpreadsheetWorkerRequest);
      } catch (caught) {
        waiting.delete(requestId);
        reject(caught instanceof Error ? caught : new Error(String(caught)));
      }
    });

  const fileFor = (fileId: string): File => {
    const file = files.get(fileId);
    if (!file) throw new Error(m.emptyFile);
    return file;
  };

  const runUpload = async (preparedId: string): Promise<SpreadsheetUpload> => {
    const entry = prepared.get(preparedId);
    if (!entry) throw new Error(m.checkFirst);
    const blob = entry.normalised;
    const current: UploadEntry = uploads.get(preparedId) ?? {
      pauseRequested: false,
      state: { preparedId, uploadId: '', filename: entry.filename, size: blob.size, sentBytes: 0, state: 'uploading' },
    };
    current.pauseRequested = false;
    current.state = { ...current.state, state: 'uploading' };
    uploads.set(preparedId, current);
    const progress = (sentBytes: number) =>
      emit({ fileId: entry.prepared.fileId, phase: 'uploading', rows: entry.prepared.validRows, bytes: sentBytes, totalBytes: blob.size, percent: blob.size === 0 ? 100 : (sentBytes / blob.size) * 100 });
    try {
      const outcome = await uploadResumable(
        blob,
        entry.filename,
        { fetch: window.fetch.bind(window), storage: browserStorage(), sleep: (ms) => new Promise((resolve) => window.setTimeout(resolve, ms)), now: () => new Date(), baseUrl: '' },
        {
          sha256: await sha256Hex(blob),
          shouldPause: () => current.pauseRequested,
          onProgress: (state) => {
            current.state = { ...current.state, sentBytes: state.sentBytes };
            progress(state.sentBytes);
          },
          onParse: (parse) => {
            if (parse?.state === 'queued') {
              emit({ fileId: entry.prepared.fileId, phase: 'queued', rows: entry.prepared.validRows, bytes: blob.size, totalBytes: blob.size, percent: 100, queuePosition: parse.position });
            } else {
              progress(blob.size);
            }
          },
        },
      );
      current.state =
        outcome.state === 'complete'
          ? { ...current.state, uploadId: outcome.uploadId, sentBytes: blob.size, state: 'complete' }
          : { ...current.state, uploadId: outcome.uploadId, sentBytes: outcome.sentBytes, state: 'paused' };
      return current.state;
    } catch (caught) {
      current.state = { ...current.state, state: 'failed', error: caught instanceof Error ? caught.message : String(caught) };
      throw caught instanceof Error ? caught : new Error(String(caught));
    }
  };

  return {
    async openDropped(file) {
      const problem = webFileProblem(file);
      if (problem) throw new Error(problem);
      const fileId = crypto.randomUUID();
      files.set(fileId, file);
      const ref: SpreadsheetFileRef = { fileId, filename: file.name, size: file.size };
      return ref;
    },
    recent: () => Promise.resolve([]),
    async parse(fileId): Promise<SpreadsheetSummary> {
      const answer = await run({ kind: 'parse', fileId, file: fileFor(fileId) });
      if (answer.kind !== 'parsed') throw new Error(m.workerUnavailable);
      return answer.summary;
    },
    async prepare(fileId, mapping: SpreadsheetMapping): Promise<PreparedSpreadsheet> {
      const file = fileFor(fileId);
      const answer = await run({ kind: 'prepare', fileId, file, mapping, preparedId: crypto.randomUUID() });
      if (answer.kind !== 'prepared') throw new Error(m.workerUnavailable);
      prepared.set(answer.prepared.preparedId, { prepared: answer.prepared, normalised: answer.normalised, invalidRows: answer.invalidRows, filename: normalisedFileName(file.name) });
      return answer.prepared;
    },
    saveInvalidRows(preparedId) {
      const entry = prepared.get(preparedId);
      if (!entry) return Promise.reject(new Error(m.checkFirst));
      saveFile(entry.invalidRows, m.invalidCsvName);
      return Promise.resolve(true);
    },
    upload: runUpload,
    pauseUpload(preparedId) {
      const entry = uploads.get(preparedId);
      if (entry) entry.pauseRequested = true;
      return Promise.resolve();
    },
    resumeUpload: runUpload,
    setTaskbarProgress: () => undefined,
  };
}
