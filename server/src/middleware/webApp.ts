import fs from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import send from 'koa-send';
import type { AppState } from '../types';

const SERVER_PREFIXES = ['/api/', '/simulator/', '/sandbox/', '/media/'];

/**
 * Serves the built web app. Hashed assets are cached for a year; any other GET that is not an
 * API path gets index.html (no-cache) so client-side routes work on reload.
 */
export function webApp(root: string): Middleware<AppState> {
  const indexFile = path.join(root, 'index.html');
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
    if (ctx.path !== '/' && path.extname(ctx.path)) {
      try {
        const served = await send(ctx, ctx.path, {
          root,
          immutable: ctx.path.startsWith('/assets/'),
          maxage: ctx.path.startsWith('/assets/') ? 365 * 24 * 3_600_000 : 3_600_000,
        });
        if (served) return;
      } catch (error) {
        const status = (error as { status?: number }).status;
        if (status !== 404 && status !== 400) throw error;
        // A missing file with an extension is a real 404, not a client route.
        ctx.status = 404;
        ctx.type = 'text/plain';
        ctx.body = 'Not found';
        return;
      }
    }
    await send(ctx, 'index.html', { root, setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') });
  };
}
