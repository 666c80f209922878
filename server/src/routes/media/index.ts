import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import Router from '@koa/router';
import { messages } from '@shared/messages';
import { NotFoundError } from '../../errors';
import type { AppState } from '../../types';

/** Stored names are random UUIDs with an image, video or document extension. */
const MEDIA_FILE = /^[0-9a-f-]{36}\.(jpg|png|mp4|3gp|pdf)$/;
const TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', mp4: 'video/mp4', '3gp': 'video/3gpp', pdf: 'application/pdf' };

/**
 * Header files of campaigns and templates, fetched by the provider from the link in each send
 * (WhatsApp downloads media by URL). Links are unguessable; nothing else under DATA_DIR is served.
 */
export function mediaRoutes(dataDir: string): Router<AppState> {
  const router = new Router<AppState>();
  const root = path.resolve(dataDir, 'media');
  const serve = async (ctx: { params: Record<string, string | undefined>; set(name: string, value: string): void; type: string; body: unknown; length: number }, parts: string[]) => {
    const file = parts[parts.length - 1] ?? '';
    if (!MEDIA_FILE.test(file)) throw NotFoundError(messages.server.notFound);
    const absolute = path.resolve(root, ...parts);
    if (!absolute.startsWith(root + path.sep)) throw NotFoundError(messages.server.notFound);
    const info = await stat(absolute).catch(() => null);
    if (!info?.isFile()) throw NotFoundError(messages.server.notFound);
    ctx.type = TYPES[path.extname(file).slice(1)] ?? 'application/octet-stream';
    ctx.length = info.size;
    ctx.set('Cache-Control', 'public, max-age=86400, immutable');
    ctx.body = createReadStream(absolute);
  };
  router.get('/media/campaigns/:file', (ctx) => serve(ctx, ['campaigns', ctx.params.file ?? '']));
  router.get('/media/templates/:userId/:file', (ctx) => {
    if (!/^\d+$/.test(ctx.params.userId ?? '')) throw NotFoundError(messages.server.notFound);
    return serve(ctx, ['templates', ctx.params.userId ?? '', ctx.params.file ?? '']);
  });
  return router;
}
