import Router from '@koa/router';
import { messages } from '@shared/messages';
import { ZIdParam } from '@shared/schemas/common';
import { ZReconciliationQuery, type TReconciliationResponse } from '@shared/schemas/numberHealth';
import { requireAdmin, requireAuth } from '../../middleware/auth';
import { validate } from '../../middleware/validate';
import { NotFoundError, ValidationError } from '../../errors';
import { presentAdminNumberHealth, presentNumberHealth, presentReconciliationDay } from '../../presenters/numberHealth';
import { RECONCILIATION_MAX_DAYS } from '../../reports/reconciliation';
import type { Services } from '../../container';
import type { AppState } from '../../types';

/** A range the reconciliation reads: both days given, the end not before the start, at most a quarter. */
function checkRange(from: string, to: string): void {
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000;
  if (!(days >= 0 && days < RECONCILIATION_MAX_DAYS)) throw ValidationError('to', messages.reconciliation.rangeInvalid);
}

/**
 * Numbers' health at Meta (the owner's numbers page, the admin's provider page) and the
 * reconciliation of what we charged with what Meta billed (docs/reports.md "Meta's bill").
 */
export function numberHealthRoutes(services: Services): Router<AppState> {
  const router = new Router<AppState>();
  const { numberHealth, reconciliation } = services;

  // The owner reads a number's health from Meta now (it is read daily and on Meta's webhooks too).
  router.post('/api/whatsapp/numbers/:id/health/refresh', async (ctx) => {
    const { user } = requireAuth(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const number = await numberHealth.one(id);
    if (!number || Number(number.userId) !== user.id || number.provider !== 'cloud_api') throw NotFoundError(messages.numberHealth.notFound);
    const row = await numberHealth.refresh(id);
    ctx.body = { success: true, message: messages.numberHealth.refreshed, health: presentNumberHealth(row ?? number) };
  });

  router.get('/api/admin/numbers/health', async (ctx) => {
    requireAdmin(ctx);
    ctx.body = { success: true, numbers: (await numberHealth.allCloudNumbers()).map(presentAdminNumberHealth) };
  });

  router.post('/api/admin/numbers/:id/health/refresh', async (ctx) => {
    requireAdmin(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const number = await numberHealth.one(id);
    if (!number || number.provider !== 'cloud_api') throw NotFoundError(messages.numberHealth.notFound);
    const row = await numberHealth.refresh(id);
    ctx.body = { success: true, message: messages.numberHealth.refreshed, health: presentNumberHealth(row ?? number) };
  });

  router.get('/api/admin/reconciliation', async (ctx) => {
    requireAdmin(ctx);
    const query = validate(ZReconciliationQuery, ctx.query);
    checkRange(query.from, query.to);
    const days = await reconciliation.byDay({ from: query.from, to: query.to, userId: query.userId ?? null });
    const body: TReconciliationResponse = { success: true, from: query.from, to: query.to, days: days.map(presentReconciliationDay) };
    ctx.body = body;
  });

  // The owner's own account only: a userId in the query is not theirs to choose.
  router.get('/api/reports/reconciliation', async (ctx) => {
    const { user } = requireAuth(ctx);
    const query = validate(ZReconciliationQuery.omit({ userId: true }), ctx.query);
    checkRange(query.from, query.to);
    const days = await reconciliation.byDay({ from: query.from, to: query.to, userId: user.id });
    const body: TReconciliationResponse = { success: true, from: query.from, to: query.to, days: days.map(presentReconciliationDay) };
    ctx.body = body;
  });

  return router;
}
