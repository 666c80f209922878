/**
 * The simulator mounted at /simulator inside this server (when it is on and no separate one is
 * configured): sandbox numbers send to it in development and tests. Built by container.ts and
 * handed to the sending engine as an `EmbeddedSimulator`, which points it at the server's own
 * webhook once the server listens and closes it with the engine.
 */
import type { Knex } from 'knex';
import type { AppConfig } from '../config';
import type { Logger } from '../logger';
import { PLATFORM_PHONE_NUMBER_ID } from '../sending/platformSender';
import { SIMULATOR_ACCESS_TOKEN, type CredentialsSource } from '../sending/providerRegistry';
import { CloudApiSimulator } from './cloudApiSimulator';
import { databaseChannelKeys, databaseTemplateCategories, databaseTemplates } from './databaseTemplates';
import type { SimulatorOutbox } from './outbox';

export function createEmbeddedSimulator(deps: {
  config: AppConfig;
  db: Knex;
  outbox: SimulatorOutbox;
  credentials: CredentialsSource | null;
  log: Logger;
}): CloudApiSimulator | null {
  const { config, db, log } = deps;
  if (!config.simulatorEnabled || config.simulator.url) return null;
  return new CloudApiSimulator({
    outbox: deps.outbox,
    resolveTemplate: databaseTemplates(db, config.brand.name),
    resolveCategory: databaseTemplateCategories(db),
    accessToken: SIMULATOR_ACCESS_TOKEN,
    channelForKey: databaseChannelKeys(deps.credentials),
    messagesPerSecond: config.sending.sandboxMessagesPerSecond,
    delays: { ...config.simulator.delays, jitterRatio: 0.2 },
    reviewMs: config.simulator.reviewMs,
    displayPhoneNumber: (phoneNumberId) => (phoneNumberId === PLATFORM_PHONE_NUMBER_ID ? config.platformWhatsappNumber : phoneNumberId),
    webhookRetry: config.simulator.webhookRetry,
    onWebhookError: (error, { willRetry, statuses }) =>
      willRetry
        ? log.warn({ err: error }, 'simulator status webhook failed; retrying with backoff')
        : log.error({ err: error, statuses }, 'simulator status webhooks dropped after their retries'),
  });
}
