import Router from '@koa/router';
import { messages } from '@shared/messages';
import type { AppConfig } from '../../config';
import { UnauthorizedError } from '../../errors';
import { isLoopback } from '../../middleware/network';
import { WEBHOOK_PATH } from '../../sending/engine';
import { looksSigned, verifyWebhookHandshake } from '../../sending/providers/webhooks';
import type { Services } from '../../container';
import type { AppState } from '../../types';

const invalidSignature = () => UnauthorizedError(messages.webhooks.invalidSignature, 'invalid_signature');

/**
 * The provider's webhook (Meta's Cloud API, the channel provider, the simulator). Unsigned
 * requests are refused before any database work; the ingest service verifies each change with
 * its own account's secret (sending/webhookIngest.ts) and the answer goes back at once.
 */
export function webhookRoutes(services: Services, config: AppConfig): Router<AppState> {
  const router = new Router<AppState>();
  const { providerCredentials, webhooks } = services;

  router.get(WEBHOOK_PATH, async (ctx) => {
    const tokens = [...(config.providers.webhookVerifyToken ? [config.providers.webhookVerifyToken] : []), ...(await providerCredentials.verifyTokens())];
    for (const token of tokens) {
      const result = verifyWebhookHandshake(ctx.query, token);
      if (result.ok) {
        ctx.type = 'text/plain';
        ctx.body = result.challenge;
        return;
      }
    }
    ctx.status = 403;
    ctx.body = { success: false, error: messages.webhooks.verificationFailed };
  });

  router.post(WEBHOOK_PATH, async (ctx) => {
    const signature = ctx.get('X-Hub-Signature-256');
    if (!looksSigned(signature)) throw invalidSignature();
    const raw = (ctx.request as typeof ctx.request & { rawBody?: string }).rawBody ?? '';
    const receipt = await webhooks.receive(raw, signature, ctx.request.body, isLoopback(ctx.ip));
    if (!receipt.verified) throw invalidSignature();
    ctx.body = { success: true };
  });

  return router;
}
