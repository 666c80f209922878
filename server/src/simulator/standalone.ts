/**
 * The simulator on its own port (`npm run simulator`), for a server started with SIMULATOR_URL:
 * closer to a real provider (another process), and what the dispatch bench measures against.
 * Templates are read from the same database the server uses (DATABASE_URL or DATA_DIR).
 */
import { z } from 'zod';
import { loadConfig } from '../config';
import { createDatabase } from '../db/knex';
import { SIMULATOR_ACCESS_TOKEN } from '../sending/providerRegistry';
import { startSimulatorServer } from './cloudApiSimulator';
import { databaseTemplateCategories, databaseTemplates } from './databaseTemplates';
import { SimulatorOutbox } from './outbox';

const settings = z
  .object({
    SIMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(3900),
    SIMULATOR_MPS: z.coerce.number().int().min(1).default(80),
    SIMULATOR_WEBHOOK_URL: z.url().default('http://127.0.0.1:3000/api/webhooks/whatsapp'),
  })
  .parse(process.env);

const config = loadConfig();
const db = createDatabase(config.database);

const server = await startSimulatorServer({
  port: settings.SIMULATOR_PORT,
  outbox: new SimulatorOutbox(),
  resolveTemplate: databaseTemplates(db, config.brand.name),
  resolveCategory: databaseTemplateCategories(db),
  accessToken: SIMULATOR_ACCESS_TOKEN,
  messagesPerSecond: settings.SIMULATOR_MPS,
  delays: { ...config.simulator.delays, jitterRatio: 0.2 },
  reviewMs: config.simulator.reviewMs,
  webhook: { url: settings.SIMULATOR_WEBHOOK_URL, appSecret: config.simulator.appSecret },
  webhookRetry: config.simulator.webhookRetry,
  onWebhookError: (error, { willRetry, statuses }) =>
    console.warn(willRetry ? `status webhook failed (${error.message}); retrying with backoff` : `${statuses} statuses dropped after their retries (${error.message})`),
  maxStatusesPerPost: 500,
});
console.log(`simulator listening on ${server.url} (${settings.SIMULATOR_MPS} messages/s per sender, webhooks to ${settings.SIMULATOR_WEBHOOK_URL})`);

const stop = () => {
  void server.close().then(() => db.destroy()).then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
