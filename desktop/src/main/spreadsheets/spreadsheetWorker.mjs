// The spreadsheet worker from TypeScript source (vitest, tsx): a worker thread starts without its
// parent's loaders, so this plain module registers tsx (with the repository's tsconfig, for the
// @shared alias) before loading the worker, as server/src/sending/parseWorker.mjs does. The built
// app runs out/main/spreadsheetWorker.js instead.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
register({ tsconfig: path.join(root, 'tsconfig.json') });
await import('./spreadsheetWorker.ts');
