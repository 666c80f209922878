import Router from '@koa/router';
import type { ParameterizedContext } from 'koa';
import type { TApiKeyListResponse, TCreateApiKeyResponse } from '@shared/apiKeys';
import { messages } from '@shared/messages';
import { ZApiKeyRateLimitRequest, ZCreateApiKeyRequest } from '@shared/schemas/apiKeys';
import { ZIdParam } from '@shared/schemas/common';
import { ForbiddenError, NotFoundError } from '../../errors';
import { requireAdmin, requireAuth } from '../../middleware/auth';
import { validate } from '../../middleware/validate';
import { presentAdminApiKey, presentApiKey, presentCreatedApiKey } from '../../presenters/apiKey';
import type { Services } from '../../container';
import type { AppState, AuthContext } from '../../types';

/** API keys belong to regular users, like the API Management screen that makes them. */
function requireRegularUser(ctx: ParameterizedContext<AppState>): AuthContext {
  const auth = requireAuth(ctx);
  if (auth.user.role !== 'user') throw ForbiddenError(messages.auth.userOnly, 'user_only');
  return auth;
}

export function apiKeyRoutes(services: Pick<Services, 'apiKeys' | 'users' | 'notifications' | 'team'>): Router<AppState> {
  const router = new Router<AppState>();
  const apiKeys = services.apiKeys;

  router.get('/api/keys', async (ctx) => {
    const { user } = requireRegularUser(ctx);
    const body: TApiKeyListResponse = { success: true, data: (await apiKeys.list(user.id)).map(presentApiKey) };
    ctx.body = body;
  });

  router.post('/api/keys', async (ctx) => {
    const { user, actor } = requireRegularUser(ctx);
    const { name } = validate(ZCreateApiKeyRequest, ctx.request.body);
    const { apiKey, key } = await apiKeys.create(user, name, { ip: ctx.ip });
    await services.team.recordActor('apiKey', apiKey.id, user.id, actor.id);
    void services.notifications.apiKeyCreated(user.id, apiKey.prefix);
    const body: TCreateApiKeyResponse = { success: true, data: presentCreatedApiKey(apiKey, key), message: messages.apiKeys.created };
    ctx.status = 201;
    // The full key is in this answer only: no cache may keep it.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.delete('/api/keys/:id', async (ctx) => {
    const { user } = requireRegularUser(ctx);
    const keyId = validate(ZIdParam, ctx.params.id);
    await apiKeys.revoke(user, keyId, { ip: ctx.ip });
    void services.notifications.apiKeyDeleted(user.id, keyId);
    ctx.body = { success: true, message: messages.apiKeys.revoked };
  });

  router.get('/api/admin/users/:id/api-keys', async (ctx) => {
    requireAdmin(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    if (!(await services.users.findById(id))) throw NotFoundError(messages.admin.userNotFound, 'user_not_found');
    ctx.body = { success: true, data: (await apiKeys.listForAdmin(id)).map(presentAdminApiKey) };
  });

  router.put('/api/admin/api-keys/:id/rate-limit', async (ctx) => {
    const { user: admin } = requireAdmin(ctx);
    const id = validate(ZIdParam, ctx.params.id);
    const { rateLimitPer15Min } = validate(ZApiKeyRateLimitRequest, ctx.request.body);
    const key = await apiKeys.setRateLimit(admin, id, rateLimitPer15Min, ctx.ip);
    ctx.body = { success: true, message: messages.apiKeys.rateLimitUpdated, data: presentAdminApiKey(key) };
  });

  return router;
}
