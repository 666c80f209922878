/**
 * Local spreadsheet parsing: 1,000,000 rows x 8 columns as .xlsx and as .csv, read by
 * the desktop's spreadsheet worker through the one shared reader (the server's and the web app's
 * reader too), each beside an in-run baseline (the reference libraries on the same file:
 * exceljs's streaming reader, papaparse). Each figure runs in a fresh process, so the
 * peak RSS is the worker's and its small host's. The files are generated once and kept in the
 * system's temporary folder. Prints `bench local <figure> <value> ceiling <value> ratio <value>`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeTestCsv, writeTestXlsx } from '../../desktop/src/main/spreadsheets/testFiles';
import { printFigure } from './figures';

const ROWS = 1_000_000;
const CACHE = path.join(tmpdir(), 'sandesh-bench-local-spreadsheets');

interface ChildFigures {
  mode: string;
  rows: number;
  seconds: number;
  peakRssMb: number;
}

async function cached(name: string, write: (target: string) => Promise<void>): Promise<string> {
  const file = path.join(CACHE, name);
  if (existsSync(file)) return file;
  await mkdir(CACHE, { recursive: true });
  const started = performance.now();
  const partial = `${file}.partial`;
  await write(partial);
  await rename(partial, file);
  console.log(`  generated ${name} in ${((performance.now() - started) / 1000).toFixed(1)} s (kept in ${CACHE})`);
  return file;
}

function measureInChild(mode: string, file: string, workDir: string): ChildFigures {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'tests/bench/localSpreadsheets.child.ts', mode, file, workDir], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.status !== 0 || !line.startsWith('{')) throw new Error(`${mode} of ${file} failed (exit ${run.status}): ${run.stderr.slice(-2000)}`);
  const figures = JSON.parse(line) as ChildFigures;
  if (figures.rows !== ROWS) throw new Error(`${mode} of ${file} read ${figures.rows} rows, not ${ROWS}`);
  return figures;
}

function summary(figure: string, value: number, ceiling: number): void {
  printFigure({ db: 'local', figure, value, ceiling });
}

export const localSpreadsheetsBench = {
  name: 'local spreadsheets',
  async run(): Promise<void> {
    const xlsx = await cached('recipients-1m-x8.xlsx', (target) => writeTestXlsx(target, ROWS));
    const csv = await cached('recipients-1m-x8.csv', (target) => writeTestCsv(target, ROWS));
    const workDir = await mkdtemp(path.join(tmpdir(), 'sandesh-bench-local-work-'));
    try {
      const exceljs = measureInChild('exceljs', xlsx, workDir);
      const parsedXlsx = measureInChild('parse', xlsx, workDir);
      console.log(`  xlsx 1M x 8: worker ${parsedXlsx.seconds.toFixed(2)} s, peak RSS ${parsedXlsx.peakRssMb} MB; baseline exceljs streaming reader ${exceljs.seconds.toFixed(2)} s, peak RSS ${exceljs.peakRssMb} MB (worker/exceljs ${(parsedXlsx.seconds / exceljs.seconds).toFixed(2)})`);
      const papaparse = measureInChild('papaparse', csv, workDir);
      const parsedCsv = measureInChild('parse', csv, workDir);
      console.log(`  csv 1M x 8: worker ${parsedCsv.seconds.toFixed(2)} s, peak RSS ${parsedCsv.peakRssMb} MB; baseline papaparse stream ${papaparse.seconds.toFixed(2)} s (worker/papaparse ${(parsedCsv.seconds / papaparse.seconds).toFixed(2)})`);
      const prepared = measureInChild('prepare', xlsx, workDir);
      console.log(`  prepare xlsx 1M x 8 (Phone, Name, City; gzip CSV out): ${prepared.seconds.toFixed(2)} s, peak RSS ${prepared.peakRssMb} MB; baseline its own parse ${parsedXlsx.seconds.toFixed(2)} s`);
      summary('parse_xlsx_1m_seconds', parsedXlsx.seconds, 15);
      summary('parse_xlsx_1m_worker_peak_rss_mb', Math.round(parsedXlsx.peakRssMb), 600);
      summary('parse_csv_1m_seconds', parsedCsv.seconds, 3);
      // No target of its own: a prepare reads the file again, so its ceiling is the parse's.
      summary('prepare_1m_seconds', prepared.seconds, 15);
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  },
};
