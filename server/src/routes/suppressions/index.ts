import Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import { DEFAULT_OPT_OUT_KEYWORDS } from '@shared/optOutKeywords';
import {
  ZCreateSuppressionRequest,
  ZImportSuppressionsRequest,
  ZOptOutKeywordsRequest,
  ZReplyFlagDecision,
  ZSuppressionPhone,
  ZSuppressionsQuery,
} from '@shared/schemas/suppressions';
import { callerOf, sessionOrApiKey, type SessionOrKeyState } from '../../middleware/sessionOrApiKey';
import { requireAuth } from '../../middleware/auth';
import { validate } from '../../middleware/validate';
import { presentReplyFlag, presentSuppression, presentSuppressionsPage } from '../../presenters/suppressions';
import type { Services } from '../../container';
import type { AppState } from '../../types';

const ZId = z.coerce.number().int().min(1).max(2 ** 31 - 1);

/**
 * The suppression list by session or API key (bodies of an API-key call are read after the key is
 * accepted), and, for the signed-in user, the opt-out keywords and the replies flagged for a decision.
 */
export function suppressionRoutes(services: Services, body: Middleware<AppState>): Router<AppState> {
  const router = new Router<SessionOrKeyState>();
  const caller = sessionOrApiKey({ apiKeys: services.apiKeys, apiRateLimit: services.integrations.readRateLimit });
  const suppressions = services.suppressions;

  router.get('/api/suppressions', caller, async (ctx) => {
    ctx.body = presentSuppressionsPage(await suppressions.list(callerOf(ctx).id, validate(ZSuppressionsQuery, ctx.query)));
  });

  router.post('/api/suppressions', caller, body as Middleware<SessionOrKeyState>, async (ctx) => {
    const input = validate(ZCreateSuppressionRequest, ctx.request.body);
    const added = await suppressions.add(callerOf(ctx).id, input.phone, 'manual', input.reason ?? '');
    ctx.status = added.created ? 201 : 200;
    ctx.body = presentSuppression(added.entry);
  });

  router.post('/api/suppressions/import', caller, body as Middleware<SessionOrKeyState>, async (ctx) => {
    ctx.body = await suppressions.importCsv(callerOf(ctx).id, validate(ZImportSuppressionsRequest, ctx.request.body).csv);
  });

  router.get('/api/suppressions/export', caller, async (ctx) => {
    ctx.set('Content-Disposition', 'attachment; filename="suppression-list.csv"');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = await suppressions.exportCsv(callerOf(ctx).id);
  });

  router.get('/api/suppressions/keywords', async (ctx) => {
    const userId = requireAuth(ctx).user.id;
    const own = await suppressions.keywords(userId);
    ctx.body = { keywords: own.keywords, defaults: [...DEFAULT_OPT_OUT_KEYWORDS], custom: own.custom };
  });

  router.put('/api/suppressions/keywords', async (ctx) => {
    const userId = requireAuth(ctx).user.id;
    const input = validate(ZOptOutKeywordsRequest, ctx.request.body);
    const own = await suppressions.setKeywords(userId, input.keywords);
    ctx.body = { keywords: own.keywords, defaults: [...DEFAULT_OPT_OUT_KEYWORDS], custom: own.custom };
  });

  router.get('/api/suppressions/flags', async (ctx) => {
    const userId = requireAuth(ctx).user.id;
    ctx.body = { data: (await suppressions.openFlags(userId)).map(presentReplyFlag) };
  });

  router.post('/api/suppressions/flags/:id/decide', async (ctx) => {
    const userId = requireAuth(ctx).user.id;
    const input = validate(ZReplyFlagDecision, ctx.request.body);
    await suppressions.decideFlag(userId, validate(ZId, ctx.params.id), input.decision);
    ctx.status = 204;
  });

  router.delete('/api/suppressions/:phone', caller, async (ctx) => {
    await suppressions.remove(callerOf(ctx).id, validate(ZSuppressionPhone, decodeURIComponent(ctx.params.phone ?? '')));
    ctx.status = 204;
  });

  return router as unknown as Router<AppState>;
}
