/**
 * The integrator platform's services, wired in one place so the services wiring needs
 * a single line for them.
 */
import type { Knex } from 'knex';
import type { Logger } from '../logger';
import type { NotificationService } from '../notifications/service';
import type { SecretBox } from '../security/secretBox';
import { ApiRateLimiter } from '../apiKeys/rateLimit';
import type { ThrottleFactory } from '../throttling/throttle';
import { IdempotencyService } from './idempotency';
import { MessageStatusService } from './messageStatus';
import { WebhookDeliverer } from './webhooks/deliverer';
import { WebhookService } from './webhooks/service';

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
  /** Webhook endpoints and the enqueueing of their events. */
  webhooks: WebhookService;
  /** The worker that delivers webhook events (started with the server). */
  webhookDeliverer: WebhookDeliverer;
}

export interface IntegrationDeps {
  db: Knex;
  throttles: ThrottleFactory;
  apiRateLimitPer15Min: number;
  secretBox: SecretBox;
  notifications: NotificationService;
  log: Logger;
  /** Production delivers webhooks to public https URLs only; elsewhere loopback http is allowed. */
  isProduction: boolean;
}

export function createIntegrations(deps: IntegrationDeps): Integrations {
  const policy = { allowLoopback: !deps.isProduction, requireHttps: deps.isProduction };
  const webhooks = new WebhookService({ db: deps.db, secretBox: deps.secretBox, policy, log: deps.log.child({ service: 'webhooks-out' }) });
  return {
    messageStatus: new MessageStatusService({ db: deps.db }),
    readRateLimit: new ApiRateLimiter({ throttles: deps.throttles, defaultPer15Min: deps.apiRateLimitPer15Min, budget: { name: 'read', scale: READ_RATE_SCALE } }),
    idempotency: new IdempotencyService({ db: deps.db }),
    webhooks,
    webhookDeliverer: new WebhookDeliverer({ db: deps.db, webhooks, notifications: deps.notifications, log: deps.log.child({ service: 'webhook-deliverer' }) }),
  };
}
