import Router from '@koa/router';
import { ZMessagesQuery } from '@shared/schemas/messages';
import { callerOf, sessionOrApiKey, type SessionOrKeyState } from '../../middleware/sessionOrApiKey';
import { validate } from '../../middleware/validate';
import { presentMessagesPage, presentPublicMessage } from '../../presenters/messages';
import type { Services } from '../../container';
import type { AppState } from '../../types';

/** Status by API key: a message by its id and the caller's messages, cursor-paged. */
export function messageRoutes(services: Services): Router<AppState> {
  const router = new Router<SessionOrKeyState>();
  const caller = sessionOrApiKey({ apiKeys: services.apiKeys, apiRateLimit: services.integrations.readRateLimit });

  router.get('/api/messages', caller, async (ctx) => {
    const query = validate(ZMessagesQuery, ctx.query);
    ctx.body = presentMessagesPage(await services.integrations.messageStatus.list(callerOf(ctx).id, query));
  });

  router.get('/api/messages/:messageId', caller, async (ctx) => {
    ctx.body = presentPublicMessage(await services.integrations.messageStatus.get(callerOf(ctx).id, ctx.params.messageId ?? ''));
  });

  return router as unknown as Router<AppState>;
}
