import fs from 'node:fs';
import path from 'node:path';
import type { Context, Middleware } from 'koa';
import send from 'koa-send';
import type { AppState } from '../types';

const SERVER_PREFIXES = ['/api/', '/simulator/', '/sandbox/', '/media/'];

/** Hashed build output: its name changes with its content, so a browser may keep it for good. */
const HASHED_ASSETS_PREFIX = '/assets/';
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** The entry page names the current hashed files: always revalidated, so a release shows at once. */
export const ENTRY_CACHE = 'no-cache';
/** Anything else in the build (favicons and the like): an hour. */
const OTHER_FILE_CACHE = 'public, max-age=3600';

/**
 * The page served for `/` when the build prerendered the landing page (landing.html holds its
 * HTML, which the app then hydrates); index.html otherwise, and for every other client route.
 */
const LANDING_FILE = 'landing.html';
const INDEX_FILE = 'index.html';

function notFound(ctx: Context): void {
  ctx.remove('Cache-Control');
  ctx.remove('Content-Encoding');
  ctx.remove('Vary');
  ctx.status = 404;
  ctx.type = 'text/plain';
  ctx.body = 'Not found';
}

/**
 * Serves the built web app (docs/operations.md "Serving the web app"). The build writes a brotli (.br) and
 * a gzip (.gz) copy beside each text file; koa-send picks br, then gzip, then the plain file by the
 * request's Accept-Encoding, keeping the original's Content-Type. Source maps stay in the build
 * for the operator's stack traces but are never served. Any other GET that is not an API path
 * gets index.html so client-side routes work on reload.
 */
export function webApp(root: string): Middleware<AppState> {
  const indexFile = path.join(root, INDEX_FILE);
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || SERVER_PREFIXES.some((p) => ctx.path.startsWith(p)) || ctx.path === '/api') {
      return next();
    }
    if (!fs.existsSync(indexFile)) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The web app is not built yet. Run `npm run build` (npm start does it for you).';
      return;
    }
    ctx.vary('Accept-Encoding');
    const extension = path.extname(ctx.path);
    // landing.html by name gets index.html: the prerendered markup is only right at `/`.
    const entryPage = ctx.path === '/' || ctx.path === `/${INDEX_FILE}` || ctx.path === `/${LANDING_FILE}` || !extension;
    if (!entryPage) {
      // Also refuses the precompressed copies asked for by name: they are chosen, never addressed.
      if (extension === '.map' || extension === '.br' || extension === '.gz') return notFound(ctx);
      ctx.set('Cache-Control', ctx.path.startsWith(HASHED_ASSETS_PREFIX) ? IMMUTABLE_CACHE : OTHER_FILE_CACHE);
      try {
        if (await send(ctx, ctx.path, { root })) return;
      } catch (error) {
        const status = (error as { status?: number }).status;
        if (status !== 404 && status !== 400) throw error;
      }
      // A missing file with an extension is a real 404, not a client route.
      return notFound(ctx);
    }
    ctx.set('Cache-Control', ENTRY_CACHE);
    const page = ctx.path === '/' && fs.existsSync(path.join(root, LANDING_FILE)) ? LANDING_FILE : INDEX_FILE;
    await send(ctx, page, { root });
  };
}
