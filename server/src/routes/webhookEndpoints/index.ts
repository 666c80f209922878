import Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import { ZCreateWebhookEndpointRequest } from '@shared/schemas/webhookEndpoints';
import { callerOf, sessionOrApiKey, type SessionOrKeyState } from '../../middleware/sessionOrApiKey';
import { validate } from '../../middleware/validate';
import { presentWebhookDelivery, presentWebhookEndpoint, presentWebhookEndpointCreated } from '../../presenters/webhookEndpoints';
import type { Services } from '../../container';
import type { AppState } from '../../types';

const ZId = z.coerce.number().int().min(1).max(2 ** 53 - 1);

/**
 * Signed delivery webhooks: an owner's endpoints, by session or API key. Bodies of an
 * API-key call are read after the key is accepted (the body gate passes them through unread).
 */
export function webhookEndpointRoutes(services: Services, body: Middleware<AppState>): Router<AppState> {
  const router = new Router<SessionOrKeyState>();
  const caller = sessionOrApiKey({ apiKeys: services.apiKeys, apiRateLimit: services.integrations.readRateLimit });
  const webhooks = services.integrations.webhooks;

  router.post('/api/webhook-endpoints', caller, body as Middleware<SessionOrKeyState>, async (ctx) => {
    const input = validate(ZCreateWebhookEndpointRequest, ctx.request.body);
    const created = await webhooks.create(callerOf(ctx).id, input);
    ctx.status = 201;
    ctx.body = presentWebhookEndpointCreated(created.endpoint, created.secret);
  });

  router.get('/api/webhook-endpoints', caller, async (ctx) => {
    ctx.body = { data: (await webhooks.list(callerOf(ctx).id)).map(presentWebhookEndpoint) };
  });

  router.delete('/api/webhook-endpoints/:id', caller, async (ctx) => {
    await webhooks.remove(callerOf(ctx).id, validate(ZId, ctx.params.id));
    ctx.status = 204;
  });

  router.post('/api/webhook-endpoints/:id/rotate-secret', caller, async (ctx) => {
    const rotated = await webhooks.rotateSecret(callerOf(ctx).id, validate(ZId, ctx.params.id));
    ctx.body = presentWebhookEndpointCreated(rotated.endpoint, rotated.secret);
  });

  router.post('/api/webhook-endpoints/:id/test', caller, async (ctx) => {
    ctx.status = 202;
    ctx.body = presentWebhookDelivery(await webhooks.test(callerOf(ctx).id, validate(ZId, ctx.params.id)));
  });

  router.get('/api/webhook-endpoints/:id/deliveries', caller, async (ctx) => {
    ctx.body = { data: (await webhooks.deliveries(callerOf(ctx).id, validate(ZId, ctx.params.id))).map(presentWebhookDelivery) };
  });

  router.post('/api/webhook-endpoints/:id/deliveries/:deliveryId/retry', caller, async (ctx) => {
    const delivery = await webhooks.retry(callerOf(ctx).id, validate(ZId, ctx.params.id), validate(ZId, ctx.params.deliveryId));
    ctx.status = 202;
    ctx.body = presentWebhookDelivery(delivery);
  });

  return router as unknown as Router<AppState>;
}
