import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const fromHere = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

/** `npm start` builds into the directory the server will serve (WEB_DIST_DIR) through this. */
const OUT_DIR = process.env.WEB_OUT_DIR ? path.resolve(process.env.WEB_OUT_DIR) : fromHere('./dist/web');

/** The dev server forwards API and simulator calls so the browser sees one origin (cookies). */
const API_TARGET = process.env.SANDESH_API_URL ?? 'http://127.0.0.1:3000';

/**
 * recharts and the libraries only it uses (d3, redux) are as large as the rest of the app: they get
 * a chunk of their own that loads with the activity chart rather than with every page.
 */
const CHART_LIBRARIES =
  /node_modules[\\/](recharts|victory-vendor|d3-[\w-]+|@reduxjs[\\/]toolkit|redux|redux-thunk|react-redux|reselect|immer|decimal\.js-light|es-toolkit|eventemitter3|use-sync-external-store)[\\/]/;

/**
 * The web build of the renderer. The Electron build (desktop/electron.vite.config.ts) uses the
 * same `index.html`, so the renderer must not depend on anything configured only here.
 */
export default defineConfig({
  root: fromHere('./desktop/src/renderer'),
  plugins: [react(), tailwindcss()],
  // The spreadsheet worker loads exceljs on demand: code splitting needs ES module workers.
  worker: { format: 'es' },
  resolve: {
    alias: { '@shared': fromHere('./shared') },
  },
  build: {
    outDir: OUT_DIR,
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler)[\\/]/, priority: 20 },
            { name: 'vendor', test: (id) => /node_modules[\\/]/.test(id) && !CHART_LIBRARIES.test(id), priority: 10 },
            // After vendor, so that what recharts shares with the app (clsx) stays in vendor.
            { name: 'charts', test: CHART_LIBRARIES, priority: 5 },
          ],
        },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
      '/simulator': { target: API_TARGET, changeOrigin: false },
    },
  },
  preview: {
    host: '127.0.0.1',
    port: 4173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
      '/simulator': { target: API_TARGET, changeOrigin: false },
    },
  },
});
