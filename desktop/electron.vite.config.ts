/**
 * electron-vite build of the desktop app: main (ESM, as package.json says "type": "module"),
 * preload (CommonJS, because sandboxed preloads cannot be ES modules) and the renderer (the same
 * React app and index.html the web build uses). Outputs go to out/{main,preload,renderer}, which
 * is what electron-builder.yml packages.
 */
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const fromRoot = (...segments: string[]): string => resolve(projectRoot, ...segments);
const alias = { '@shared': fromRoot('shared') };

export default defineConfig({
  main: {
    resolve: { alias },
    build: {
      outDir: fromRoot('out/main'),
      // Two entries: the app, and the spreadsheet worker thread it starts by file name
      // (out/main/spreadsheetWorker.js beside out/main/index.js; spreadsheets/localSpreadsheets.ts).
      lib: {
        entry: {
          index: fromRoot('desktop/src/main/index.ts'),
          spreadsheetWorker: fromRoot('desktop/src/main/spreadsheets/spreadsheetWorker.ts'),
        },
      },
      // Bundle everything (zod, @shared) except the native keychain binding, which must load from
      // node_modules at run time; electron-builder.yml ships exactly that one package.
      externalizeDeps: false,
      rolldownOptions: { external: ['@napi-rs/keyring', /^@napi-rs\/keyring-/] },
    },
  },
  preload: {
    resolve: { alias },
    build: {
      outDir: fromRoot('out/preload'),
      lib: { entry: fromRoot('desktop/src/preload/index.ts') },
      // A sandboxed preload gets a `require` that knows only `electron` and a few polyfills:
      // everything else (@shared) is bundled into the one file.
      externalizeDeps: false,
      rolldownOptions: {
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: {
    root: fromRoot('desktop/src/renderer'),
    // No `base`: electron-vite forces './' for production renderers. Relative asset URLs are safe
    // because the desktop renderer routes with a HashRouter, so the document is always at `/`.
    resolve: { alias },
    plugins: [react(), tailwindcss()],
    // As vite.web.config.mts: the spreadsheet worker splits SheetJS into its own chunk.
    worker: { format: 'es' },
    build: {
      outDir: fromRoot('out/renderer'),
      emptyOutDir: true,
      rolldownOptions: { input: fromRoot('desktop/src/renderer/index.html') },
    },
  },
});
