/**
 * The spreadsheet worker as the packaged app runs it: the electron-vite build's
 * out/main/spreadsheetWorker.js (no tsx, @shared bundled in), started by the main-side API.
 * `npm run test:desktop` builds first; without a build the test skips, saying so.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import { xlsOf } from '@shared/spreadsheetReaders/legacyXlsFixtures';
import { createLocalSpreadsheets, defaultWorkerUrl, type LocalSpreadsheets } from '../../desktop/src/main/spreadsheets/localSpreadsheets';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const builtWorker = path.join(root, 'out/main/spreadsheetWorker.js');
const skipReason = existsSync(builtWorker) ? null : 'out/main/spreadsheetWorker.js not built (run npm run desktop:build): skipped';
if (skipReason) console.warn(`[spreadsheet-worker-built.test] ${skipReason}`);

let dir = '';
let local: LocalSpreadsheets;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sandesh-built-worker-'));
  local = createLocalSpreadsheets({ workDir: path.join(dir, 'work'), workerUrl: pathToFileURL(builtWorker) });
});

afterAll(async () => {
  await local?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the built spreadsheet worker', () => {
  it('is where the bundled main process looks for it', () => {
    expect(defaultWorkerUrl(pathToFileURL(path.join(root, 'out/main/index.js')).href).href).toBe(pathToFileURL(builtWorker).href);
  });

  it.skipIf(skipReason !== null)('parses and prepares a CSV', async () => {
    const file = path.join(dir, 'list.csv');
    await writeFile(file, 'Phone,Name\r\n98765 43210,Asha\r\n12,Ravi\r\n+91 98765 43210,Asha\r\n');
    const ref = await local.open(file);
    const summary = await local.parse(ref.fileId, () => undefined);
    expect(summary).toMatchObject({ rows: 3, header: ['Phone', 'Name'] });
    const prepared = await local.prepare(ref.fileId, { recipientColumn: 'Phone', variableMappings: { 1: 'Name' } }, () => undefined);
    expect(prepared).toMatchObject({ validRows: 1, invalidRows: 1, duplicatesRemoved: 1 });
    expect(prepared.invalidSample).toEqual([
      { line: 3, value: '12', reason: messages.phone.invalid.too_short },
      { line: 4, value: '+91 98765 43210', reason: fillMessage(messages.sending.skipped.duplicate_in_list, { row: 2 }) },
    ]);
    const text = gunzipSync(await readFile(local.preparedFile(prepared.preparedId)?.path ?? '')).toString('utf8');
    expect(text).toBe('Phone,Name\r\n919876543210,Asha\r\n');
  });

  it.skipIf(skipReason !== null)('parses and prepares a legacy .xls with the SheetJS bundled into the build', async () => {
    const file = path.join(dir, 'old.xls');
    await writeFile(file, xlsOf([['Phone', 'Name'], [919876543210, 'Asha'], ['98765 43211', 'Ravi']]));
    const ref = await local.open(file);
    expect(await local.parse(ref.fileId, () => undefined)).toMatchObject({ filename: 'old.xls', rows: 2, header: ['Phone', 'Name'] });
    const prepared = await local.prepare(ref.fileId, { recipientColumn: 'Phone', variableMappings: { 1: 'Name' } }, () => undefined);
    expect(prepared).toMatchObject({ validRows: 2, invalidRows: 0 });
    const text = gunzipSync(await readFile(local.preparedFile(prepared.preparedId)?.path ?? '')).toString('utf8');
    expect(text).toBe('Phone,Name\r\n919876543210,Asha\r\n919876543211,Ravi\r\n');
  });
});
