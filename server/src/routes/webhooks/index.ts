import Router from '@koa/router';
import { messages } from '@shared/messages';
import type { AppConfig } from '../../config';
import { UnauthorizedError } from '../../errors';
import { isLoopback } from '../../network/loopback';
import { CHANNEL_WEBHOOK_HEADERS } from '../../providerAccounts/channelWebhook';
import { WEBHOOK_PATH } from '../../sending/engine';
import { looksSigned, verifyWebhookHandshake } from '../../sending/providers/webhooks';
import type { Services } from '../../container';
import type { AppState } from '../../types';

const invalidSignature = () => UnauthorizedError(messages.webhooks.invalidSignature, 'invalid_signature');

/**
 * The provider's webhook (Meta's Cloud API, 360dialog, the simulator). Meta's and the simulator's
 * bodies must be signed, refused unsigned before any database work, and each change is verified
 * with its own account's secret; 360dialog's carry the channel and token headers registered with
 * the webhook (providerAccounts/channelWebhook.ts). See sending/webhookIngest.ts; the answer goes
 * back at once.
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
    // 360dialog forwards Meta's body unsigned, with the headers its webhook was registered with.
    const channelId = ctx.get(CHANNEL_WEBHOOK_HEADERS.channel);
    if (channelId) {
      const receipt = await webhooks.receiveFromChannel(channelId, ctx.get(CHANNEL_WEBHOOK_HEADERS.token), ctx.request.body);
      if (!receipt.verified) throw invalidSignature();
      ctx.body = { success: true };
      return;
    }
    const signature = ctx.get('X-Hub-Signature-256');
    if (!looksSigned(signature)) throw invalidSignature();
    const raw = (ctx.request as typeof ctx.request & { rawBody?: string }).rawBody ?? '';
    const receipt = await webhooks.receive(raw, signature, ctx.request.body, isLoopback(ctx.ip));
    if (!receipt.verified) throw invalidSignature();
    ctx.body = { success: true };
  });

  return router;
}
