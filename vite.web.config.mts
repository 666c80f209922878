import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { firstLoadLine, measureFirstLoad } from './scripts/first-load-size.mjs';
import { precompressDirectory } from './scripts/precompress.mjs';

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
 * After the files are written: brotli and gzip copies for the server to answer with
 * (server/src/middleware/webApp.ts), then the first-load figure of issue 18.
 */
function precompressAndMeasure(outDir: string): Plugin {
  return {
    name: 'sandesh-precompress-and-measure',
    apply: 'build',
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const totals = precompressDirectory(outDir);
        console.log(`precompressed ${totals.files} files: ${totals.bytes} B -> ${totals.brotliBytes} B brotli, ${totals.gzipBytes} B gzip`);
        console.log(firstLoadLine(measureFirstLoad(outDir)));
      },
    },
  };
}

/**
 * The web build of the renderer. The Electron build (desktop/electron.vite.config.ts) uses the
 * same `index.html`, so the renderer must not depend on anything configured only here.
 */
export default defineConfig({
  root: fromHere('./desktop/src/renderer'),
  plugins: [react(), tailwindcss(), precompressAndMeasure(OUT_DIR)],
  resolve: {
    alias: { '@shared': fromHere('./shared') },
  },
  build: {
    outDir: OUT_DIR,
    emptyOutDir: true,
    // Maps are written for the operator's stack traces but not referenced from the files, and the
    // server never serves them (source is not public in production).
    sourcemap: 'hidden',
    rolldownOptions: {
      output: {
        // React changes less often than the app: its own chunk stays cached across releases. Other
        // libraries are NOT grouped into one vendor chunk: each goes with the area that uses it
        // (routes.tsx), so the landing page does not download the admin screens' libraries.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler)[\\/]/, priority: 20 },
            // What recharts shares with every page (clsx): a group reaches a captured module's
            // dependencies too, so without this the landing page would load the charts chunk.
            { name: 'class-names', test: /node_modules[\\/](clsx|tailwind-merge)[\\/]/, priority: 15 },
            { name: 'charts', test: CHART_LIBRARIES, priority: 10 },
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
