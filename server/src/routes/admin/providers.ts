import Router from '@koa/router';
import { messages } from '@shared/messages';
import { ZIdParam } from '@shared/schemas/common';
import { ZBusinessInfoRequest, ZProviderSettingsRequest } from '@shared/schemas/providers';
import type {
  TBusinessInfoResponse,
  TBusinessInfoSaveResponse,
  TProviderSettingsResponse,
  TProviderSettingsSaveResponse,
} from '@shared/types';
import { ConflictError, NotFoundError } from '../../errors';
import { requireAdmin } from '../../middleware/auth';
import { validate } from '../../middleware/validate';
import { presentBusinessInfo, presentProviderSettings } from '../../presenters/providers';
import { presentSenderNumber } from '../../presenters/sending';
import type { Services } from '../../container';
import type { AppState } from '../../types';

/** A user's provider configuration (spec 001 §7): business info and channel provider settings. */
export function adminProviderRoutes(services: Services): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/admin' });
  const { businessInfo, channelSettings } = services;

  router.get('/users/:id/business-info', async (ctx) => {
    requireAdmin(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const info = await businessInfo.get(id);
    const body: TBusinessInfoResponse = { success: true, businessInfo: info ? presentBusinessInfo(info) : null };
    ctx.body = body;
  });

  router.put('/users/:id/business-info', async (ctx) => {
    const { user: admin } = requireAdmin(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const input = validate(ZBusinessInfoRequest, ctx.request.body);
    const info = await businessInfo.put(admin, id, input, ctx.ip);
    const body: TBusinessInfoSaveResponse = { success: true, message: messages.providers.businessInfoSaved, businessInfo: presentBusinessInfo(info) };
    ctx.body = body;
  });

  // The user's sender numbers with their sending state: a number Meta stopped, and its Resume.
  router.get('/users/:id/sender-numbers', async (ctx) => {
    requireAdmin(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    ctx.body = { success: true, data: (await services.senderNumbers.listForUser(id)).map(presentSenderNumber) };
  });

  router.post('/users/:id/sender-numbers/:numberId/resume-sending', async (ctx) => {
    requireAdmin(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const number = await services.senderHealth.numberOf(id, validate(ZIdParam, ctx.params.numberId));
    if (!number) throw NotFoundError(messages.senderStops.numberNotFound);
    const resumed = await services.senderHealth.resume(number.id);
    if (resumed === null) throw ConflictError('number_not_stopped', messages.senderStops.notStopped);
    ctx.body = { success: true, message: messages.senderStops.resumeDone, data: { resumed_campaign_ids: resumed } };
  });

  router.get('/whatsapp/settings/:userId', async (ctx) => {
    requireAdmin(ctx);
    const userId = validate(ZIdParam, ctx.params.userId);
    const body: TProviderSettingsResponse = { success: true, ...presentProviderSettings(await channelSettings.get(userId)) };
    ctx.body = body;
  });

  router.put('/whatsapp/settings/:userId', async (ctx) => {
    const { user: admin } = requireAdmin(ctx);
    const userId = validate(ZIdParam, ctx.params.userId);
    const input = validate(ZProviderSettingsRequest, ctx.request.body);
    const settings = await channelSettings.put(admin, userId, input, ctx.ip);
    const body: TProviderSettingsSaveResponse = {
      success: true,
      message: messages.providers.settingsSaved,
      channelId: settings.channelId,
      apiKeySet: settings.apiKeySet,
      updatedAt: settings.updatedAt.toISOString(),
      webhook: settings.webhook,
    };
    ctx.body = body;
  });

  return router;
}
