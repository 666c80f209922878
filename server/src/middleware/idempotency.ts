import type { Middleware } from 'koa';
import { messages } from '@shared/messages';
import { BadRequestError } from '../errors';
import { IDEMPOTENCY_KEY_PATTERN, requestHash, type IdempotencyService } from '../integratorApi/idempotency';
import type { ApiKeyState } from './apiKey';

/**
 * `Idempotency-Key` on the public send calls; runs after the key is accepted and the
 * body parsed. Without the header the request runs as before. A replayed answer carries
 * `Idempotent-Replayed: true`, as Stripe's does.
 */
export function idempotencyKeys(service: IdempotencyService): Middleware<ApiKeyState> {
  return async (ctx, next) => {
    const key = ctx.get('Idempotency-Key');
    if (!key) return next();
    if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw BadRequestError('idempotency_key_invalid', messages.integrations.idempotencyKeyInvalid, 'Idempotency-Key');
    const claim = await service.claim(ctx.state.apiUser.id, key, requestHash(ctx.method, ctx.path, ctx.request.body));
    if (claim.kind === 'replay') {
      ctx.status = claim.status;
      ctx.body = claim.body;
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }
    try {
      await next();
    } catch (error) {
      await claim.release();
      throw error;
    }
    if (ctx.status >= 200 && ctx.status < 300) await claim.finish(ctx.status, ctx.body);
    else await claim.release();
  };
}
