import Router from '@koa/router';
import type { Middleware } from 'koa';
import { CONVERSATIONS } from '@shared/constants';
import { messages } from '@shared/messages';
import { ZConversationPhone, ZConversationsQuery, ZSendReplyRequest, ZThreadQuery } from '@shared/schemas/conversations';
import { NotFoundError, PayloadTooLargeError, ValidationError } from '../../errors';
import { callerOf, sessionOrApiKey, type SessionOrKeyState } from '../../middleware/sessionOrApiKey';
import { validate } from '../../middleware/validate';
import { presentConversation, presentConversationMessage, presentConversationsPage, presentThread } from '../../presenters/conversations';
import type { Services } from '../../container';
import type { AppState } from '../../types';

/** The reply call, whose JSON body is read after the session or key is known (app.ts). */
export const REPLY_PATH = /^\/api\/conversations\/\d{8,15}\/messages$/;
/** A file to answer with: its raw bytes, up to CONVERSATIONS.mediaMaxBytes. */
export const REPLY_MEDIA_UPLOAD_PATH = '/api/conversations/media';

function phoneOf(value: string | undefined): string {
  const parsed = ZConversationPhone.safeParse(value);
  if (!parsed.success) throw NotFoundError(messages.conversations.notFound, 'conversation_not_found');
  return parsed.data;
}

/** Reads a raw body up to the limit (the gate refused a larger declared length already). */
async function readRaw(req: NodeJS.ReadableStream, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw PayloadTooLargeError();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Replies: conversations with contacts, by session or API key. Lists and threads are cursor
 * pages; a reply goes out inside Meta's 24-hour customer service window only (409
 * outside_service_window after it); files of contacts are served to their owner alone.
 */
export function conversationRoutes(services: Services, body: Middleware<AppState>): Router<AppState> {
  const router = new Router<SessionOrKeyState>();
  const caller = sessionOrApiKey({ apiKeys: services.apiKeys, apiRateLimit: services.integrations.readRateLimit });
  const conversations = services.conversations;

  router.get('/api/conversations', caller, async (ctx) => {
    const query = validate(ZConversationsQuery, ctx.query);
    ctx.body = presentConversationsPage(await conversations.list(callerOf(ctx).id, { number: query.number, campaignId: query.campaign_id, unread: query.unread, q: query.q, cursor: query.cursor }));
  });

  router.post(REPLY_MEDIA_UPLOAD_PATH, caller, async (ctx) => {
    const user = callerOf(ctx);
    const bytes = await readRaw(ctx.req, CONVERSATIONS.mediaMaxBytes);
    const stored = await conversations.storeReplyMedia(user.id, bytes, ctx.get('X-File-Type') || ctx.get('Content-Type'));
    ctx.status = 201;
    ctx.body = { media_upload_id: stored.id, mime_type: stored.mime, size: stored.size };
  });

  router.get('/api/conversations/media/:id', caller, async (ctx) => {
    const id = Number(ctx.params.id);
    if (!Number.isSafeInteger(id) || id < 1) throw NotFoundError(messages.conversations.mediaNotFound, 'media_not_found');
    const file = await conversations.mediaFile(callerOf(ctx).id, id);
    ctx.type = file.mime;
    ctx.length = file.size;
    ctx.set('Cache-Control', 'private, max-age=3600');
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (file.filename) ctx.attachment(file.filename, { type: 'inline' });
    ctx.body = file.stream;
  });

  router.get('/api/conversations/:phone/messages', caller, async (ctx) => {
    const query = validate(ZThreadQuery, ctx.query);
    ctx.body = presentThread(await conversations.thread(callerOf(ctx).id, phoneOf(ctx.params.phone), query.cursor));
  });

  router.post('/api/conversations/:phone/messages', caller, body as Middleware<SessionOrKeyState>, async (ctx) => {
    const phone = phoneOf(ctx.params.phone);
    const input = validate(ZSendReplyRequest, ctx.request.body);
    if (input.media_upload_id === undefined && !input.text) throw ValidationError('text', messages.conversations.textRequired);
    const account = callerOf(ctx);
    const sent = await conversations.reply(account.id, phone, { text: input.text, mediaUploadId: input.media_upload_id, caption: input.caption });
    // A reply over an API key has no member behind it; a session's does.
    const actor = ctx.state.auth?.actor;
    if (actor) await services.team.recordActor('reply', sent.id, account.id, actor.id);
    ctx.status = 201;
    ctx.body = { data: presentConversationMessage(sent) };
  });

  router.post('/api/conversations/:phone/read', caller, async (ctx) => {
    ctx.body = { data: presentConversation(await conversations.markRead(callerOf(ctx).id, phoneOf(ctx.params.phone))) };
  });

  return router as unknown as Router<AppState>;
}
