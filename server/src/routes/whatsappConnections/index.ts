import Router from '@koa/router';
import { fillMessage, messages } from '@shared/messages';
import { ZIdParam } from '@shared/schemas/common';
import { ZResumeConnectionRequest, ZStartConnectionRequest } from '@shared/schemas/whatsappConnections';
import { requireAdmin, requireAuth } from '../../middleware/auth';
import { validate } from '../../middleware/validate';
import { presentConnection, presentConnectSetup } from '../../presenters/whatsappConnections';
import type { SignupOutcome } from '../../providerAccounts/embeddedSignup';
import type { AppConfig } from '../../config';
import type { Services } from '../../container';
import type { AppState } from '../../types';

/**
 * Connect WhatsApp yourself (Embedded Signup) beside the owner's other number routes
 * (`/api/whatsapp/...`), and the administrator's disconnect beside the user's provider settings.
 * A run that stopped at a step answers 422 (the input) or 502/503 (Meta) with the catalogue's
 * text in `error` and the connection, so the card shows where it stopped.
 */
export function whatsappConnectionRoutes(services: Services, config: AppConfig): Router<AppState> {
  const router = new Router<AppState>();
  const { embeddedSignup } = services;

  const answer = (ctx: { status: number; body: unknown }, outcome: SignupOutcome, okStatus: number) => {
    const connection = presentConnection(outcome.connection);
    if (!outcome.failure) {
      ctx.status = okStatus;
      ctx.body = { success: true, message: fillMessage(messages.whatsappConnect.connected, { number: connection.display_phone_number ?? connection.phone_number_id }), connection };
      return;
    }
    ctx.status = outcome.failure.upstream ? 502 : 422;
    ctx.body = { success: false, error: outcome.failure.message, code: outcome.failure.code, connection };
  };

  router.get('/api/whatsapp/connect-setup', (ctx) => {
    requireAuth(ctx);
    ctx.body = { success: true, setup: presentConnectSetup(embeddedSignup.target(), config.simulator.url) };
  });

  router.get('/api/whatsapp/connections', async (ctx) => {
    const { user } = requireAuth(ctx);
    ctx.body = { success: true, connections: (await embeddedSignup.list(user.id)).map(presentConnection) };
  });

  router.post('/api/whatsapp/connections', async (ctx) => {
    const { user } = requireAuth(ctx);
    const input = validate(ZStartConnectionRequest, ctx.request.body);
    answer(ctx, await embeddedSignup.start(user.id, input), 201);
  });

  router.get('/api/whatsapp/connections/:id', async (ctx) => {
    const { user } = requireAuth(ctx);
    ctx.body = { success: true, connection: presentConnection(await embeddedSignup.one(user.id, validate(ZIdParam, ctx.params.id))) };
  });

  router.post('/api/whatsapp/connections/:id/resume', async (ctx) => {
    const { user } = requireAuth(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const input = validate(ZResumeConnectionRequest, ctx.request.body ?? {});
    answer(ctx, await embeddedSignup.resume(user.id, id, input), 200);
  });

  router.delete('/api/whatsapp/connections/:id', async (ctx) => {
    const { user } = requireAuth(ctx);
    const result = await embeddedSignup.remove(user.id, validate(ZIdParam, ctx.params.id));
    ctx.body = {
      success: true,
      message: result.disconnected ? messages.whatsappConnect.disconnected : messages.whatsappConnect.removed,
      paused_campaign_ids: result.pausedCampaignIds,
    };
  });

  router.get('/api/admin/users/:id/whatsapp-connections', async (ctx) => {
    requireAdmin(ctx);
    const userId = validate(ZIdParam, ctx.params.id);
    ctx.body = { success: true, connections: (await embeddedSignup.list(userId, true)).map(presentConnection) };
  });

  router.post('/api/admin/users/:id/whatsapp-connections/:connectionId/disconnect', async (ctx) => {
    const { user: admin } = requireAdmin(ctx);
    const userId = validate(ZIdParam, ctx.params.id);
    const paused = await embeddedSignup.adminDisconnect(admin, userId, validate(ZIdParam, ctx.params.connectionId), ctx.ip);
    ctx.body = { success: true, message: messages.whatsappConnect.disconnected, paused_campaign_ids: paused };
  });

  return router;
}
