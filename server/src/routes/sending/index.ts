import type { ServerResponse } from 'node:http';
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { SENDING } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { ZApiSendBatchRequest, ZApiSendRequest, ZCostPreviewRequest, ZCustomSendRequest, ZQuickSendRequest } from '@shared/schemas/sending';
import { ConflictError, NotFoundError, ValidationError } from '../../errors';
import { apiKeyAuth, assertKeyOwner, type ApiKeyStateExtra } from '../../middleware/apiKey';
import { requireAuth } from '../../middleware/auth';
import { idempotencyKeys } from '../../middleware/idempotency';
import { singleFileUpload, uploadedFile } from '../../middleware/upload';
import { validate } from '../../middleware/validate';
import type { Services } from '../../container';
import { presentCostPreview } from '../../presenters/costPreview';
import { acceptedText, presentSendAccepted, presentSenderNumber } from '../../presenters/sending';
import { formatIstTime } from '@shared/istTime';
import type { AppState } from '../../types';

const RECIPIENT_FILE_BYTES = SENDING.recipientFileMaxMb * 1024 * 1024;
const SPREADSHEET_EXTENSIONS = /\.(xlsx|xls|csv)$/i;

/** One uploaded file in memory under `field`, with the catalogue's words for files too large. */
function singleUpload(field: string, maxBytes: number, tooLarge: string): Middleware<AppState> {
  return singleFileUpload({ field, maxBytes, maxFields: 20, maxFieldBytes: 40 * 1024 * 1024, tooLarge, otherLimit: messages.sending.uploadRetry });
}

/**
 * Holds one of the caller's spreadsheet parse slots from before the upload is read until
 * the answer is written; a caller with all slots taken gets 429 without any of the body being read.
 * The slot is also given back when the client goes away mid-upload or mid-parse.
 */
function parseSlot(services: Services): Middleware<AppState> {
  return async (ctx, next) => {
    const { user } = requireAuth(ctx);
    const release = services.spreadsheets.acquire(user.id);
    ctx.res.once('close', release);
    try {
      await next();
    } finally {
      release();
    }
  };
}

/** Fires when the client goes away before its answer is written: the parse stops and its worker ends. */
export function requestGone(response: ServerResponse): AbortSignal {
  const controller = new AbortController();
  // Gone already (between the upload and this call): nothing will fire `close` again.
  if (response.destroyed) controller.abort();
  response.once('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}

function requireSpreadsheet(ctx: { request: unknown }, invalidType: string): { filename: string; buffer: Buffer } {
  const file = uploadedFile(ctx);
  if (!file) throw ValidationError('file', messages.sending.uploadRetry);
  if (!SPREADSHEET_EXTENSIONS.test(file.originalname)) throw ValidationError('file', invalidType);
  return { filename: file.originalname, buffer: file.buffer };
}

/** The public API's JSON parsers, run after its key is accepted (middleware/body.ts). */
export interface ApiSendBodies {
  apiSend: Middleware<AppState>;
  apiSendBatch: Middleware<AppState>;
}

export function sendingRoutes(services: Services, bodies: ApiSendBodies): Router<AppState> {
  const router = new Router<AppState>();
  const sending = services.sending;

  router.get('/api/whatsapp/numbers', async (ctx) => {
    const { user } = requireAuth(ctx);
    ctx.body = { success: true, data: (await sending.numbers(user)).map(presentSenderNumber) };
  });

  // The owner's "Resume sending" of a number Meta had stopped (sending/senderHealth.ts).
  router.post('/api/whatsapp/numbers/:id/resume-sending', async (ctx) => {
    const { user } = requireAuth(ctx);
    const number = await services.senderHealth.numberOf(user.id, Number(ctx.params.id) || 0);
    if (!number) throw NotFoundError(messages.senderStops.numberNotFound);
    const resumed = await services.senderHealth.resume(number.id);
    if (resumed === null) throw ConflictError('number_not_stopped', messages.senderStops.notStopped);
    ctx.body = { success: true, message: messages.senderStops.resumeDone, data: { resumed_campaign_ids: resumed } };
  });

  const slot = parseSlot(services);
  router.post('/api/whatsapp/import-recipients', slot, singleUpload('file', RECIPIENT_FILE_BYTES, messages.sending.importFileTooLarge), async (ctx) => {
    requireAuth(ctx);
    const file = requireSpreadsheet(ctx, messages.sending.importInvalidFileType);
    ctx.body = { success: true, data: await services.spreadsheets.importRecipients(file, requestGone(ctx.res)) };
  });

  router.post('/api/whatsapp/parse-excel', slot, singleUpload('file', RECIPIENT_FILE_BYTES, messages.sending.recipientFileTooLarge), async (ctx) => {
    requireAuth(ctx);
    const file = requireSpreadsheet(ctx, messages.sending.invalidFileTypeSpreadsheet);
    const sheet = await services.spreadsheets.read(file, requestGone(ctx.res));
    ctx.body = { success: true, data: { rows: sheet.rows, columns: sheet.columns, totalRows: sheet.rows.length, truncated: sheet.truncated } };
  });

  const quickSend = (source: 'quick' | 'bulk'): Middleware<AppState> => async (ctx) => {
    const { user, actor } = requireAuth(ctx);
    const input = validate(ZQuickSendRequest, ctx.request.body);
    const image = uploadedFile(ctx);
    // A send call with `dry_run` answers the cost preview of that exact send instead of accepting it.
    const outcome = await sending.quickSend(user, input, source, image ? { buffer: image.buffer, size: image.size } : undefined, requestGone(ctx.res));
    if (outcome.kind === 'preview') {
      ctx.body = { success: true, preview: presentCostPreview(outcome.preview) };
      return;
    }
    await services.team.recordActor('campaign', outcome.accepted.campaign.campaignId, user.id, actor.id);
    const data = presentSendAccepted(outcome.accepted);
    void services.notifications.lowBalanceCheck(user.id);
    ctx.body = {
      success: true,
      message: acceptedText(data, source === 'bulk' ? messages.sending.bulkSendAccepted : messages.sending.quickSendAccepted),
      data,
    };
  };
  const imageUpload = singleUpload('headerImage', SENDING.sendImageMaxMb * 1024 * 1024, messages.sending.imageTooLarge);
  router.post('/api/whatsapp/quick-send', imageUpload, quickSend('quick'));
  router.post('/api/whatsapp/bulk-quick-send', imageUpload, quickSend('bulk'));

  router.post('/api/whatsapp/send-custom-messages', async (ctx) => {
    const { user, actor } = requireAuth(ctx);
    const input = validate(ZCustomSendRequest, ctx.request.body);
    const outcome = await sending.customSend(user, input, 'custom', requestGone(ctx.res));
    if (outcome.kind === 'preview') {
      ctx.body = { success: true, preview: presentCostPreview(outcome.preview) };
      return;
    }
    await services.team.recordActor('campaign', outcome.accepted.campaign.campaignId, user.id, actor.id);
    const data = presentSendAccepted(outcome.accepted);
    void services.notifications.lowBalanceCheck(user.id);
    ctx.body = {
      success: true,
      sent_count: data.accepted,
      message: acceptedText(data, messages.sending.customSendAccepted),
      data,
    };
  });

  router.post('/api/whatsapp/bulk-customize-send', async (ctx) => {
    const { user, actor } = requireAuth(ctx);
    const input = validate(ZCustomSendRequest, ctx.request.body);
    const outcome = await sending.customSend(user, input, 'custom', requestGone(ctx.res));
    if (outcome.kind === 'preview') {
      ctx.body = { success: true, preview: presentCostPreview(outcome.preview) };
      return;
    }
    await services.team.recordActor('campaign', outcome.accepted.campaign.campaignId, user.id, actor.id);
    const data = presentSendAccepted(outcome.accepted);
    void services.notifications.lowBalanceCheck(user.id);
    ctx.body = {
      success: true,
      message: acceptedText(data, messages.sending.bulkSendAccepted),
      data: { ...data, successful_sends: data.accepted, failed_sends: data.skipped },
    };
  });

  router.post('/api/send/cost-preview', async (ctx) => {
    const { user } = requireAuth(ctx);
    const input = validate(ZCostPreviewRequest, ctx.request.body);
    ctx.body = { success: true, preview: presentCostPreview(await sending.costPreview(user, input)) };
  });

  // The public API: an API key instead of a session (docs/decisions/2026-11-21-accounts-and-api-keys.md), answered in its own shape.
  const keyed = apiKeyAuth({ apiKeys: services.apiKeys, apiRateLimit: services.apiRateLimit });
  const idempotent = idempotencyKeys(services.integrations.idempotency);
  router.post<ApiKeyStateExtra>('/api/send', keyed, bodies.apiSend, idempotent, async (ctx) => {
    const input = validate(ZApiSendRequest, ctx.request.body);
    assertKeyOwner(ctx, input.username);
    const result = await services.apiSends.apiSend(ctx.state.apiUser, input, ctx.state.apiKey.keyId);
    // A blocked duplicate or an opted-out number is stored, not sent and not charged: the answer says which.
    const message =
      result.status === 'duplicate'
        ? messages.publicApi.duplicateBlocked
        : result.status === 'suppressed'
          ? messages.publicApi.optedOut
          : result.scheduledAt
            ? fillMessage(messages.publicApi.scheduled, { time: formatIstTime(result.scheduledAt) })
            : messages.publicApi.sent;
    ctx.body = {
      success: true,
      message_id: result.messageId,
      message,
      campaign_id: result.campaignId,
      status: result.status,
      charged: result.status !== 'duplicate' && result.status !== 'suppressed',
      ...(result.scheduledAt && result.status === 'scheduled' ? { scheduled_at: result.scheduledAt.toISOString() } : {}),
    };
  });

  router.post<ApiKeyStateExtra>('/api/send/batch', keyed, bodies.apiSendBatch, idempotent, async (ctx) => {
    const input = validate(ZApiSendBatchRequest, ctx.request.body);
    assertKeyOwner(ctx, input.username);
    const accepted = await services.apiSends.apiSendBatch(ctx.state.apiUser, input);
    await services.team.recordApiCampaign(accepted.campaign.campaignId, ctx.state.apiUser.id, ctx.state.apiKey.keyId);
    const data = presentSendAccepted(accepted);
    ctx.body = { success: true, message: acceptedText(data, messages.publicApi.batchAccepted), data };
  });

  return router;
}
