import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import { createCsvParser } from '@shared/spreadsheetReaders/csv';
import { xlsOf } from '@shared/spreadsheetReaders/legacyXlsFixtures';
import type { SpreadsheetProgress } from '@shared/spreadsheets';
import { createLocalSpreadsheets, defaultWorkerUrl, preparedFilename, type LocalSpreadsheets } from './localSpreadsheets';
import { TEST_HEADER, TEST_INVALID_EVERY, testRowText, writeTestCsv, writeTestXlsx } from './testFiles';

const ROWS = 100_000;
const LONG = 120_000;

let dir = '';
let xlsxPath = '';
let local: LocalSpreadsheets;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sandesh-local-sheets-'));
  xlsxPath = path.join(dir, 'recipients.xlsx');
  await writeTestXlsx(xlsxPath, ROWS);
  local = createLocalSpreadsheets({ workDir: path.join(dir, 'work') });
}, LONG);

afterAll(async () => {
  await local?.close();
  await rm(dir, { recursive: true, force: true });
});

function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  const parser = createCsvParser((cells) => rows.push(cells));
  parser.push(text);
  parser.end();
  return rows;
}

describe('local spreadsheets in a worker thread', () => {
  it(
    'parses 100,000 generated rows with progress, then prepares them into a gzip CSV and an invalid-rows CSV',
    async () => {
      const file = await local.open(xlsxPath);
      expect(file).toMatchObject({ filename: 'recipients.xlsx' });
      expect(file.size).toBeGreaterThan(0);

      const parseProgress: SpreadsheetProgress[] = [];
      const summary = await local.parse(file.fileId, (progress) => parseProgress.push(progress));
      expect(summary).toMatchObject({ fileId: file.fileId, filename: 'recipients.xlsx', rows: ROWS, header: TEST_HEADER });
      expect(summary.sample).toHaveLength(20);
      expect(summary.sample[0]).toEqual(Object.fromEntries(TEST_HEADER.map((name, i) => [name, testRowText(0)[i] ?? ''])));
      const phone = summary.columns.find((column) => column.name === 'Phone');
      expect(phone).toMatchObject({ filled: ROWS, empty: 0, phoneLike: ROWS - ROWS / TEST_INVALID_EVERY });
      expect(summary.columns.find((column) => column.name === 'Note')).toMatchObject({ empty: Math.ceil(ROWS / 7), distinct: 50, distinctCapped: false });
      expect(parseProgress.length).toBeGreaterThan(0);
      expect(parseProgress.every((progress) => progress.fileId === file.fileId && progress.phase === 'parsing')).toBe(true);
      expect(parseProgress.at(-1)).toMatchObject({ rows: ROWS, percent: 100 });

      const prepareProgress: SpreadsheetProgress[] = [];
      const mapping = { recipientColumn: 'Phone', variableMappings: { 1: 'Name', 2: 'City', 3: 'Name' } };
      const prepared = await local.prepare(file.fileId, mapping, (progress) => prepareProgress.push(progress));
      const invalid = ROWS / TEST_INVALID_EVERY;
      const repeats = ROWS / TEST_INVALID_EVERY;
      expect(prepared).toMatchObject({ fileId: file.fileId, validRows: ROWS - invalid - repeats, invalidRows: invalid, duplicatesRemoved: repeats });
      // Repeats are listed among the rows not sent with the invalid ones, each naming the row it repeats.
      const half = TEST_INVALID_EVERY / 2;
      expect(prepared.invalidSample.slice(0, 2)).toEqual([
        { line: half + 2, value: String(9_000_000_000 + half - 1), reason: fillMessage(messages.sending.skipped.duplicate_in_list, { row: half + 1 }) },
        { line: TEST_INVALID_EVERY + 1, value: 'n/a', reason: messages.phone.invalid.characters },
      ]);
      expect(prepareProgress.some((progress) => progress.phase === 'checking')).toBe(true);
      expect(prepareProgress.at(-1)).toMatchObject({ phase: 'writing', percent: 100 });

      const preparedFile = local.preparedFile(prepared.preparedId);
      expect(preparedFile).toMatchObject({ preparedId: prepared.preparedId, filename: 'recipients.csv.gz', size: prepared.preparedSize });
      const rows = csvRows(gunzipSync(await readFile(preparedFile?.path ?? '')).toString('utf8'));
      expect(rows[0]).toEqual(['Phone', 'Name', 'City']);
      expect(rows).toHaveLength(1 + prepared.validRows);
      expect(rows[1]).toEqual(['919000000000', 'Name 0', 'Pune']);
      expect(rows.at(-1)).toEqual([`91${9_000_000_000 + ROWS - 2}`, `Name ${ROWS - 2}`, testRowText(ROWS - 2)[2]]);
      expect(new Set(rows.slice(1).map((row) => row[0])).size).toBe(prepared.validRows);

      const target = path.join(dir, 'invalid.csv');
      await local.writeInvalidRows(prepared.preparedId, target);
      const invalidRows = csvRows(await readFile(target, 'utf8'));
      expect(invalidRows[0]).toEqual(['line', 'value', 'reason']);
      // Every row not sent: the invalid ones and the repeats.
      expect(invalidRows).toHaveLength(1 + invalid + repeats);
      expect(invalidRows[2]).toEqual([String(TEST_INVALID_EVERY + 1), 'n/a', messages.phone.invalid.characters]);

      // After a restart the prepared file is still there for its upload to resume.
      const restarted = createLocalSpreadsheets({ workDir: path.join(dir, 'work') });
      expect(restarted.preparedFile(prepared.preparedId)).toEqual(preparedFile);
      await restarted.close();
    },
    LONG,
  );

  it(
    'prepares a CSV without a parse first, with numbers normalised and repeats removed',
    async () => {
      const csvPath = path.join(dir, 'small.csv');
      await writeTestCsv(csvPath, 3_000);
      const file = await local.open(csvPath);
      const prepared = await local.prepare(file.fileId, { recipientColumn: 'Phone', variableMappings: {} }, () => undefined);
      expect(prepared).toMatchObject({ validRows: 2_994, invalidRows: 3, duplicatesRemoved: 3 });
      const rows = csvRows(gunzipSync(await readFile(local.preparedFile(prepared.preparedId)?.path ?? '')).toString('utf8'));
      expect(rows.slice(0, 2)).toEqual([['Phone'], ['919000000000']]);
    },
    LONG,
  );

  it(
    'refuses a mapping the file cannot satisfy, and files it cannot read, with catalogue texts',
    async () => {
      const csvPath = path.join(dir, 'mapping.csv');
      await writeFile(csvPath, 'Phone,Name\r\n9876543210,Asha\r\n');
      const file = await local.open(csvPath);
      await expect(local.prepare(file.fileId, { recipientColumn: 'Mobile', variableMappings: {} }, () => undefined)).rejects.toThrow(
        fillMessage(messages.sending.recipientColumnMissing, { column: 'Mobile' }),
      );
      await local.parse(file.fileId, () => undefined);
      await expect(local.prepare(file.fileId, { recipientColumn: 'Phone', variableMappings: { 1: 'City' } }, () => undefined)).rejects.toThrow(
        fillMessage(messages.spreadsheets.mappedColumnMissing, { column: 'City', name: '1' }),
      );
      await expect(local.open(path.join(dir, 'missing.csv'))).rejects.toThrow(messages.spreadsheets.unreadable);
      const ole = await writeFileAt('old.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
      await expect(local.open(await writeFileAt('locked.xlsx', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])))).rejects.toThrow(messages.sending.encryptedWorkbook);
      await expect(local.parse((await local.open(ole)).fileId, () => undefined)).rejects.toThrow(messages.sending.fileUnreadable);
      const xls = await local.open(await writeFileAt('legacy.xls', Buffer.from(xlsOf([['Phone', 'Name'], [919876543210, 'Asha'], [919876543211, 'Ravi']]))));
      expect(await local.parse(xls.fileId, () => undefined)).toMatchObject({ filename: 'legacy.xls', rows: 2, header: ['Phone', 'Name'], sample: [{ Phone: '919876543210', Name: 'Asha' }, { Phone: '919876543211', Name: 'Ravi' }] });
      const headerOnly = await local.open(await writeFileAt('header.csv', 'Phone\r\n\r\n'));
      await expect(local.parse(headerOnly.fileId, () => undefined)).rejects.toThrow(messages.sending.noRecipientsInFile);
      await expect(local.parse('no-such-id', () => undefined)).rejects.toThrow(messages.spreadsheets.notFound);
      await expect(local.writeInvalidRows('no-such-id', path.join(dir, 'x.csv'))).rejects.toThrow(messages.spreadsheets.invalidRowsNotFound);
    },
    LONG,
  );
});

async function writeFileAt(name: string, content: Buffer | string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}

describe('defaultWorkerUrl', () => {
  it('starts the worker beside the built main module, from app.asar.unpacked in a packaged app', () => {
    expect(fileURLToPath(defaultWorkerUrl(pathToFileURL('/opt/Sandesh/resources/app.asar/out/main/index.js').href))).toBe(
      path.join('/opt/Sandesh/resources/app.asar.unpacked/out/main', 'spreadsheetWorker.js'),
    );
    expect(fileURLToPath(defaultWorkerUrl(pathToFileURL('/repo/out/main/index.js').href))).toBe(path.join('/repo/out/main', 'spreadsheetWorker.js'));
  });
});

describe('preparedFilename', () => {
  it('names the upload after the original file', () => {
    expect(preparedFilename('/x/Diwali list.xlsx')).toBe('Diwali list.csv.gz');
    expect(preparedFilename('numbers.csv.gz')).toBe('numbers.csv.gz');
    expect(preparedFilename('.csv')).toBe('recipients.csv.gz');
  });
});
