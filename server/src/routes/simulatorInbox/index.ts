import Router from '@koa/router';
import { messages } from '@shared/messages';
import type { AppConfig } from '../../config';
import type { Services } from '../../container';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../errors';
import { isLoopback } from '../../network/loopback';
import { validate } from '../../middleware/validate';
import { ZInboxMessage } from '../../simulator/inbox';
import type { AppState } from '../../types';

/**
 * The simulator's contact side (tests, demos): `POST /simulator/inbox/messages` answers a message
 * a contact received, taps one of its quick-reply buttons or sends a photo, as a signed Meta
 * webhook. Like the simulator's outbox, it answers only this machine unless opened on purpose.
 */
export function simulatorInboxRoutes(services: Services, config: AppConfig): Router<AppState> {
  const router = new Router<AppState>();
  router.post('/simulator/inbox/messages', async (ctx) => {
    const simulator = services.simulator;
    if (!config.simulatorEnabled || !simulator) throw NotFoundError(messages.server.simulatorDisabled, 'simulator_disabled');
    if (config.loopbackOnly.simulatorInbox && !isLoopback(ctx.ip)) throw ForbiddenError(messages.server.localOnly, 'local_only');
    const input = validate(ZInboxMessage, ctx.request.body);
    const sent = await simulator.receive(input);
    if (!sent.ok) throw BadRequestError('simulator_refused', sent.error);
    ctx.status = 201;
    ctx.body = { message_id: sent.messageId };
  });
  return router;
}
