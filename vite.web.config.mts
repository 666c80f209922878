import fs from 'node:fs';
import { createServer, defineConfig, type Logger, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { firstLoadLine, measureFirstLoad } from './scripts/first-load-size.mjs';
import { precompressDirectory } from './scripts/precompress.mjs';
// With its extension, as Node itself would need: Vite warns of any extensionless import in the
// config's own graph (its native config loader will not resolve them).
import { LANDING_BOOT_SCRIPT } from './shared/landingBoot.ts';

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

const RENDERER_ROOT = fromHere('./desktop/src/renderer');
const ALIASES = { '@shared': fromHere('./shared') };
const EMPTY_ROOT = '<div id="root"></div>';
const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*href="([^"]+\.css)"[^>]*>/g;

/**
 * landing.html: index.html with the landing page already rendered in it (desktop/src/renderer/src/
 * prerender.tsx, run through a throwaway Vite SSR server) and its stylesheet inlined, so that on a
 * slow network the heading shows after one round trip, before any script. The server answers it
 * for `/`; main.tsx hydrates it.
 */
async function prerenderLanding(outDir: string): Promise<void> {
  const server = await createServer({
    configFile: false,
    root: RENDERER_ROOT,
    resolve: { alias: ALIASES },
    plugins: [react()],
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false },
  });
  try {
    const { renderLandingPage } = (await server.ssrLoadModule('/src/prerender.tsx')) as { renderLandingPage: () => string };
    const index = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
    if (!index.includes(EMPTY_ROOT)) throw new Error(`index.html has no ${EMPTY_ROOT} to prerender into`);
    const landing = index
      .replace(EMPTY_ROOT, () => `<div id="root">${renderLandingPage()}</div>`)
      .replace(STYLESHEET_LINK, (_link, href: string) => `<style>${fs.readFileSync(path.join(outDir, href), 'utf8')}</style>`)
      // Before anything paints: the remembered theme, and the toggle answered until hydration.
      .replace('</head>', () => `<script>${LANDING_BOOT_SCRIPT}</script></head>`);
    fs.writeFileSync(path.join(outDir, 'landing.html'), landing);
  } finally {
    await server.close();
  }
}

/**
 * After the files are written: the prerendered landing page, brotli and gzip copies for the
 * server to answer with (server/src/middleware/webApp.ts), then the first-load figure of issue 18.
 */
function precompressAndMeasure(outDir: string): Plugin {
  let logger: Logger | undefined;
  return {
    name: 'sandesh-precompress-and-measure',
    apply: 'build',
    configResolved(config) {
      logger = config.logger;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        await prerenderLanding(outDir);
        const totals = precompressDirectory(outDir);
        // Through Vite's logger: `--logLevel warn` (npm start, npm test) keeps these two lines out
        // of a newcomer's first run; `npm run build:web` still prints them.
        logger?.info(`precompressed ${totals.files} files: ${totals.bytes} B -> ${totals.brotliBytes} B brotli, ${totals.gzipBytes} B gzip`);
        logger?.info(firstLoadLine(measureFirstLoad(outDir)));
      },
    },
  };
}

/**
 * The web build of the renderer. The Electron build (desktop/electron.vite.config.ts) uses the
 * same `index.html`, so the renderer must not depend on anything configured only here.
 */
export default defineConfig({
  root: RENDERER_ROOT,
  plugins: [react(), tailwindcss(), precompressAndMeasure(OUT_DIR)],
  // The spreadsheet worker loads SheetJS (legacy .xls) on demand: code splitting needs ES module workers.
  worker: { format: 'es' },
  resolve: {
    alias: ALIASES,
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
