/**
 * Local spreadsheets for the main process: the files the user opened, their parse and
 * their prepared (checked, normalised, gzip CSV) versions ready to upload. Every parse and prepare
 * runs in its own worker thread (spreadsheetWorker.ts), never on the Electron main thread; the
 * IPC handlers call this API and pass progress on to the renderer.
 *
 * A prepared file lives in `workDir/<preparedId>/` with a manifest, so an upload can resume after
 * the app restarts (the upload's own state is kept in the settings by the upload client).
 * Prepared folders older than PREPARED_KEEP_MS are removed when the app starts.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { copyFile, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import { messages } from '@shared/messages';
import { spreadsheetMappingProblems } from '@shared/spreadsheetCheck';
import type { PreparedSpreadsheet, SpreadsheetFileRef, SpreadsheetMapping, SpreadsheetProgress, SpreadsheetSummary } from '@shared/spreadsheets';
import type { JobProgress, ParsedFile, PreparedFileResult } from './jobs';
import type { FromSpreadsheetWorker, ToSpreadsheetWorker } from './protocol';
import { isSpreadsheetError, spreadsheetError, spreadsheetKind } from './readSpreadsheet';

export interface PreparedFile {
  preparedId: string;
  path: string;
  filename: string;
  size: number;
}

export interface LocalSpreadsheets {
  /** Stats the file and checks its kind; answers an opaque fileId. */
  open(path: string): Promise<SpreadsheetFileRef>;
  parse(fileId: string, onProgress: (p: SpreadsheetProgress) => void): Promise<SpreadsheetSummary>;
  prepare(fileId: string, mapping: SpreadsheetMapping, onProgress: (p: SpreadsheetProgress) => void): Promise<PreparedSpreadsheet>;
  preparedFile(preparedId: string): PreparedFile | undefined;
  /** Copies the prepared file's invalid rows (`line,value,reason`) to where the user chose. */
  writeInvalidRows(preparedId: string, targetPath: string): Promise<void>;
  /** Ends running jobs (their workers); prepared files stay for uploads to resume. */
  close(): Promise<void>;
}

export interface LocalSpreadsheetsOptions {
  workDir: string;
  /** The worker's module; by default the built `spreadsheetWorker.js` beside the main bundle, or the source loader under tsx/vitest. */
  workerUrl?: URL;
  /** V8 heap cap of each worker: a file needing more fails with the catalogue's "too heavy" text. */
  workerMemoryMb?: number;
  /** Clock for pruning old prepared folders (tests). */
  now?: () => number;
}

/** Prepared files are kept this long for uploads to resume (uploads expire after 24 h on the server). */
export const PREPARED_KEEP_MS = 48 * 60 * 60 * 1000;
const DEFAULT_WORKER_MEMORY_MB = 1536;
const MANIFEST = 'manifest.json';
const NORMALISED_FILE = 'normalised.csv.gz';
const INVALID_FILE = 'invalid-rows.csv';

const ZManifest = z.object({
  preparedId: z.uuid(),
  filename: z.string().min(1).max(255),
  size: z.number().int().nonnegative(),
  createdAt: z.number(),
});

/** The worker module: built layout (out/main/index.js beside spreadsheetWorker.js) or source (tsx). */
export function defaultWorkerUrl(moduleUrl: string = import.meta.url): URL {
  // A packaged app runs from app.asar, but a worker thread starts from a real file: electron-builder
  // unpacks the worker and its chunks beside it (asarUnpack in electron-builder.yml).
  const here = path.dirname(fileURLToPath(moduleUrl)).replace(/([\\/])app\.asar(?=[\\/])/, '$1app.asar.unpacked');
  // path.join rather than `new URL('./x', import.meta.url)`, which the bundler would take for an asset.
  return pathToFileURL(path.join(here, moduleUrl.endsWith('.ts') ? 'spreadsheetWorker.mjs' : 'spreadsheetWorker.js'));
}

/** The prepared file's name for the upload: the original name with `.csv.gz`. */
export function preparedFilename(original: string): string {
  const base = path.basename(original).replace(/\.(csv|xlsx|xls|txt|gz|csv\.gz)$/i, '') || 'recipients';
  return `${base}.csv.gz`;
}

interface OpenFile {
  ref: SpreadsheetFileRef;
  path: string;
  summary?: SpreadsheetSummary;
}

interface PreparedEntry extends PreparedFile {
  invalidPath: string;
}

export function createLocalSpreadsheets(options: LocalSpreadsheetsOptions): LocalSpreadsheets {
  const workerUrl = options.workerUrl ?? defaultWorkerUrl();
  const memoryMb = options.workerMemoryMb ?? DEFAULT_WORKER_MEMORY_MB;
  const now = options.now ?? Date.now;
  const files = new Map<string, OpenFile>();
  const prepared = new Map<string, PreparedEntry>();
  const running = new Set<Worker>();
  mkdirSync(options.workDir, { recursive: true });
  loadPrepared();

  /** Prepared files of earlier runs (for uploads to resume); old or broken folders are removed. */
  function loadPrepared(): void {
    for (const name of readdirSync(options.workDir)) {
      const dir = path.join(options.workDir, name);
      try {
        const manifest = ZManifest.parse(JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8')));
        const normalisedPath = path.join(dir, NORMALISED_FILE);
        if (manifest.preparedId !== name || now() - manifest.createdAt > PREPARED_KEEP_MS || statSync(normalisedPath).size !== manifest.size) throw new Error('stale');
        prepared.set(name, { preparedId: name, path: normalisedPath, filename: manifest.filename, size: manifest.size, invalidPath: path.join(dir, INVALID_FILE) });
      } catch {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }

  function fileOf(fileId: string): OpenFile {
    const file = files.get(fileId);
    if (!file) throw spreadsheetError(messages.spreadsheets.notFound);
    return file;
  }

  /** Runs one job in a fresh worker; progress goes to `onProgress` with the file's id. */
  function runJob<T extends 'parsed' | 'prepared'>(fileId: string, job: ToSpreadsheetWorker, answer: T, onProgress: (p: SpreadsheetProgress) => void) {
    return new Promise<T extends 'parsed' ? ParsedFile : PreparedFileResult>((resolve, reject) => {
      const worker = new Worker(workerUrl, { resourceLimits: { maxOldGenerationSizeMb: memoryMb } });
      running.add(worker);
      let settled = false;
      const settle = (action: () => void) => {
        if (settled) return;
        settled = true;
        running.delete(worker);
        action();
        void worker.terminate();
      };
      worker.on('message', (message: FromSpreadsheetWorker) => {
        if (message.type === 'progress') onProgress(withFileId(fileId, message.progress));
        else if (message.type === 'failed') settle(() => reject(spreadsheetError(message.message)));
        else if (message.type === answer) settle(() => resolve(message.result as T extends 'parsed' ? ParsedFile : PreparedFileResult));
      });
      worker.on('error', (error: Error & { code?: string }) => {
        settle(() => reject(spreadsheetError(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? messages.sending.fileTooHeavy : messages.spreadsheets.workerFailed)));
      });
      worker.on('exit', () => settle(() => reject(spreadsheetError(messages.spreadsheets.workerFailed))));
      worker.postMessage(job);
    });
  }

  return {
    async open(filePath) {
      let size: number;
      try {
        const info = await stat(filePath);
        if (!info.isFile()) throw new Error('not a file');
        size = info.size;
      } catch {
        throw spreadsheetError(messages.spreadsheets.unreadable);
      }
      const filename = path.basename(filePath);
      try {
        await spreadsheetKind(filePath, filename);
      } catch (error) {
        throw isSpreadsheetError(error) ? error : spreadsheetError(messages.spreadsheets.unreadable);
      }
      const ref: SpreadsheetFileRef = { fileId: randomUUID(), filename, size };
      files.set(ref.fileId, { ref, path: filePath });
      return ref;
    },

    async parse(fileId, onProgress) {
      const file = fileOf(fileId);
      const parsed = await runJob(fileId, { type: 'parse', path: file.path }, 'parsed', onProgress);
      const summary: SpreadsheetSummary = { fileId, filename: file.ref.filename, size: file.ref.size, ...parsed };
      file.summary = summary;
      return summary;
    },

    async prepare(fileId, mapping, onProgress) {
      const file = fileOf(fileId);
      if (file.summary) {
        const problems = spreadsheetMappingProblems(file.summary.header, mapping);
        if (problems[0] !== undefined) throw spreadsheetError(problems[0]);
      }
      const preparedId = randomUUID();
      const dir = path.join(options.workDir, preparedId);
      await mkdir(dir, { recursive: true });
      const normalisedPath = path.join(dir, NORMALISED_FILE);
      const invalidPath = path.join(dir, INVALID_FILE);
      let result: PreparedFileResult;
      try {
        result = await runJob(
          fileId,
          { type: 'prepare', path: file.path, mapping, output: { normalisedPath, invalidPath }, header: file.summary?.header },
          'prepared',
          onProgress,
        );
        const filename = preparedFilename(file.ref.filename);
        await writeFile(path.join(dir, MANIFEST), JSON.stringify({ preparedId, filename, size: result.preparedSize, createdAt: now() }));
        prepared.set(preparedId, { preparedId, path: normalisedPath, filename, size: result.preparedSize, invalidPath });
      } catch (error) {
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
      return {
        preparedId,
        fileId,
        validRows: result.validRows,
        invalidRows: result.invalidRows,
        duplicatesRemoved: result.duplicatesRemoved,
        invalidSample: result.invalidSample,
        preparedSize: result.preparedSize,
      };
    },

    preparedFile(preparedId) {
      const entry = prepared.get(preparedId);
      if (!entry) return undefined;
      return { preparedId: entry.preparedId, path: entry.path, filename: entry.filename, size: entry.size };
    },

    async writeInvalidRows(preparedId, targetPath) {
      const entry = prepared.get(preparedId);
      if (!entry) throw spreadsheetError(messages.spreadsheets.invalidRowsNotFound);
      try {
        await copyFile(entry.invalidPath, targetPath);
      } catch {
        throw spreadsheetError(messages.spreadsheets.writeFailed);
      }
    },

    async close() {
      const workers = [...running];
      running.clear();
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}

function withFileId(fileId: string, progress: JobProgress): SpreadsheetProgress {
  return { fileId, ...progress };
}
