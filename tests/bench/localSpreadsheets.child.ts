/**
 * One measurement of the local spreadsheets bench in a process of its own, so its peak RSS is the
 * worker's (plus this small host): `node --import tsx tests/bench/localSpreadsheets.child.ts
 * <parse|prepare|exceljs|papaparse> <file> <workDir>`. Prints one JSON line.
 */
import { createReadStream, readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { createLocalSpreadsheets } from '../../desktop/src/main/spreadsheets/localSpreadsheets';

const [mode, file, workDir] = process.argv.slice(2) as [string, string, string];

async function viaWorker(): Promise<number> {
  const local = createLocalSpreadsheets({ workDir });
  try {
    const ref = await local.open(file);
    if (mode === 'parse') return (await local.parse(ref.fileId, () => undefined)).rows;
    const prepared = await local.prepare(ref.fileId, { recipientColumn: 'Phone', variableMappings: { 1: 'Name', 2: 'City' } }, () => undefined);
    return prepared.validRows + prepared.invalidRows + prepared.duplicatesRemoved;
  } finally {
    await local.close();
  }
}

/** The reference library for a workbook: exceljs's streaming reader, cells as its text. */
async function viaExceljs(): Promise<number> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore' });
  let rows = 0;
  for await (const worksheet of reader) {
    for await (const row of worksheet) {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: false }, (cell, column) => {
        cells[column - 1] = cell.text;
      });
      rows += 1;
    }
    break;
  }
  return rows - 1;
}

/** The reference library for a CSV: papaparse's Node stream over the file. */
async function viaPapaparse(): Promise<number> {
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, { header: false, skipEmptyLines: 'greedy' });
  createReadStream(file, { encoding: 'utf8' }).pipe(parser);
  let rows = 0;
  for await (const _row of parser as AsyncIterable<unknown>) rows += 1;
  return rows - 1;
}

/**
 * This process's peak resident memory. VmHWM belongs to the process image, whereas getrusage's
 * maxRSS survives exec on Linux and would report the spawning bench's own peak.
 */
function peakRssMb(): number {
  const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  return Math.round((hwm ? Number(hwm) : process.resourceUsage().maxRSS) / 1024);
}

const started = performance.now();
const rows = mode === 'exceljs' ? await viaExceljs() : mode === 'papaparse' ? await viaPapaparse() : await viaWorker();
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ mode, rows, seconds, peakRssMb: peakRssMb() }));
