// The entry of a spreadsheet parse worker (parseWorkerPool.ts). The server runs from TypeScript
// source (scripts/start.mjs and the tests load it through tsx), and a worker thread starts without
// its parent's loaders, so this plain module registers tsx (with the repository's tsconfig, for the
// @shared alias) before loading the worker itself.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
register({ tsconfig: path.join(root, 'tsconfig.json') });
await import('./parseWorker.ts');
