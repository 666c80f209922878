import Router from '@koa/router';
import multer from '@koa/multer';
import type { Middleware } from 'koa';
import { SENDING } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import type { TCampaignAccepted, TCostPreview } from '@shared/schemas/sending';
import { ZApiSendBatchRequest, ZApiSendRequest, ZCostPreviewRequest, ZCustomSendRequest, ZQuickSendRequest } from '@shared/schemas/sending';
import { ValidationError } from '../../errors';
import { apiKeyAuth, assertKeyOwner, type ApiKeyStateExtra } from '../../middleware/apiKey';
import { requireAuth } from '../../middleware/auth';
import { idempotencyKeys } from '../../middleware/idempotency';
import { validate } from '../../middleware/validate';
import { importRecipients } from '../../sending/recipientsImport';
import { readSpreadsheet } from '../../sending/spreadsheets';
import type { Services } from '../../services';
import type { AppState } from '../../types';

const RECIPIENT_FILE_BYTES = SENDING.recipientFileMaxMb * 1024 * 1024;
const SPREADSHEET_EXTENSIONS = /\.(xlsx|xls|csv)$/i;

/** One uploaded file in memory under `field`, with the catalogue's words for files too large. */
function singleUpload(field: string, maxBytes: number, tooLarge: string): Middleware<AppState> {
  const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 40 * 1024 * 1024 } }).single(field);
  return async (ctx, next) => {
    if (!ctx.is('multipart')) return next();
    // The file is read only for a signed-in caller (issue 11).
    requireAuth(ctx);
    try {
      await upload(ctx as never, async () => undefined);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'LIMIT_FILE_SIZE') throw ValidationError(field, tooLarge);
      if (code?.startsWith('LIMIT_')) throw ValidationError(field, messages.sending.uploadRetry);
      throw error;
    }
    return next();
  };
}

/** A send call with `dry_run` answers the cost preview of that exact send instead of accepting it. */
function isPreview(answer: TCampaignAccepted | TCostPreview): answer is TCostPreview {
  return 'pricePerMessage' in answer;
}

type UploadState = { request: { file?: { originalname: string; buffer: Buffer; size: number } } };

function requireSpreadsheet(ctx: UploadState, invalidType: string): { filename: string; buffer: Buffer } {
  const file = ctx.request.file;
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
    ctx.body = { success: true, data: await sending.numbers(user) };
  });

  router.post('/api/whatsapp/import-recipients', singleUpload('file', RECIPIENT_FILE_BYTES, messages.sending.importFileTooLarge), async (ctx) => {
    requireAuth(ctx);
    const file = requireSpreadsheet(ctx as UploadState, messages.sending.importInvalidFileType);
    ctx.body = { success: true, data: await importRecipients(file) };
  });

  router.post('/api/whatsapp/parse-excel', singleUpload('file', RECIPIENT_FILE_BYTES, messages.sending.recipientFileTooLarge), async (ctx) => {
    requireAuth(ctx);
    const file = requireSpreadsheet(ctx as UploadState, messages.sending.invalidFileTypeSpreadsheet);
    const sheet = await readSpreadsheet(file);
    ctx.body = { success: true, data: { rows: sheet.rows, columns: sheet.columns, totalRows: sheet.rows.length, truncated: sheet.truncated } };
  });

  const quickSend = (source: 'quick' | 'bulk'): Middleware<AppState> => async (ctx) => {
    const { user } = requireAuth(ctx);
    const input = validate(ZQuickSendRequest, ctx.request.body);
    const image = (ctx as unknown as UploadState).request.file;
    const data = await sending.quickSend(user, input, source, image ? { buffer: image.buffer, size: image.size } : undefined);
    if (isPreview(data)) {
      ctx.body = { success: true, preview: data };
      return;
    }
    void services.notifications.lowBalanceCheck(user.id);
    ctx.body = {
      success: true,
      message: fillMessage(source === 'bulk' ? messages.sending.bulkSendAccepted : messages.sending.quickSendAccepted, { count: data.accepted.toLocaleString('en-IN') }),
      data,
    };
  };
  const imageUpload = singleUpload('headerImage', SENDING.sendImageMaxMb * 1024 * 1024, messages.sending.imageTooLarge);
  router.post('/api/whatsapp/quick-send', imageUpload, quickSend('quick'));
  router.post('/api/whatsapp/bulk-quick-send', imageUpload, quickSend('bulk'));

  router.post('/api/whatsapp/send-custom-messages', async (ctx) => {
    const { user } = requireAuth(ctx);
    const input = validate(ZCustomSendRequest, ctx.request.body);
    const data = await sending.customSend(user, input, 'custom');
    if (isPreview(data)) {
      ctx.body = { success: true, preview: data };
      return;
    }
    void services.notifications.lowBalanceCheck(user.id);
    ctx.body = {
      success: true,
      sent_count: data.accepted,
      message: fillMessage(messages.sending.customSendAccepted, { count: data.accepted.toLocaleString('en-IN') }),
      data,
    };
  });

  router.post('/api/whatsapp/bulk-customize-send', async (ctx) => {
    const { user } = requireAuth(ctx);
    const input = validate(ZCustomSendRequest, ctx.request.body);
    const data = await sending.customSend(user, input, 'custom');
    if (isPreview(data)) {
      ctx.body = { success: true, preview: data };
      return;
    }
    void services.notifications.lowBalanceCheck(user.id);
    ctx.body = {
      success: true,
      message: fillMessage(messages.sending.bulkSendAccepted, { count: data.accepted.toLocaleString('en-IN') }),
      data: { ...data, successful_sends: data.accepted, failed_sends: data.skipped },
    };
  });

  router.post('/api/send/cost-preview', async (ctx) => {
    const { user } = requireAuth(ctx);
    const input = validate(ZCostPreviewRequest, ctx.request.body);
    ctx.body = { success: true, preview: await sending.costPreview(user, input) };
  });

  // The public API: an API key instead of a session (DECISIONS.md), answered in its own shape.
  const keyed = apiKeyAuth({ apiKeys: services.apiKeys, apiRateLimit: services.apiRateLimit });
  const idempotent = idempotencyKeys(services.integrations.idempotency);
  router.post<ApiKeyStateExtra>('/api/send', keyed, bodies.apiSend, idempotent, async (ctx) => {
    const input = validate(ZApiSendRequest, ctx.request.body);
    assertKeyOwner(ctx, input.username);
    const result = await sending.apiSend(ctx.state.apiUser, input);
    // A blocked duplicate or an opted-out number is stored, not sent and not charged: the answer says which.
    const message = result.status === 'duplicate' ? messages.publicApi.duplicateBlocked : result.status === 'suppressed' ? messages.publicApi.optedOut : messages.publicApi.sent;
    ctx.body = { success: true, message_id: result.messageId, message, campaign_id: result.campaignId, status: result.status, charged: result.status !== 'duplicate' && result.status !== 'suppressed' };
  });

  router.post<ApiKeyStateExtra>('/api/send/batch', keyed, bodies.apiSendBatch, idempotent, async (ctx) => {
    const input = validate(ZApiSendBatchRequest, ctx.request.body);
    assertKeyOwner(ctx, input.username);
    const data = await sending.apiSendBatch(ctx.state.apiUser, input);
    ctx.body = { success: true, message: fillMessage(messages.publicApi.batchAccepted, { count: data.accepted.toLocaleString('en-IN') }), data };
  });

  return router;
}
