/** The admin's view of signed webhook changes the server stored without acting on them. */
import Router from '@koa/router';
import { ZUnknownWebhookEventsQuery } from '@shared/schemas/webhookEvents';
import type { Services } from '../../container';
import { requireAdmin } from '../../middleware/auth';
import { validate } from '../../middleware/validate';
import { presentUnknownWebhookEventPage } from '../../presenters/webhookEvents';
import type { AppState } from '../../types';

export function adminWebhookEventRoutes(services: Services): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/admin/webhook-events' });

  router.get('/unknown', async (ctx) => {
    requireAdmin(ctx);
    const query = validate(ZUnknownWebhookEventsQuery, ctx.query);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentUnknownWebhookEventPage(await services.unknownWebhookEvents.list(query));
  });

  return router;
}
