import Router from '@koa/router';
import { requireAuth } from '../../middleware/auth';
import { presentCreditHistoryEntry } from '../../presenters/credits';
import type { Services } from '../../services';
import type { AppState } from '../../types';

export function creditRoutes(services: Services): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/credits' });

  router.get('/history', async (ctx) => {
    const { user } = requireAuth(ctx);
    const entries = await services.wallet.history(user.id);
    ctx.body = { success: true, history: entries.map(presentCreditHistoryEntry) };
  });

  return router;
}
