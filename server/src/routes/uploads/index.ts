import Router from '@koa/router';
import { messages } from '@shared/messages';
import { ZCreateUploadRequest, ZPartNumber, ZUploadId } from '@shared/schemas/uploads';
import { NotFoundError, UnsupportedMediaTypeError } from '../../errors';
import { requireAuth } from '../../middleware/auth';
import { discardRest } from '../../middleware/body';
import { validate } from '../../middleware/validate';
import { presentUpload, presentUploadCompleted, presentUploadCreated, presentUploadPart } from '../../presenters/uploads';
import type { Services } from '../../container';
import type { AppState } from '../../types';
import { requestGone } from '../sending';

/** The id from the path; one that cannot be an upload's is simply not there. */
function uploadId(value: string | undefined): string {
  const parsed = ZUploadId.safeParse(value);
  if (!parsed.success) throw NotFoundError(messages.uploads.notFound, 'upload_not_found');
  return parsed.data;
}

/**
 * Resumable uploads, by session (cookie or the desktop's bearer token). Part bodies are
 * raw bytes that the body gate passes through unread (up to the part size); the route streams them
 * to disk once the caller and the upload are known.
 */
export function uploadRoutes(services: Services): Router<AppState> {
  const router = new Router<AppState>();
  const uploads = services.uploads;

  router.post('/api/uploads', async (ctx) => {
    const { user, actor } = requireAuth(ctx);
    const input = validate(ZCreateUploadRequest, ctx.request.body);
    const upload = await uploads.create(user.id, input);
    await services.team.recordActor('upload', upload.id, user.id, actor.id, { filename: upload.filename });
    ctx.status = 201;
    ctx.body = presentUploadCreated(upload);
  });

  router.get('/api/uploads/:id', async (ctx) => {
    const { user } = requireAuth(ctx);
    ctx.body = presentUpload(await uploads.get(user.id, uploadId(ctx.params.id)));
  });

  router.put('/api/uploads/:id/parts/:n', async (ctx) => {
    try {
      const { user } = requireAuth(ctx);
      const id = uploadId(ctx.params.id);
      const n = validate(ZPartNumber, ctx.params.n);
      if (!ctx.is('application/octet-stream')) throw UnsupportedMediaTypeError(messages.uploads.partContentType);
      const length = ctx.get('Content-Length');
      ctx.body = presentUploadPart(await uploads.putPart(user.id, id, n, ctx.req, length ? Number(length) : null));
    } catch (error) {
      // A signed-in caller's refused part of a declared length (the gate bounded it) is read to its
      // end first, so the answer reaches the client; any other unread body closes the connection.
      const declared = ctx.state.auth !== null && ctx.get('Content-Length') !== '';
      if (!(declared && (await discardRest(ctx.req)))) ctx.set('Connection', 'close');
      throw error;
    }
  });

  router.post('/api/uploads/:id/complete', async (ctx) => {
    const { user } = requireAuth(ctx);
    ctx.body = presentUploadCompleted(await uploads.complete(user.id, uploadId(ctx.params.id), requestGone(ctx.res)));
  });

  router.delete('/api/uploads/:id', async (ctx) => {
    const { user } = requireAuth(ctx);
    await uploads.remove(user.id, uploadId(ctx.params.id));
    ctx.status = 204;
  });

  return router;
}
