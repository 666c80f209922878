import Router from '@koa/router';
import type { THealthResponse, TPublicConfig } from '@shared/types';
import { messages } from '@shared/messages';
import { digitsOnly } from '@shared/schemas/auth';
import type { AppConfig } from '../../config';
import type { Services } from '../../container';
import { ForbiddenError, NotFoundError } from '../../errors';
import { isLoopback } from '../../network/loopback';
import type { SimulatorOutbox } from '../../simulator/outbox';
import type { AppState } from '../../types';

const startedAt = Date.now();

export function systemRoutes(deps: { config: AppConfig; database: Services['database']; outbox: SimulatorOutbox; version: string }): Router<AppState> {
  const router = new Router<AppState>();
  const { config } = deps;

  router.get('/api/health', async (ctx) => {
    const body: THealthResponse = {
      status: 'ok',
      version: deps.version,
      database: { kind: deps.database.kind, version: await deps.database.version() },
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.get('/api/public-config', (ctx) => {
    const body: TPublicConfig = {
      brandName: config.brand.name,
      support: { phone: config.brand.supportPhone, email: config.brand.supportEmail, address: config.brand.supportAddress },
      environment: config.env,
      idleTimeoutSeconds: config.session.idleTimeoutSeconds,
    };
    ctx.body = body;
  });

  router.get('/simulator/messages', (ctx) => {
    if (!config.simulatorEnabled) throw NotFoundError(messages.server.simulatorDisabled, 'simulator_disabled');
    // The inbox shows every password-reset code: only this machine may read it unless enabled on purpose.
    if (config.loopbackOnly.simulatorInbox && !isLoopback(ctx.ip)) throw ForbiddenError(messages.server.localOnly, 'local_only');
    const to = typeof ctx.query.to === 'string' ? digitsOnly(ctx.query.to) : undefined;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { data: deps.outbox.list(to || undefined) };
  });

  return router;
}
