/**
 * The spreadsheet worker thread: runs one job (parse or prepare) for the main process
 * and posts its progress and its result. Never runs on the Electron main thread: a million-row
 * workbook takes seconds of CPU. Built as out/main/spreadsheetWorker.js (electron.vite.config.ts);
 * from source it is loaded through spreadsheetWorker.mjs.
 */
import { parentPort } from 'node:worker_threads';
import { messages } from '@shared/messages';
import { parseSpreadsheetFile, prepareSpreadsheetFile, type JobProgress } from './jobs';
import type { FromSpreadsheetWorker, ToSpreadsheetWorker } from './protocol';
import { isSpreadsheetError } from './readSpreadsheet';

const port = parentPort;
if (!port) throw new Error('spreadsheetWorker runs only as a worker thread');

const send = (message: FromSpreadsheetWorker) => port.postMessage(message);
const onProgress = (progress: JobProgress) => send({ type: 'progress', progress });

/** A catalogue text for any failure: ours as they are; a system error while writing, or anything else. */
function failureText(error: unknown, writing: boolean): string {
  if (isSpreadsheetError(error)) return error.message;
  if (writing && error instanceof Error && 'syscall' in error) return messages.spreadsheets.writeFailed;
  return messages.spreadsheets.unreadable;
}

async function run(job: ToSpreadsheetWorker): Promise<void> {
  try {
    if (job.type === 'parse') send({ type: 'parsed', result: await parseSpreadsheetFile(job.path, onProgress) });
    else send({ type: 'prepared', result: await prepareSpreadsheetFile(job.path, job.mapping, job.output, onProgress, { header: job.header }) });
  } catch (error) {
    send({ type: 'failed', message: failureText(error, job.type === 'prepare') });
  }
}

port.once('message', (job: ToSpreadsheetWorker) => void run(job));
