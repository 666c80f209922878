import Router from '@koa/router';
import { z } from 'zod';
import type { TCreditHistoryResponse } from '@shared/types';
import { requireAuth } from '../../middleware/auth';
import { validate } from '../../middleware/validate';
import { presentCreditHistoryEntry } from '../../presenters/credits';
import type { Services } from '../../container';
import type { AppState } from '../../types';

const ZHistoryQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
  limit: z.coerce.number().int().min(1).max(200).catch(50),
});

export function creditRoutes(services: Services): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/credits' });

  router.get('/history', async (ctx) => {
    const { user } = requireAuth(ctx);
    const { page, limit } = validate(ZHistoryQuery, ctx.query);
    const { entries, total } = await services.wallet.history(user.id, page, limit);
    const totalPages = Math.max(1, Math.ceil(total / limit));
    const body: TCreditHistoryResponse = {
      success: true,
      history: entries.map(presentCreditHistoryEntry),
      pagination: { page, limit, total, totalPages, hasMore: page * limit < total },
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  return router;
}
