/**
 * The integrator platform's services (issue 15), wired in one place so the services wiring needs
 * a single line for them.
 */
import type { Knex } from 'knex';
import { ApiRateLimiter } from '../services/apiRateLimit';
import type { ThrottleFactory } from '../services/throttle';
import { IdempotencyService } from './idempotency';
import { MessageStatusService } from './messageStatus';

/**
 * Status reads by key may be ten times as many as sends in a window: an integrator without a
 * webhook polls each message a few times, and reads must never use up the sending allowance.
 */
export const READ_RATE_SCALE = 10;

export interface Integrations {
  /** Status by API key: a message by its id, the caller's messages cursor-paged. */
  messageStatus: MessageStatusService;
  /** The rate limit of reads by API key (status calls, reports), counted apart from sends. */
  readRateLimit: ApiRateLimiter;
  /** Idempotency-Key on the public send calls. */
  idempotency: IdempotencyService;
}

export function createIntegrations(deps: { db: Knex; throttles: ThrottleFactory; apiRateLimitPer15Min: number }): Integrations {
  return {
    messageStatus: new MessageStatusService({ db: deps.db }),
    idempotency: new IdempotencyService({ db: deps.db }),
    readRateLimit: new ApiRateLimiter({ throttles: deps.throttles, defaultPer15Min: deps.apiRateLimitPer15Min, budget: { name: 'read', scale: READ_RATE_SCALE } }),
  };
}
