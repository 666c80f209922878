import Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import { SENDING } from '@shared/constants';
import { messages } from '@shared/messages';
import {
  ZAudienceSendRequest,
  ZContactBulkRequest,
  ZDefineAttributeRequest,
  ZSegmentCountRequest,
  ZContactInput,
  ZContactPatch,
  ZContactsQuery,
  ZCreateSegmentRequest,
  ZUpdateSegmentRequest,
} from '@shared/schemas/contacts';
import { callerOf, sessionOrApiKey, type SessionOrKeyState } from '../../middleware/sessionOrApiKey';
import { singleFileUpload, uploadedFile } from '../../middleware/upload';
import { validate } from '../../middleware/validate';
import { requireAuth } from '../../middleware/auth';
import {
  presentAttributeList,
  presentAudiencePreview,
  presentContact,
  presentContactBulk,
  presentContactHistory,
  presentContactsPage,
  presentSegment,
  presentSegmentCount,
} from '../../presenters/contacts';
import { acceptedText, presentSendAccepted } from '../../presenters/sending';
import type { Services } from '../../container';
import type { AppState } from '../../types';

const ZId = z.coerce.number().int().min(1).max(2 ** 31 - 1);

/**
 * The contact book and its segments, by session or API key. Bodies are read after the caller is
 * known; the bulk call has the send batch's larger body limit (ten thousand contacts).
 */
export function contactRoutes(services: Services, bodies: { json: Middleware<AppState>; bulk: Middleware<AppState> }): Router<AppState> {
  const router = new Router<SessionOrKeyState>();
  const caller = sessionOrApiKey({ apiKeys: services.apiKeys, apiRateLimit: services.integrations.readRateLimit });
  const body = bodies.json as Middleware<SessionOrKeyState>;
  const { contacts, segments, contactDirectory } = services;

  router.get('/api/contacts', caller, async (ctx) => {
    ctx.body = presentContactsPage(await segments.contactsPage(callerOf(ctx).id, validate(ZContactsQuery, ctx.query)));
  });

  router.post('/api/contacts', caller, body, async (ctx) => {
    const created = await contacts.create(callerOf(ctx).id, validate(ZContactInput, ctx.request.body));
    ctx.status = 201;
    ctx.body = presentContact(created);
  });

  router.post('/api/contacts/bulk', caller, bodies.bulk as Middleware<SessionOrKeyState>, async (ctx) => {
    const input = validate(ZContactBulkRequest, ctx.request.body);
    ctx.body = presentContactBulk(await contacts.bulk(callerOf(ctx).id, input.contacts, input.existing));
  });

  // The book's own resources come before `/api/contacts/:phone`, which would otherwise take their names as numbers.
  router.get('/api/contacts/attributes', caller, async (ctx) => {
    ctx.body = presentAttributeList(await contactDirectory.attributes(callerOf(ctx).id));
  });

  router.post('/api/contacts/attributes', caller, body, async (ctx) => {
    const defined = await contactDirectory.defineAttribute(callerOf(ctx).id, validate(ZDefineAttributeRequest, ctx.request.body));
    ctx.status = 201;
    ctx.body = defined;
  });

  router.delete('/api/contacts/attributes/:name', caller, async (ctx) => {
    await contactDirectory.removeAttribute(callerOf(ctx).id, ctx.params.name ?? '');
    ctx.status = 204;
  });

  router.get('/api/contacts/tags', caller, async (ctx) => {
    ctx.body = { data: await contactDirectory.tags(callerOf(ctx).id) };
  });

  router.get('/api/contacts/:phone/history', caller, async (ctx) => {
    const cursor = typeof ctx.query.cursor === 'string' ? ctx.query.cursor : undefined;
    ctx.body = presentContactHistory(await contactDirectory.history(callerOf(ctx).id, ctx.params.phone ?? '', cursor));
  });

  router.get('/api/contacts/:phone', caller, async (ctx) => {
    ctx.body = presentContact(await contacts.get(callerOf(ctx).id, ctx.params.phone ?? ''));
  });

  router.patch('/api/contacts/:phone', caller, body, async (ctx) => {
    ctx.body = presentContact(await contacts.update(callerOf(ctx).id, ctx.params.phone ?? '', validate(ZContactPatch, ctx.request.body)));
  });

  router.delete('/api/contacts/:phone', caller, async (ctx) => {
    await contacts.remove(callerOf(ctx).id, ctx.params.phone ?? '');
    ctx.status = 204;
  });

  router.get('/api/segments', caller, async (ctx) => {
    ctx.body = { data: (await segments.list(callerOf(ctx).id)).map(presentSegment) };
  });

  router.post('/api/segments', caller, body, async (ctx) => {
    const created = await segments.create(callerOf(ctx).id, validate(ZCreateSegmentRequest, ctx.request.body));
    ctx.status = 201;
    ctx.body = presentSegment(created);
  });

  router.post('/api/segments/count', caller, body, async (ctx) => {
    ctx.body = presentSegmentCount(await segments.countFilter(callerOf(ctx).id, validate(ZSegmentCountRequest, ctx.request.body).filter));
  });

  router.get('/api/segments/:id', caller, async (ctx) => {
    ctx.body = presentSegment(await segments.get(callerOf(ctx).id, validate(ZId, ctx.params.id)));
  });

  router.patch('/api/segments/:id', caller, body, async (ctx) => {
    ctx.body = presentSegment(await segments.update(callerOf(ctx).id, validate(ZId, ctx.params.id), validate(ZUpdateSegmentRequest, ctx.request.body)));
  });

  router.delete('/api/segments/:id', caller, async (ctx) => {
    await segments.remove(callerOf(ctx).id, validate(ZId, ctx.params.id));
    ctx.status = 204;
  });

  router.get('/api/segments/:id/count', caller, async (ctx) => {
    ctx.body = presentSegmentCount(await segments.count(callerOf(ctx).id, validate(ZId, ctx.params.id)));
  });

  // The app's send to a segment or to tagged contacts, signed in only (integrators send with
  // `segment_id` on /api/send/batch); `dry_run` answers its preview.
  const signedIn: Middleware<SessionOrKeyState> = async (ctx, next) => {
    requireAuth(ctx);
    await next();
  };
  // A template with an image header takes its image as Quick Send does: multipart, `headerImage`.
  const headerImage = singleFileUpload({
    field: 'headerImage',
    maxBytes: SENDING.sendImageMaxMb * 1024 * 1024,
    maxFields: 20,
    maxFieldBytes: 1024 * 1024,
    tooLarge: messages.sending.imageTooLarge,
    otherLimit: messages.sending.uploadRetry,
  }) as unknown as Middleware<SessionOrKeyState>;
  router.post('/api/whatsapp/audience-send', signedIn, body, headerImage, async (ctx) => {
    const image = uploadedFile(ctx);
    const input = validate(ZAudienceSendRequest, ctx.request.body);
    const outcome = await services.audienceSends.audienceSend(requireAuth(ctx).user, input, image ? { buffer: image.buffer, size: image.size } : undefined);
    if (outcome.kind === 'preview') {
      ctx.body = { success: true, preview: presentAudiencePreview(outcome.preview) };
      return;
    }
    const data = presentSendAccepted(outcome.accepted);
    ctx.body = { success: true, message: acceptedText(data, messages.sending.quickSendAccepted), data };
  });

  return router as unknown as Router<AppState>;
}
